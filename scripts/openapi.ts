// `npm run openapi`: writes the service's generated OpenAPI document to docs/openapi.json.
// `npm run openapi -- --check` exits 1 when the committed file differs from what the code generates.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../server/config.ts';
import { serviceDocument } from '../server/openapi/inventory.ts';
import { declaredRooms } from '../server/rooms.ts';
import { loadSchemaRegistry } from '../server/schemas/registry.ts';

export const DOCUMENT_FILE = path.join(repoRoot, 'docs', 'openapi.json');

function documentOf(schemas: ReturnType<typeof loadSchemaRegistry>) {
  return serviceDocument(schemas, declaredRooms(schemas));
}

export function renderedDocument(): string {
  return `${JSON.stringify(documentOf(loadSchemaRegistry()), null, 2)}\n`;
}

if (import.meta.main) {
  const rendered = renderedDocument();
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(DOCUMENT_FILE) ? fs.readFileSync(DOCUMENT_FILE, 'utf8') : '';
    if (committed !== rendered) {
      process.stderr.write('docs/openapi.json is stale: run `npm run openapi` and commit it.\n');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(DOCUMENT_FILE, rendered);
    process.stdout.write(`wrote ${path.relative(repoRoot, DOCUMENT_FILE)}\n`);
  }
}
