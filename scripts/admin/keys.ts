// `key create`, `key list` and `key revoke`: project API keys. A key's secret is printed once,
// by `key create`; it is stored only as a hash, so nothing can show it later.
import type { ApiKey } from '../../server/tenancy/keys.ts';
import { CommandError, flag, requiredString, type Command } from './command.ts';
import { access, apiKeyJson, iso, secretBlock, table } from './output.ts';
import { REF_OPTION, resolveProject } from './projects.ts';
import { checkAgainst } from './validate.ts';

const keyTable = (keys: readonly ApiKey[]) => table(
  ['id', 'prefix', 'access', 'created', 'revoked'],
  keys.map((k) => [k.id, k.prefix, access(k.readOnly), iso(k.createdAt), k.revokedAt ? iso(k.revokedAt) : '-']),
);

export const keyCommands: readonly Command[] = [
  {
    group: 'key',
    name: 'create',
    summary: 'create a project API key (its secret is shown once)',
    synopsis: '--project REF [--read-only]',
    options: {
      project: REF_OPTION,
      'read-only': { type: 'boolean', description: 'the key may read but not write' },
    },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      const readOnly = flag(args, 'read-only');
      return async ({ tenancy }) => {
        const project = await resolveProject(tenancy, ref);
        const { apiKey, secret } = await tenancy.apiKeys.create(project.id, readOnly);
        const { revokedAt: _never, ...json } = apiKeyJson(apiKey);
        return {
          json: { ...json, key: secret },
          human: keyTable([apiKey]) + secretBlock(`API key for project "${project.slug}"`, secret),
        };
      };
    },
  },
  {
    group: 'key',
    name: 'list',
    summary: "list a project's API keys, revoked ones included (never their secrets)",
    synopsis: '--project REF',
    options: { project: REF_OPTION },
    prepare(args, schemas) {
      const ref = checkAgainst(schemas, 'projectRef', requiredString(args, 'project'), '--project');
      return async ({ tenancy }) => {
        const project = await resolveProject(tenancy, ref);
        const keys = await tenancy.apiKeys.list(project.id);
        return {
          json: { keys: keys.map(apiKeyJson) },
          human: keys.length === 0 ? `Project "${project.slug}" has no API keys.\n` : keyTable(keys),
        };
      };
    },
  },
  {
    group: 'key',
    name: 'revoke',
    summary: 'revoke an API key by id; it stops working within API_KEY_CACHE_MS, 10 s by default (revoking again changes nothing)',
    synopsis: 'ID',
    options: {},
    positional: { name: 'ID', description: 'the key id, as `key list` shows it' },
    prepare(args, schemas) {
      const id = checkAgainst(schemas, 'apiKeyId', args.positionals[0]!, 'key id');
      return async ({ tenancy }) => {
        const before = Date.now();
        const key = await tenancy.apiKeys.revoke(id);
        if (!key) throw new CommandError(`API key "${id}" not found`);
        // Tenancy keeps the first revocation time, stamped by this process's clock, so an
        // earlier time means someone had revoked it already.
        const already = key.revokedAt !== null && key.revokedAt.getTime() < before;
        const note = already ? `Key ${id} was already revoked at ${iso(key.revokedAt!)}.\n` : `Revoked key ${id}.\n`;
        return { json: apiKeyJson(key), human: keyTable([key]) + note };
      };
    },
  },
];
