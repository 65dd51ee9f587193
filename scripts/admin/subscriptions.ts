// `subscription create|list|pause|resume|delete|deliveries`: a project's subscriptions to change
// events, as over HTTP (`/v2/catalog/projects/{projectRef}/subscriptions`). The signing secret
// is printed once, by `subscription create`.
import { urlProblem } from '../../server/events/address-guard.ts';
import { EVENT_TYPES, type EventType } from '../../server/events/events.ts';
import type { Subscription } from '../../server/events/subscriptions.ts';
import { CommandError, flag, requiredString, UsageError, type Command } from './command.ts';
import { iso, secretBlock, table } from './output.ts';
import { REF_OPTION, resolveProject } from './projects.ts';
import { checkAgainst } from './validate.ts';

const subscriptionJson = (s: Subscription) => ({
  id: s.id, projectId: s.projectId, url: s.url, types: s.types, ...(s.services && { services: s.services }), paused: s.paused, createdAt: iso(s.createdAt),
});
const subscriptionTable = (subscriptions: readonly Subscription[]) => table(
  ['id', 'url', 'types', 'services', 'paused'],
  subscriptions.map((s) => [s.id, s.url, s.types.join(','), s.services?.join(',') ?? '*', s.paused ? 'yes' : 'no']),
);

function listOf(raw: string | undefined): string[] | undefined {
  return raw === undefined ? undefined : raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

function checkedId(raw: string | undefined): string {
  if (raw === undefined || !/^sub_[0-9A-Za-z]{26}$/.test(raw)) throw new UsageError(`invalid subscription id ${JSON.stringify(raw ?? '')}: sub_ and 26 characters, as \`subscription list\` shows it`);
  return raw;
}

const ID = { name: 'ID', description: 'the subscription id, as `subscription list` shows it' };

/** pause and resume: one flag apart. */
function pausing(name: 'pause' | 'resume'): Command {
  return {
    group: 'subscription', name, synopsis: 'ID --project REF', options: { project: REF_OPTION }, positional: ID,
    summary: name === 'pause' ? 'pause a subscription: its events are kept and sent once it is resumed' : 'resume a paused subscription',
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const id = checkedId(args.positionals[0]);
      return async ({ tenancy, events }) => {
        const project = await resolveProject(tenancy, ref);
        const changed = await events.subscriptions.setPaused(project.id, id, name === 'pause');
        if (!changed) throw new CommandError(`subscription "${id}" not found in project "${project.slug}"`);
        return { json: subscriptionJson(changed), human: subscriptionTable([changed]) };
      };
    },
  };
}

export const subscriptionCommands: readonly Command[] = [
  {
    group: 'subscription', name: 'create',
    summary: 'subscribe a URL to change events (its signing secret is shown once)',
    synopsis: '--project REF --url URL --types TYPE,... [--services SLUG,...]',
    options: {
      project: REF_OPTION,
      url: { type: 'string', value: 'URL', description: 'where events are POSTed (http or https)' },
      types: { type: 'string', value: 'TYPES', description: `comma-separated event types: ${EVENT_TYPES.join(', ')}` },
      services: { type: 'string', value: 'SERVICES', description: 'comma-separated service slugs or ids (default: every service)' },
    },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const url = requiredString(args, 'url');
      const types = listOf(requiredString(args, 'types')) ?? [];
      const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
      if (types.length === 0 || unknown.length > 0) throw new UsageError(`invalid --types: ${unknown.length > 0 ? `unknown ${unknown.join(', ')}` : 'none given'} (one or more of: ${EVENT_TYPES.join(', ')})`);
      const services = listOf(args.values['services'] as string | undefined);
      return async ({ tenancy, events, config }) => {
        const problem = urlProblem(url, config.webhooks.allowPrivate);
        if (problem) throw new CommandError(`invalid --url: it ${problem}`);
        const project = await resolveProject(tenancy, ref);
        const made = await events.subscriptions.create(project.id, { url, types: [...new Set(types)] as EventType[], ...(services && services.length > 0 && { services }) });
        return {
          json: { ...subscriptionJson(made), secret: made.secret },
          human: subscriptionTable([made]) + secretBlock(`Signing secret of subscription ${made.id}`, made.secret),
        };
      };
    },
  },
  {
    group: 'subscription', name: 'list', summary: "list a project's subscriptions (never their secrets)", synopsis: '--project REF', options: { project: REF_OPTION },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      return async ({ tenancy, events }) => {
        const project = await resolveProject(tenancy, ref);
        const subscriptions = await events.subscriptions.list(project.id);
        return {
          json: { subscriptions: subscriptions.map(subscriptionJson) },
          human: subscriptions.length === 0 ? `Project "${project.slug}" has no subscriptions.\n` : subscriptionTable(subscriptions),
        };
      };
    },
  },
  pausing('pause'),
  pausing('resume'),
  {
    group: 'subscription', name: 'delete', summary: 'delete a subscription, its undelivered events and its deliveries log', synopsis: 'ID --project REF',
    options: { project: REF_OPTION }, positional: ID,
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const id = checkedId(args.positionals[0]);
      return async ({ tenancy, events }) => {
        const project = await resolveProject(tenancy, ref);
        if (!(await events.subscriptions.delete(project.id, id))) throw new CommandError(`subscription "${id}" not found in project "${project.slug}"`);
        await events.outbox.forget(id);
        return { json: { id, deleted: true }, human: `Deleted subscription ${id}.\n` };
      };
    },
  },
  {
    group: 'subscription', name: 'deliveries', summary: "list a subscription's delivery attempts, newest event first", synopsis: 'ID --project REF [--all]',
    options: { project: REF_OPTION, all: { type: 'boolean', description: 'every attempt, not only the last 50' } }, positional: ID,
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const id = checkedId(args.positionals[0]);
      const limit = flag(args, 'all') ? 1_000_000 : 50;
      return async ({ tenancy, events }) => {
        const project = await resolveProject(tenancy, ref);
        if (!(await events.subscriptions.get(project.id, id))) throw new CommandError(`subscription "${id}" not found in project "${project.slug}"`);
        const attempts = await events.outbox.deliveries(id, limit);
        const rows = attempts.map((a) => ({ eventId: a.eventId, type: a.type, subject: a.subject, attempt: a.attempt, startedAt: a.startedAt, status: a.status ?? null, ok: a.ok ?? null, durationMs: a.durationMs ?? null, error: a.error ?? null }));
        return {
          json: { deliveries: rows },
          human: rows.length === 0 ? `Subscription ${id} has no deliveries yet.\n` : table(['event', 'type', 'attempt', 'status', 'ms', 'started'],
            rows.map((r) => [r.eventId, r.type, String(r.attempt), r.status === null ? (r.error ?? 'running') : String(r.status), r.durationMs === null ? '-' : String(r.durationMs), r.startedAt])),
        };
      };
    },
  },
];
