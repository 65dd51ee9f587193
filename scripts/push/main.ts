// The push command: a description kept in a repository (one file, or an entry joined to other
// files by relative `$ref`s) bundled here and posted to the catalog's import, for CI and people.
// Owns the exit codes CI relies on: 0 written or nothing to write (or a dry run), 1 refused by a
// gate, 2 bad input or usage (a bad credential included), 3 the catalog could not be reached.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleDescription, BundleRefused } from '../../server/descriptions/bundle.ts';
import { describeOutcome, type PushOutcome } from './output.ts';
import { postImport, Unreachable } from './catalog.ts';

export const EXIT = { ok: 0, gate: 1, usage: 2, unreachable: 3 } as const;

export const USAGE = `usage: catalog-push <entry file> --project <slug or id> --version <type/slug>
                    [--service <slug>] [--dry-run] [--fail-on breaking|lint-error] [--min-score <0-100>] [--json]
                    [--allow-remote-refs <url prefix>]...
The catalog's address and credential come from CATALOG_URL and CATALOG_TOKEN (never the command line).`;

class UsageError extends Error {}

interface PushOptions {
  entry: string;
  project: string;
  versionType: string;
  versionSlug: string;
  service?: string;
  dryRun: boolean;
  failOn?: 'breaking' | 'lint-error';
  minScore?: number;
  json: boolean;
  remotePrefixes: string[];
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, print: (text: string) => void): Promise<number> {
  let json = argv.includes('--json');
  try {
    const options = parseOptions(argv);
    json = options.json;
    const catalog = catalogOf(env);
    const outcome = await push(options, catalog);
    print(describeOutcome(outcome, json));
    return outcome.exitCode;
  } catch (error) {
    const outcome = failureOf(error);
    print(describeOutcome(outcome, json));
    return outcome.exitCode;
  }
}

function parseOptions(argv: readonly string[]): PushOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv], allowPositionals: true, strict: true,
      options: {
        project: { type: 'string' }, version: { type: 'string' }, service: { type: 'string' },
        'dry-run': { type: 'boolean', default: false }, 'fail-on': { type: 'string' }, json: { type: 'boolean', default: false },
        'allow-remote-refs': { type: 'string', multiple: true, default: [] }, help: { type: 'boolean', short: 'h', default: false },
        'min-score': { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError('');
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing the entry file' : `one entry file only (got ${positionals.join(', ')})`);
  if (!values.project) throw new UsageError('missing --project');
  const version = /^([a-z]+)\/(.+)$/.exec(values.version ?? '');
  if (!version) throw new UsageError('--version must be <type>/<slug>, e.g. branch/main');
  const failOn = values['fail-on'];
  const minScore = values['min-score'] === undefined ? undefined : Number(values['min-score']);
  if (minScore !== undefined && !(Number.isInteger(minScore) && minScore >= 0 && minScore <= 100)) throw new UsageError(`--min-score must be an integer from 0 to 100 (got ${values['min-score']})`);
  if (failOn !== undefined && failOn !== 'breaking' && failOn !== 'lint-error') throw new UsageError(`--fail-on must be breaking or lint-error (got ${failOn})`);
  return {
    entry: positionals[0]!, project: values.project, versionType: version[1]!, versionSlug: version[2]!,
    ...(values.service === undefined ? {} : { service: values.service }),
    dryRun: values['dry-run'], ...(failOn === undefined ? {} : { failOn }), ...(minScore === undefined ? {} : { minScore }), json: values.json, remotePrefixes: values['allow-remote-refs'],
  };
}

function catalogOf(env: NodeJS.ProcessEnv): { url: string; token: string } {
  const url = env['CATALOG_URL'];
  const token = env['CATALOG_TOKEN'];
  if (!url) throw new UsageError('CATALOG_URL is not set (the catalog\'s address, e.g. https://catalog.example.com)');
  if (!token) throw new UsageError('CATALOG_TOKEN is not set (an API key or personal access token with write access to the project)');
  if (!URL.canParse(url)) throw new UsageError(`CATALOG_URL is not a URL: ${url}`);
  return { url: url.replace(/\/+$/, ''), token };
}

async function push(options: PushOptions, catalog: { url: string; token: string }): Promise<PushOutcome> {
  const entry = path.resolve(options.entry);
  const { document, files } = await bundleDescription(path.basename(entry), {
    root: path.dirname(entry),
    read: (file) => fs.readFile(file, 'utf8'),
    remotePrefixes: options.remotePrefixes,
  });
  const answer = await postImport(catalog, {
    project: options.project, versionType: options.versionType, versionSlug: options.versionSlug, document,
    ...(options.service === undefined ? {} : { service: options.service }), dryRun: options.dryRun, ...(options.failOn === undefined ? {} : { failOn: options.failOn }),
    ...(options.minScore === undefined ? {} : { minScore: options.minScore }),
  });
  const place = { catalog: catalog.url, project: options.project, type: options.versionType, slug: options.versionSlug };
  return { ...answer, files: files.length, place, dryRun: options.dryRun };
}

function failureOf(error: unknown): PushOutcome {
  if (error instanceof UsageError) {
    return { exitCode: EXIT.usage, result: 'usage', problems: error.message ? [{ field: '', message: error.message }] : [], usage: USAGE };
  }
  if (error instanceof BundleRefused) return { exitCode: EXIT.usage, result: 'bad-input', problems: error.problems.map(({ file, message }) => ({ field: file, message })) };
  if (error instanceof Unreachable) return { exitCode: EXIT.unreachable, result: 'unreachable', problems: [{ field: '', message: error.message }] };
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    return { exitCode: EXIT.usage, result: 'bad-input', problems: [{ field: (error as NodeJS.ErrnoException).path ?? '', message: 'no such file' }] };
  }
  throw error;
}
