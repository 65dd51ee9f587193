// `npm run fuzz -- --conformance`: an outside fuzzer (schemathesis) reads the service's own
// /v2/openapi.json and checks that the service does what the document says, in both directions:
// no 5xx, statuses, media types, headers and bodies as documented, every request the document
// calls valid accepted and every invalid one refused. schemathesis is installed on first need
// into a virtualenv under .cache/, the way FerretDB and Chromium are got.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';
import { conformanceBaseline } from './conformance-baseline.ts';
import type { FuzzWorld } from './setup.ts';

const SCHEMATHESIS = 'schemathesis>=4.32,<4.33';
const VENV = path.join(repoRoot, '.cache', 'schemathesis');
const ST = path.join(VENV, 'bin', 'st');

export interface ConformanceOptions {
  maxExamples: number;
  seed: number;
  /** Where schemathesis writes its reports (JSON run report, JUnit). */
  reportDir: string;
  /** Only the operations whose operationId matches (a regular expression). */
  operations?: string;
}

/** Figures of one run, from schemathesis's JSON report. */
export interface ConformanceFigures {
  operations: number;
  requests: number;
  /** Distinct failures per check (a check that never failed is listed with 0), the baseline's aside. */
  failures: Record<string, number>;
  /** Distinct failures the baseline accepts (conformance-baseline.ts). */
  known: number;
  exitCode: number;
}

