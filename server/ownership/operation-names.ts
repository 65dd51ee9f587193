// The name an operation without an operationId is given, from its method and path, readable in
// page addresses and MCP arguments (`post-repositories-workspace-repo-slug-pullrequests`), and
// how the names given before (`post /repositories/{workspace}/...`) are still understood.

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The operationId made up for an operation that has none: method and path in lowercase words
 * joined by `-`, with `-2`, `-3`… when the name is `taken` (another operation of the service has
 * it). The same document in the same order makes the same names, so a re-import keeps them.
 */
export function madeUpOperationId(method: string, path: string, taken: ReadonlySet<string>): string {
  const words = path.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const base = words === '' ? method : `${method}-${words}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

/** The method and path a name made up before readable names (`<method> <path>`) stands for; undefined for any other name. */
export function earlierMadeUpName(name: string): { method: string; path: string } | undefined {
  const space = name.indexOf(' ');
  if (space < 0) return undefined;
  const method = name.slice(0, space);
  const path = name.slice(space + 1);
  return METHODS.has(method) && path.startsWith('/') ? { method, path } : undefined;
}
