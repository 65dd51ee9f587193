// The operation of a description whose page holds the most: its own text with every component
// it reaches through `$ref`s (schemas, responses, parameters, ...), counted once each. The pages
// benchmark and the browser specs weigh and render this one as the description's worst case.
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The operationId (else `METHOD path`) of the operation that reaches the most text. */
export function largestOperation(document: Json): { operationId: string; method: string; path: string; bytes: number } {
  let largest = { operationId: '', method: '', path: '', bytes: -1 };
  for (const [path, item] of Object.entries((document['paths'] ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const bytes = reachedBytes(document, [operation, item['parameters']]);
      if (bytes > largest.bytes) largest = { operationId: String(operation['operationId'] ?? `${method} ${path}`), method, path, bytes };
    }
  }
  return largest;
}

function reachedBytes(document: Json, roots: unknown[]): number {
  const seen = new Set<string>();
  let bytes = 0;
  const pending = [...roots];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === undefined) continue;
    const text = JSON.stringify(value);
    bytes += text.length;
    for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      if (seen.has(ref!)) continue;
      seen.add(ref!);
      pending.push(ref!.split('/').reduce<unknown>((at, key) => (at as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document));
    }
  }
  return bytes;
}
