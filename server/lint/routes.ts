// The lint routes:
//   GET {prefix}/services/{id}/lint            a service's stored lint report (read), both families
//   GET/POST /v2/catalog/projects/{ref}/lint-settings  the project's rulesets, severities and exemptions (POST: write; lints again)
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import { serviceRoutes } from '../pipeline/service-routes.ts';
import type { Schema, Tag } from '../routes/documentation.ts';
import { FAMILIES, type ProjectContext, type Route } from '../routes/route.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { storeOf } from '../store/stores.ts';
import type { Lints } from './lints.ts';
import type { LintReport } from './reports.ts';
import { spectralDefinition } from './definition.ts';
import { SEVERITIES, settingsOf, type SettingsBody } from './settings.ts';
import { BUILT_IN_RULESETS } from './spectral.ts';
import { SETTINGS_SCHEMA as settingsSchema, severity, operation } from './settings-schema.ts';

export const LINT_TAG: Tag = {
  name: 'Lint',
  description: 'Each service\'s description as the catalog exports it, linted with Spectral (`spectral:oas` and the OWASP API security ruleset by default) after every write that changes it, behind the answer; a project chooses its rulesets, severities and exemptions.',
};

/** The lint answer: whether a lint is owed, and the last one stored. */
export interface LintAnswer extends Partial<Pick<LintReport, 'rulesets' | 'settingsRevision' | 'counts' | 'durationMs' | 'serviceUpdatedAt' | 'findings' | 'timedOutAfterMs'>> {
  service: { id: string; slug: string };
  status: 'current' | 'pending' | 'none' | 'timed-out';
  computedAt?: string | undefined;
}

export function lintAnswer(service: { id: string; slug: string }, report: LintReport | undefined): LintAnswer {
  return {
    service,
    status: statusOf(report),
    ...(report?.findings && {
      rulesets: report.rulesets, settingsRevision: report.settingsRevision, counts: report.counts, computedAt: report.computedAt?.toISOString(),
      durationMs: report.durationMs, serviceUpdatedAt: report.serviceUpdatedAt, findings: report.findings,
    }),
    ...(report?.timedOutAfterMs !== undefined && {
      timedOutAfterMs: report.timedOutAfterMs, settingsRevision: report.settingsRevision, computedAt: report.computedAt?.toISOString(), serviceUpdatedAt: report.serviceUpdatedAt,
    }),
  };
}

function statusOf(report: LintReport | undefined): LintAnswer['status'] {
  if (report === undefined) return 'none';
  if (report.pending) return 'pending';
  return report.timedOutAfterMs === undefined ? 'current' : 'timed-out';
}

export function lintRoutes(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>, lints: Lints): Route[] {
  const tag = LINT_TAG.name;
  const services = storeOf(stores, 'services');
  const perService = serviceRoutes(schemas, services, {
    segment: 'lint', operationId: 'getServiceLint',
    doc: {
      tag, summary: 'Get a service\'s lint findings',
      description: 'The findings of the last lint of the service\'s exported description (`GET …/services/{id}/openapi`): `path` is a JSON pointer into that document. `status`: `current` when no write since is waiting for its lint, `pending` when one is (the findings are the previous lint\'s, if any), `none` when the service was never linted (written before lint existed), `timed-out` when the last lint was stopped at `LINT_TIMEOUT_MS` (no findings are known). A read never lints.',
      responses: [{ status: 200, description: 'The lint report.', schema: lintReportSchema }],
    },
    async run(service, { version }) {
      return { status: 200, body: lintAnswer({ id: service.id, slug: String(service['slug']) }, await lints.findingsOf(version.versionId, service.id)) };
    },
  });
  const settingsDoc = { tag, params: { projectRef: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/projectRef` } } };
  return [
    ...perService,
    {
      method: 'GET', path: SETTINGS_PATH, target: 'project', access: 'read', body: false,
      doc: { ...settingsDoc, operationId: 'getLintSettings', summary: 'Get the project\'s lint settings', responses: [{ status: 200, description: 'The settings in force and their revision (0: the defaults).', schema: savedSettingsSchema }], errors: [] },
      async run({ projectId }: ProjectContext) {
        return { status: 200, body: await lints.settings.current(projectId) };
      },
    },
    {
      method: 'POST', path: SETTINGS_PATH, target: 'project', access: 'write', body: 'json',
      doc: {
        ...settingsDoc, operationId: 'putLintSettings', summary: 'Set the project\'s lint settings',
        description: `Saved as the project's next revision (earlier ones are kept); every service of the project is linted again behind the answer. Built-in rulesets: ${Object.keys(BUILT_IN_RULESETS).join(', ')}. A ruleset document is a Spectral ruleset (JSON, or YAML as a string) whose \`extends\` names only built-in rulesets and whose rules use only Spectral's built-in functions; no \`functions\`, no URLs. A bad one is 400 naming the problem.`,
        body: { schema: settingsSchema, example: { rulesets: ['spectral:oas'], documents: [], severities: { 'info-contact': 'off' }, exemptions: [{ rule: 'operation-description', operation: { method: 'GET', path: '/health' } }] } },
        responses: [{ status: 200, description: 'The settings saved, with their revision.', schema: savedSettingsSchema }],
        errors: [],
      },
      async run({ projectId, body }: ProjectContext<Record<string, never>, SettingsBody>) {
        const settings = settingsOf(body);
        const { problems } = spectralDefinition(settings);
        if (problems.length > 0) throw new InvalidRequest(problems);
        const saved = await lints.settings.save(projectId, settings);
        await lints.relintProject(projectId);
        return { status: 200, body: saved };
      },
    },
  ];
}

const SETTINGS_PATH = '/v2/catalog/projects/:projectRef/lint-settings';

const finding: Schema = {
  type: 'object', required: ['code', 'severity', 'message', 'path'],
  properties: { code: { type: 'string' }, severity, message: { type: 'string' }, path: { type: 'string', description: 'JSON pointer into the exported description.' }, operation },
};
const lintReportSchema: Schema = {
  type: 'object', required: ['service', 'status'],
  properties: {
    service: { type: 'object', properties: { id: { type: 'string' }, slug: { type: 'string' } } },
    status: { type: 'string', enum: ['current', 'pending', 'none', 'timed-out'] },
    timedOutAfterMs: { type: 'integer', description: 'With `timed-out`: the last lint was stopped at its bound (`LINT_TIMEOUT_MS`) after this long, so no findings are known; it is not run again until the description or the settings change.' },
    rulesets: { type: 'array', items: { type: 'string' } },
    settingsRevision: { type: 'integer' },
    counts: { type: 'object', properties: Object.fromEntries(SEVERITIES.map((name) => [name, { type: 'integer' }])) },
    computedAt: { type: 'string', format: 'date-time' },
    durationMs: { type: 'integer' },
    serviceUpdatedAt: { type: 'string' },
    findings: { type: 'array', items: finding },
  },
};
const savedSettingsSchema: Schema = { type: 'object', required: ['revision', 'settings'], properties: { revision: { type: 'integer' }, settings: settingsSchema, savedAt: { type: 'string', format: 'date-time' } } };
