// The admin CLI's command model: what a command declares (options, help), the two error kinds
// that decide the exit code, and argument parsing with node:util parseArgs.
import { parseArgs } from 'node:util';
import type { Runtime } from '../../server/boot.ts';
import type { SchemaRegistry } from '../../server/schemas/registry.ts';

export const PROGRAM = 'admin';

/** Bad or missing arguments: exit code 2, and nothing touches the database. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command was understood but cannot be done (unknown project, taken slug…): exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Placeholder shown in help, e.g. `REF`. */
  value?: string;
  description: string;
}

export interface Output {
  /** What `--json` prints: one object. */
  json: object;
  /** What people see, ending with a newline. */
  human: string;
}

export interface Args {
  values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  positionals: readonly string[];
}

/** Turns validated arguments into work on the runtime. */
export type Action = (runtime: Runtime) => Promise<Output>;

export interface Command {
  group: string;
  name: string;
  summary: string;
  /** Everything after `admin <group> <name>` in the synopsis. */
  synopsis: string;
  options: Readonly<Record<string, OptionSpec>>;
  positional?: { name: string; description: string };
  /**
   * Validates everything that can be checked without the database and returns the action.
   * Kept apart from running so usage errors never start or connect to a database.
   */
  prepare(args: Args, schemas: SchemaRegistry): Action;
}

// Accepted by every command, wherever they appear.
const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: { type: 'boolean', description: 'print exactly one JSON object on stdout' },
  help: { type: 'boolean', description: 'show this help' },
};

export interface Parsed {
  args: Args;
  json: boolean;
  help: boolean;
}

export function parseCommandArgs(command: Command, argv: readonly string[]): Parsed {
  const specs: Record<string, OptionSpec> = { ...command.options, ...GLOBAL_OPTIONS };
  const options = Object.fromEntries(Object.entries(specs).map(([name, spec]) =>
    [name, { type: spec.type, multiple: spec.multiple ?? false, ...(name === 'help' ? { short: 'h' } : {}) }]));
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: command.positional !== undefined, tokens: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error, command));
  }
  const { positionals, tokens } = parsed;
  // Only string options are declared repeatable, so every list holds strings.
  const values = parsed.values as Args['values'];
  const help = values['help'] === true;
  const json = values['json'] === true;
  if (help) return { args: { values, positionals }, json, help };

  // parseArgs silently keeps the last of a repeated option; a repeat is more likely a mistake.
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || specs[token.name]?.multiple || token.name in GLOBAL_OPTIONS) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} given more than once`);
    seen.add(token.name);
  }
  if (command.positional) {
    if (positionals.length === 0) throw new UsageError(`missing ${command.positional.name}`);
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  }
  return { args: { values, positionals }, json, help };
}

/** parseArgs's messages are multi-line and mention its own API; say it in the CLI's terms. */
function parseArgsMessage(error: unknown, command: Command): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const option = quoted.split(' ')[0] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option} for "${command.group} ${command.name}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (message.includes('does not take an argument')) return `${option} does not take a value`;
      // "missing" at the end, or "ambiguous" when the next word is another option.
      return `${option} needs a value${message.includes('ambiguous') ? ` (to pass one starting with "-", write ${option}=-…)` : ''}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${quoted}"`;
    default:
      return message.split('\n')[0] ?? message;
  }
}

// ---- typed access to parsed values -----------------------------------------------------------

export function optionalString(args: Args, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredString(args: Args, name: string): string {
  const value = optionalString(args, name);
  if (value === undefined) throw new UsageError(`missing --${name}`);
  return value;
}

export function strings(args: Args, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value : [];
}

export function flag(args: Args, name: string): boolean {
  return args.values[name] === true;
}

// ---- help --------------------------------------------------------------------------------------

export function commandHelp(command: Command): string {
  const rows: [string, string][] = Object.entries({ ...command.options, ...GLOBAL_OPTIONS }).map(([name, spec]) => [
    `--${name}${name === 'help' ? ', -h' : ''}${spec.value ? ` ${spec.value}` : ''}`,
    `${spec.description}${spec.multiple ? ' (repeatable)' : ''}`,
  ]);
  if (command.positional) rows.unshift([command.positional.name, command.positional.description]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `Usage: ${PROGRAM} ${command.group} ${command.name} ${command.synopsis} [--json]`.replace(/ +/g, ' '),
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    '',
  ].join('\n');
}

export function overviewHelp(commands: readonly Command[], group?: string): string {
  const shown = commands.filter((command) => group === undefined || command.group === group);
  return [
    `Usage: ${PROGRAM} ${group ?? '<group>'} <command> [options] [--json]`,
    '',
    'Administers the Catalog Service: projects, catalog versions, API keys and personal access',
    'tokens. Run it as `npm run --silent admin -- …` or `npx node scripts/admin.ts …` (both use',
    "the project's Node.js 24); it reads the service's configuration (MONGODB_URI and JWT_SECRET,",
    'or the embedded database).',
    '',
    'Commands:',
    // Synopses are long; each summary goes on its own line below.
    ...shown.flatMap((command) => [`  ${command.group} ${command.name} ${command.synopsis}`.trimEnd(), `      ${command.summary}`]),
    '',
    `Options of a command: ${PROGRAM} <group> <command> --help`,
    'Exit codes: 0 success, 1 the command failed, 2 bad or missing arguments.',
    '',
  ].join('\n');
}
