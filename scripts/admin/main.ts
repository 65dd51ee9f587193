// The admin CLI's dispatcher: finds the command, parses and validates its arguments, runs it
// against the service's database and prints the result; owns the exit codes (0 ok, 1 the
// command failed, 2 usage) and the `error: ` line.
import { ConfigError } from '../../server/config.ts';
import { loadSchemaRegistry } from '../../server/schemas/registry.ts';
import { commandHelp, overviewHelp, parseCommandArgs, PROGRAM, UsageError, type Command } from './command.ts';
import { keyCommands } from './keys.ts';
import { lintCommands } from './lint.ts';
import { projectCommands } from './projects.ts';
import { subscriptionCommands } from './subscriptions.ts';
import { tokenCommands } from './tokens.ts';
import { versionCommands } from './versions.ts';

const COMMANDS: readonly Command[] = [...projectCommands, ...versionCommands, ...keyCommands, ...tokenCommands, ...subscriptionCommands, ...lintCommands];
const GROUPS = [...new Set(COMMANDS.map((command) => command.group))];

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

export async function main(argv: readonly string[]): Promise<number> {
  // Global flags may come before the group and command too: `admin --json project list`.
  const leading = { json: false, help: false };
  const words: string[] = [];
  let rest = 0;
  for (; rest < argv.length && words.length < 2; rest++) {
    const arg = argv[rest]!;
    if (arg === '--json') leading.json = true;
    else if (arg === '--help' || arg === '-h') leading.help = true;
    else if (arg.startsWith('-')) break;
    else words.push(arg);
  }
  const [group, name] = words;
  let command: Command | undefined;
  try {
    if (group === undefined) {
      if (leading.help) return print(overviewHelp(COMMANDS));
      throw new UsageError(rest >= argv.length ? 'missing command' : `unknown option ${argv[rest]}`);
    }
    if (!GROUPS.includes(group)) throw new UsageError(`unknown command "${group}" (commands: ${GROUPS.join(', ')})`);
    const names = COMMANDS.filter((c) => c.group === group).map((c) => c.name);
    if (name === undefined) {
      if (leading.help) return print(overviewHelp(COMMANDS, group));
      throw new UsageError(`missing command after "${group}" (one of: ${names.join(', ')})`);
    }
    command = COMMANDS.find((c) => c.group === group && c.name === name);
    if (!command) throw new UsageError(`unknown command "${group} ${name}" (one of: ${names.map((n) => `${group} ${n}`).join(', ')})`);

    const parsed = parseCommandArgs(command, argv.slice(rest));
    if (leading.help || parsed.help) return print(commandHelp(command));
    const json = leading.json || parsed.json;
    // The schemas are loaded before the database is touched: they validate the arguments.
    const schemas = loadSchemaRegistry();
    const action = command.prepare(parsed.args, schemas);
    // Loaded only now: the database driver and logger cost a noticeable part of a start-up
    // that help and usage errors do not need.
    const { withRuntime } = await import('./runtime.ts');
    const output = await withRuntime(schemas, action);
    return print(json ? `${JSON.stringify(output.json)}\n` : output.human);
  } catch (error) {
    return fail(error, command, group);
  }
}

function print(text: string): number {
  process.stdout.write(text);
  return EXIT_OK;
}

/** One line on stderr, starting with `error: `; stdout stays empty. */
function fail(error: unknown, command: Command | undefined, group: string | undefined): number {
  if (error instanceof UsageError) {
    const help = [PROGRAM, command?.group ?? (GROUPS.includes(group ?? '') ? group : undefined), command?.name, '--help'].filter(Boolean).join(' ');
    process.stderr.write(`error: ${error.message} (see: ${help})\n`);
    return EXIT_USAGE;
  }
  // CommandError and Tenancy's DuplicateSlug carry messages written for people; anything else
  // (the database unreachable…) is shown as it comes.
  const message = error instanceof ConfigError ? `configuration: ${error.message}` : error instanceof Error ? error.message : String(error);
  // Multi-line messages (e.g. "no database server could be started", with the ways out) are
  // folded so the error stays one line.
  process.stderr.write(`error: ${message.replace(/\s*\n\s*/g, ' ').trim()}\n`);
  return EXIT_FAILED;
}
