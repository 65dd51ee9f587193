// How the admin CLI shows results to people (aligned tables, the shown-once secret block) and
// the JSON shapes of the tenancy records (chosen fields, dates as ISO strings).
import type { ApiKey } from '../../server/tenancy/keys.ts';
import type { Project } from '../../server/tenancy/projects.ts';
import type { Version } from '../../server/tenancy/versions.ts';

/** Aligned columns under upper-case headers; two spaces between columns. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...rows.map(line)].join('\n') + '\n';
}

/** A secret people must copy now: set apart so it is easy to select, with the warning. */
export function secretBlock(what: string, secret: string): string {
  return `\n${what} (it will not be shown again; store it now):\n\n  ${secret}\n`;
}

export const iso = (date: Date) => date.toISOString();

// Fields are picked explicitly: whatever else a stored document gains never leaks out here.

export function projectJson(project: Project) {
  return { id: project.id, slug: project.slug, name: project.name, createdAt: iso(project.createdAt) };
}

/** The same shape as the HTTP interface's version (schemas/api/version.json). */
export function versionJson(version: Version) {
  return {
    id: version.id, projectId: version.projectId, type: version.type, slug: version.slug,
    createdAt: iso(version.createdAt), updatedAt: iso(version.updatedAt), copiedFrom: version.copiedFrom,
  };
}

export function apiKeyJson(key: ApiKey) {
  return {
    id: key.id, projectId: key.projectId, prefix: key.prefix, readOnly: key.readOnly,
    createdAt: iso(key.createdAt), revokedAt: key.revokedAt ? iso(key.revokedAt) : null,
  };
}

export const access = (readOnly: boolean) => (readOnly ? 'read-only' : 'read-write');