/** The `st` binary, installed into .cache/schemathesis on first need; one line says so. */
export function schemathesis(): string {
  if (fs.existsSync(ST)) return ST;
  const python = ['python3', 'python'].find((name) => spawnSync(name, ['--version']).status === 0);
  if (!python) {
    throw new Error('conformance: Python 3.10+ with venv is needed for schemathesis (Debian: apt-get install python3-venv)');
  }
  process.stdout.write(`conformance: installing ${SCHEMATHESIS} into ${path.relative(repoRoot, VENV)} (first run only)\n`);
  const venv = spawnSync(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
  const pip = venv.status === 0 ? spawnSync(path.join(VENV, 'bin', 'pip'), ['install', '--quiet', SCHEMATHESIS], { stdio: 'inherit' }) : venv;
  if (pip.status !== 0 || !fs.existsSync(ST)) {
    fs.rmSync(VENV, { recursive: true, force: true });
    throw new Error(`conformance: could not install ${SCHEMATHESIS} with ${python} -m venv and pip; install it and put \`st\` in ${path.relative(repoRoot, ST)}`);
  }
  return ST;
}

/**
 * Runs every check of schemathesis against the world's service, failing on anything but the
 * refusals that depend on the version's records (conformance-baseline.ts): the fuzzed tenant's read-write
 * key, its version named in every path (so requests reach records, not 403), and a version of
 * its project for the two version deletes to take.
 */
export async function runConformance(world: FuzzWorld, options: ConformanceOptions): Promise<ConformanceFigures> {
  const st = schemathesis();
  const { targets } = world;
  // In the fuzzed project, so the fuzzed key reaches it and the project's address stays the same.
  const doomed = await world.service.runtime.tenancy.versions.create(targets.projectId, 'branch', 'conformance-doomed');
  fs.mkdirSync(options.reportDir, { recursive: true });
  const config = path.join(options.reportDir, 'schemathesis.toml');
  fs.writeFileSync(config, configFile(targets, doomed));
  const baseline = path.join(options.reportDir, 'baseline.json');
  fs.writeFileSync(baseline, `${JSON.stringify(conformanceBaseline(world.service.runtime.schemas), null, 2)}\n`);
  const args = [
    '--config-file', config, 'run', `${world.target.baseUrl}/v2/openapi.json`,
    '--checks', 'all', '--max-examples', String(options.maxExamples), '--seed', String(options.seed),
    '--report', 'json,junit', '--report-dir', options.reportDir, '--no-color', '--workers', '1',
    '--suppress-health-check', 'all', '--request-timeout', '30', '--baseline', baseline,
    ...(options.operations ? ['--include-operation-id-regex', options.operations] : []),
  ];
  const exitCode = await new Promise<number>((resolve, reject) => {
    // Run in the report directory: schemathesis keeps its example database in the working directory.
    const child = spawn(st, args, { stdio: 'inherit', cwd: options.reportDir, env: { ...process.env, SCHEMATHESIS_HOOKS: '' } });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
  return { ...figuresOf(options.reportDir), exitCode };
}

/** Path parameters fixed to the fuzzed tenant (else nearly every request is 403); the version deletes aim at a version of their own. */
function configFile(targets: FuzzWorld['targets'], doomed: { id: string; slug: string; type: string }): string {
  const quoted = (value: string) => JSON.stringify(value);
  return [
    '[parameters]',
    `"path.versionId" = ${quoted(targets.versionId)}`,
    `"path.projectRef" = ${quoted(targets.projectSlug)}`,
    `"path.versionType" = ${quoted(targets.versionType)}`,
    `"path.versionSlug" = ${quoted(targets.versionSlug)}`,
    '',
    '[headers]',
    `Authorization = ${quoted(`Bearer ${targets.keys.readWrite}`)}`,
    '',
    // The transport's rule, stated in the operation's description (OpenAPI cannot declare `Accept`).
    '[[operations]]',
    'include-operation-id = "mcp"',
    'headers = { Accept = "application/json, text/event-stream" }',
    '',
    '[[operations]]',
    'include-operation-id = ["deleteVersionById", "deleteVersionByAddress"]',
    `parameters = { "path.versionId" = ${quoted(doomed.id)}, "path.versionSlug" = ${quoted(doomed.slug)}, "path.versionType" = ${quoted(doomed.type)} }`,
    '',
  ].join('\n');
}

/** Operations, requests and failures per check, from the JSON run report. */
function figuresOf(reportDir: string): Omit<ConformanceFigures, 'exitCode'> {
  const file = fs.readdirSync(reportDir).filter((name) => /^json-.*\.json$/.test(name)).sort().at(-1);
  if (!file) throw new Error(`conformance: no JSON report in ${reportDir}`);
  return summarize(JSON.parse(fs.readFileSync(path.join(reportDir, file), 'utf8')) as JsonReport);
}

function summarize(report: JsonReport): Omit<ConformanceFigures, 'exitCode'> {
  const failures: Record<string, number> = Object.fromEntries(CHECKS.map((check) => [check, 0]));
  for (const failure of report.failures) {
    const check = CHECK_OF_CODE[failure.code] ?? `${failure.code} ${failure.title}`;
    failures[check] = (failures[check] ?? 0) + failure.count;
  }
  return { operations: report.operations.tested, requests: report.test_cases.generated, failures, known: report.baseline?.known ?? 0 };
}

interface JsonReport {
  operations: { tested: number };
  test_cases: { generated: number };
  baseline: { known: number } | null;
  failures: { code: string; title: string; count: number; operations: string[] }[];
}

/** The checks `--checks all` runs (schemathesis 4.32), and the check behind each failure code of its report. */
const CHECKS = [
  'not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_headers_conformance', 'response_schema_conformance',
  'negative_data_rejection', 'positive_data_acceptance', 'missing_required_header', 'unsupported_method', 'allow_header_conformance',
  'use_after_free', 'ensure_resource_availability', 'ignored_auth', 'object_level_authorization',
] as const;
const CHECK_OF_CODE: Readonly<Record<string, string>> = {
  ST101: 'not_a_server_error', ST102: 'not_a_server_error', ST103: 'status_code_conformance', ST104: 'content_type_conformance',
  ST105: 'content_type_conformance', ST106: 'content_type_conformance', ST107: 'response_headers_conformance', ST108: 'response_schema_conformance',
  ST109: 'response_schema_conformance', ST110: 'response_schema_conformance', ST111: 'response_schema_conformance', ST201: 'negative_data_rejection',
  ST202: 'positive_data_acceptance', ST203: 'missing_required_header', ST204: 'unsupported_method', ST205: 'allow_header_conformance',
  ST301: 'use_after_free', ST302: 'ensure_resource_availability', ST401: 'ignored_auth', ST402: 'object_level_authorization',
};

/** The figures as lines. */
export function describeFigures(figures: ConformanceFigures): string {
  const checks = Object.entries(figures.failures).map(([check, n]) => `  ${check}: ${n}`);
  return [
    `conformance: ${figures.operations} operations, ${figures.requests} requests, ${figures.known} known refusals (baseline), new unique failures per check:`,
    ...checks,
  ].join('\n');
}
