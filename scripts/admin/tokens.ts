// `token create`: personal access tokens (JWTs signed with the service's JWT secret). Nothing is
// stored: a token is valid until it expires, so expiry is bounded (at most 365 days).
import { issueToken, SCOPE_READ, SCOPE_WRITE } from '../../server/auth/tokens.ts';
import { flag, requiredString, strings, UsageError, optionalString, type Command } from './command.ts';
import { iso, secretBlock, table } from './output.ts';
import { resolveProject } from './projects.ts';
import { checkAgainst, checkNotBlank, parseDuration } from './validate.ts';

const DEFAULT_EXPIRES_IN = '30d';

export const tokenCommands: readonly Command[] = [
  {
    group: 'token',
    name: 'create',
    summary: 'issue a personal access token (JWT) for some projects or all of them (shown once)',
    synopsis: '--subject SUB (--project REF … | --all-projects) [--read-only] [--expires-in 30d]',
    options: {
      subject: { type: 'string', value: 'SUB', description: 'who the token is for (its `sub` claim), e.g. an e-mail address' },
      project: { type: 'string', multiple: true, value: 'REF', description: 'a project id or slug the token may reach' },
      'all-projects': { type: 'boolean', description: 'the token reaches every project, present and future' },
      'read-only': { type: 'boolean', description: 'scope catalog:read only (default: catalog:read catalog:write)' },
      'expires-in': { type: 'string', value: 'D', description: `lifetime: 30d, 12h, 90m, 3600s… at most 365d (default ${DEFAULT_EXPIRES_IN})` },
    },
    prepare(args, schemas) {
      const subject = checkNotBlank(requiredString(args, 'subject'), '--subject');
      const refs = strings(args, 'project').map((ref) => checkAgainst(schemas, 'projectRef', ref, '--project'));
      const allProjects = flag(args, 'all-projects');
      if (allProjects && refs.length > 0) throw new UsageError('give either --project or --all-projects, not both');
      if (!allProjects && refs.length === 0) throw new UsageError('missing --project REF (repeatable) or --all-projects');
      const readOnly = flag(args, 'read-only');
      const expiresInSeconds = parseDuration(optionalString(args, 'expires-in') ?? DEFAULT_EXPIRES_IN, '--expires-in');
      return async ({ tenancy, config }) => {
        // Every REF must name a project now: a token for a mistyped slug would silently reach nothing.
        const projects = allProjects ? [] : await Promise.all(refs.map((ref) => resolveProject(tenancy, ref)));
        const ids = [...new Set(projects.map((project) => project.id))];
        const { token, expiresAt } = issueToken({ subject, projects: allProjects ? 'all' : ids, readOnly, expiresInSeconds }, config.jwtSecret);
        const scope = readOnly ? SCOPE_READ : `${SCOPE_READ} ${SCOPE_WRITE}`;
        const reach = allProjects ? 'all projects' : [...new Map(projects.map((p) => [p.id, p.slug])).values()].join(', ');
        return {
          json: { token, expiresAt: iso(expiresAt), subject, projects: allProjects ? ['*'] : ids, scope },
          human: table(['subject', 'projects', 'scope', 'expires'], [[subject, reach, scope, iso(expiresAt)]])
            + secretBlock(`Token for ${subject}`, token),
        };
      };
    },
  },
];
