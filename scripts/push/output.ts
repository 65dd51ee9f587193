// What the push command prints: for people, what changed (breaking first) and where to look; with
// --json, the same outcome as one JSON object for machines.
export interface Change {
  level: 'breaking' | 'non-breaking';
  rule: string;
  operation: { method: string; path: string } | null;
  message: string;
}

export interface LintFinding { code: string; severity: string; message: string; path: string }

export interface PushOutcome {
  exitCode: number;
  result: 'written' | 'unchanged' | 'dry-run' | 'refused' | 'bad-input' | 'bad-credential' | 'usage' | 'unreachable';
  problems: { field: string; message: string }[];
  status?: number;
  service?: { id: string; slug: string };
  records?: Record<string, { created: number; updated: number; deleted: number; unchanged: number }>;
  changes?: { summary: { breaking: number; nonBreaking: number }; changes: Change[] };
  /** The gate that refused the push. */
  gate?: 'breaking' | 'lint-error' | 'score';
  /** A dry run's (or the lint gate's) lint delta: the findings the description adds and fixes. */
  lint?: { counts: Record<string, number>; new: LintFinding[]; fixed: LintFinding[] };
  /** The service's score before and after (a dry run, or with --min-score). */
  score?: { before?: { score: number }; after: { score: number; subscores: Record<string, number> }; delta?: number };
  warnings?: { field: string; message: string }[];
  files?: number;
  dryRun?: boolean;
  place?: { catalog: string; project: string; type: string; slug: string };
  usage?: string;
}

export function describeOutcome(outcome: PushOutcome, json: boolean): string {
  if (json) {
    const { usage: _usage, ...rest } = outcome;
    return `${JSON.stringify({ ...rest, ...(links(outcome) ?? {}) }, null, 2)}\n`;
  }
  return `${forPeople(outcome).join('\n')}\n`;
}

const HEADLINES: Record<PushOutcome['result'], string> = {
  written: 'Written', unchanged: 'Nothing to write: the catalog already holds this description', 'dry-run': 'Dry run: nothing written',
  refused: 'Refused by the gate: nothing written', 'bad-input': 'Not pushed: the description or the request is not valid',
  'bad-credential': 'Not pushed: CATALOG_TOKEN is not accepted for this project (unknown, revoked, expired or read-only)',
  usage: 'Not pushed', unreachable: 'Not pushed: the catalog could not be reached',
};

function forPeople(outcome: PushOutcome): string[] {
  const headline = outcome.result === 'refused' ? `Refused by the gate (${outcome.gate === 'score' ? '--min-score' : `--fail-on ${outcome.gate ?? 'breaking'}`}): nothing written` : HEADLINES[outcome.result];
  const lines = [`${headline}${outcome.service ? ` (service ${outcome.service.slug})` : ''}.`];
  if (outcome.files !== undefined) lines.push(`Bundled ${outcome.files} file${outcome.files === 1 ? '' : 's'}.`);
  lines.push(...problemLines(outcome.problems, outcome.result === 'refused' ? GATE_MARKS[outcome.gate ?? 'breaking'] : ''));
  if (outcome.records) lines.push(...recordLines(outcome.records, outcome.result === 'dry-run'));
  if (outcome.changes) lines.push(...changeLines(outcome.changes));
  if (outcome.lint) lines.push(...lintLines(outcome.lint));
  if (outcome.score) lines.push(scoreLine(outcome.score));
  if (outcome.warnings && outcome.warnings.length > 0) lines.push(`Warnings (${outcome.warnings.length}):`, ...outcome.warnings.map(({ field, message }) => `  ${field}: ${message}`));
  const where = links(outcome);
  if (where) lines.push(`Service page: ${where.links.service}`, `Changes page: ${where.links.changes}`);
  if (outcome.usage) lines.push('', outcome.usage);
  return lines;
}

/** How a refusing gate's findings are marked: breaking changes and lint errors at their pointers in the document, the score and its failing subscores. */
const GATE_MARKS = { breaking: 'BREAKING ', 'lint-error': 'LINT ERROR ', score: 'SCORE ' } as const;

/** The gate's findings, each with its mark. */
function problemLines(problems: PushOutcome['problems'], mark: string): string[] {
  return problems.map(({ field, message }) => `  ${mark}${field ? `${field}: ` : ''}${message}`);
}

function recordLines(records: NonNullable<PushOutcome['records']>, dryRun: boolean): string[] {
  const verb = dryRun ? 'would be ' : '';
  const rows = Object.entries(records).filter(([, counts]) => counts.created + counts.updated + counts.deleted > 0)
    .map(([collection, { created, updated, deleted }]) => `  ${collection}: ${created} ${verb}created, ${updated} ${verb}updated, ${deleted} ${verb}deleted`);
  return rows.length > 0 ? ['Records:', ...rows] : [];
}

function scoreLine({ before, after, delta }: NonNullable<PushOutcome['score']>): string {
  const subscores = Object.entries(after.subscores).map(([name, value]) => `${name} ${value}`).join(', ');
  return `Score: ${after.score}${before ? ` (was ${before.score}, ${delta! >= 0 ? '+' : ''}${delta})` : ''}; ${subscores}.`;
}

function changeLines({ summary, changes }: NonNullable<PushOutcome['changes']>): string[] {
  const ordered = [...changes.filter((change) => change.level === 'breaking'), ...changes.filter((change) => change.level !== 'breaking')];
  return [
    `Changes for clients: ${summary.breaking} breaking, ${summary.nonBreaking} non-breaking.`,
    ...ordered.map((change) => `  ${change.level === 'breaking' ? 'BREAKING ' : ''}${change.operation ? `${change.operation.method} ${change.operation.path}` : '(document)'}: ${change.message} [${change.rule}]`),
  ];
}

function lintLines({ counts, new: added, fixed }: NonNullable<PushOutcome['lint']>): string[] {
  const line = (sign: string) => ({ code, severity, path, message }: LintFinding) => `  ${sign} ${severity} ${code} at ${path || '/'}: ${message}`;
  return [
    `Lint: ${counts['error'] ?? 0} errors, ${counts['warn'] ?? 0} warnings; ${added.length} new, ${fixed.length} fixed.`,
    ...added.map(line('+')), ...fixed.map(line('-')),
  ];
}

/** The pages where a person sees the service and its changes (docs/pages.md). */
function links(outcome: PushOutcome): { links: { service: string; changes: string } } | undefined {
  if (!outcome.place || !outcome.service) return undefined;
  const { catalog, project, type, slug } = outcome.place;
  const service = `${catalog}/catalog/${[project, type, slug].map(encodeURIComponent).join('/')}/services/${encodeURIComponent(outcome.service.slug)}`;
  return { links: { service, changes: `${service}/changes` } };
}
