// GET /v2/openapi.json: generated from schemas/ and the route table, valid by a maintained
// OpenAPI 3.1 validator, the same set of operations as the routes Express mounts, and the same
// document as the committed docs/openapi.json (`npm run openapi` writes it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validate } from '@scalar/openapi-parser';
import { expect } from 'chai';
import type { Express } from 'express';
import { repoRoot } from '../../../server/config.ts';
import { serviceDocument } from '../../../server/openapi/inventory.ts';
import { declaredRooms } from '../../../server/rooms.ts';
import { loadSchemaRegistry } from '../../../server/schemas/registry.ts';
import { startCatalog, type TestCatalog } from '../../support/catalog.ts';

type Operation = Record<string, unknown> & { operationId: string; security: unknown[]; responses: Record<string, Record<string, unknown>>; tags: string[] };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** `GET /v2/catalog/versions/:versionId/paths` for every route Express would answer (405 catch-alls aside). */
function mountedOperations(app: Express): Set<string> {
  interface Layer { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] }; rawPath?: unknown }
  const found = new Set<string>();
  const walk = (stack: readonly Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods).filter((name) => name !== '_all')) {
          found.add(`${method.toUpperCase()} ${prefix}${layer.route.path}`);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + (typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}

function documentedOperations(document: Document): Set<string> {
  return new Set(Object.entries(document.paths).flatMap(([route, item]) => Object.keys(item)
    .map((method) => `${method.toUpperCase()} ${route.replace(/\{([^}]+)\}/g, ':$1')}`)));
}

function operations(document: Document): Operation[] {
  return Object.values(document.paths).flatMap((item) => Object.values(item));
}

describe('Self-description: GET /v2/openapi.json', () => {
  let service: TestCatalog;
  let document: Document;

  before(async () => {
    service = await startCatalog();
    const res = await service.request.get('/v2/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    document = res.body as Document;
  });
  after(async () => {
    await service?.close();
  });

  it('is served without credentials as OpenAPI 3.1', () => {
    expect(document.openapi).to.match(/^3\.1\./);
  });

  it('is valid by @scalar/openapi-parser, which also catches a broken reference', async () => {
    const result = await validate(structuredClone(document));
    expect(result.errors, JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);

    const broken = structuredClone(document);
    broken.paths['/healthz']!['get']!.responses['200']!['content'] = { 'application/json': { schema: { $ref: '#/components/schemas/Nothing' } } };
    expect((await validate(broken)).valid).to.equal(false);
  });

  it('documents exactly the routes Express mounts', () => {
    const mounted = mountedOperations(service.app);
    const documented = documentedOperations(document);
    expect([...mounted].filter((operation) => !documented.has(operation)), 'mounted but not documented').to.deep.equal([]);
    expect([...documented].filter((operation) => !mounted.has(operation)), 'documented but not mounted').to.deep.equal([]);
    expect(mounted.size).to.be.greaterThan(20);
  });

  it('would notice a route mounted without documentation', async () => {
    const extra = await startCatalog();
    try {
      extra.app.get('/v2/undocumented/:thing', (_req, res) => {
        res.end();
      });
      const mounted = mountedOperations(extra.app);
      expect([...mounted].filter((operation) => !documentedOperations(document).has(operation))).to.deep.equal(['GET /v2/undocumented/:thing']);
    } finally {
      await extra.close();
    }
  });

  it('is the committed docs/openapi.json (run `npm run openapi` after changing routes or schemas)', () => {
    const committed = fs.readFileSync(path.join(repoRoot, 'docs', 'openapi.json'), 'utf8');
    expect(JSON.parse(committed), 'docs/openapi.json is stale').to.deep.equal(document);
    // Byte for byte, as the generator itself checks it (run as a command: tests import no script).
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'openapi.ts'), '--check'], { stdio: ['ignore', 'ignore', 'pipe'] });
  });

  it('offers both bearer schemes as alternatives on every catalog operation, none on the public ones', () => {
    for (const operation of operations(document)) {
      const expected = operation.tags[0] === 'Service' ? [] : [{ projectApiKey: [] }, { personalAccessToken: [] }];
      expect(operation.security, operation.operationId).to.deep.equal(expected);
    }
    expect(Object.keys((document.components as Record<string, Record<string, unknown>>)['securitySchemes']!)).to.deep.equal(['projectApiKey', 'personalAccessToken']);
  });

  it('gives every operation a unique operationId, a tag, and the error outcomes of the status table', () => {
    const ids = operations(document).map((operation) => operation.operationId);
    expect(new Set(ids).size).to.equal(ids.length);
    const byId = new Map(operations(document).map((operation) => [operation.operationId, operation]));
    const statuses = (id: string) => Object.keys(byId.get(id)!.responses).sort();
    expect(statuses('listPaths')).to.deep.equal(['200', '400', '401', '403', '429', '500', '503']);
    expect(statuses('createPathByProject')).to.deep.equal(['201', '400', '401', '403', '409', '413', '415', '429', '500', '503']);
    expect(statuses('getRequest')).to.deep.equal(['200', '400', '401', '403', '404', '429', '500', '503']);
    expect(statuses('replaceRequestByProject')).to.deep.equal(['200', '201', '400', '401', '403', '409', '413', '415', '429', '500', '503']);
    expect(statuses('updatePath')).to.deep.equal(['200', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503']);
    expect(statuses('deletePath')).to.deep.equal(['204', '400', '401', '403', '404', '429', '500', '503']);
    // The not-found body is the collection's own.
    const notFound = byId.get('getRequest')!.responses['404']!['content'] as Record<string, { example: unknown; schema: unknown }>;
    expect(notFound['application/json']).to.deep.equal({ schema: { $ref: '#/components/schemas/Error' }, example: { error: 'Request not found' } });
    const unauthorized = (document.components as Record<string, Record<string, Record<string, unknown>>>)['responses']!['Unauthorized']!;
    expect(unauthorized['headers']).to.have.property('WWW-Authenticate');
  });

  it('writes "an" before a vowel in every summary ("Create an example", "Get an operation")', () => {
    const summaries = operations(document).map((operation) => String(operation['summary']));
    expect(summaries).to.include.members(['Create an example', 'Get an operation', 'Update an operation partially', 'Create a path']);
    expect(summaries.filter((summary) => /\ba [aeiou]/i.test(summary))).to.deep.equal([]);
  });

  it('documents 429 with Retry-After on every rate-limited operation (every one needing credentials, /mcp too), once', () => {
    const responses = (document.components as Record<string, Record<string, Record<string, any>>>)['responses']!;
    const tooMany = responses['TooManyRequests']!;
    expect(tooMany['content']['application/json']['example']).to.deep.equal({ error: 'Too many requests' });
    expect(tooMany['headers']['Retry-After']['schema']).to.deep.equal({ type: 'integer', minimum: 1 });
    expect(tooMany['headers']['Retry-After']['description']).to.match(/^Seconds/);
    const limited = operations(document).filter((operation) => operation.security.length > 0);
    expect(limited.map((operation) => operation.operationId)).to.include.members(['listPaths', 'listRequestsByProject', 'importOpenApi', 'mcp']);
    for (const operation of operations(document)) {
      const expected = operation.security.length > 0 ? { $ref: '#/components/responses/TooManyRequests' } : undefined;
      expect(operation.responses['429'], operation.operationId).to.deep.equal(expected);
    }
  });

  it('documents the list query: cursor, limit, sort and the collection filters', () => {
    const list = document.paths['/v2/catalog/projects/{projectRef}/{versionType}/{versionSlug}/requests']!['get']!;
    const parameters = list['parameters'] as { name: string; in: string }[];
    expect(parameters.map((parameter) => `${parameter.in}:${parameter.name}`)).to.deep.equal([
      'path:projectRef', 'path:versionType', 'path:versionSlug', 'query:cursor', 'query:limit', 'query:sort', 'query:updatedAfter',
      ...[...service.runtime.schemas.collections.find((collection) => collection.name === 'requests')!.filters.keys()].map((field) => `query:${field}`),
    ]);
  });

  it('keeps the record schemas under components, self-contained, and examples the service accepts', async () => {
    expect(document.components.schemas).to.include.keys('Path', 'Request', 'Error', 'PaginationMetadata', 'pathId', 'versionId', 'kvStorage');
    const text = JSON.stringify(document);
    expect(text).to.not.include('"$id"');
    expect(text).to.not.include('catalog.example/schemas');
    const create = document.paths['/v2/catalog/versions/{versionId}/paths']!['post']!;
    const example = (create['requestBody'] as { content: Record<string, { example: Record<string, unknown> }> }).content['application/json']!.example;
    // The service places the body in the routed version (document-matches-service.spec sends every example).
    const problems = service.runtime.schemas.check('https://catalog.example/schemas/records/path.json')({ ...structuredClone(example), versionId: 'ver_01JD2Q6Z8M3N4P5R6S7T8V9W0X' });
    expect(problems).to.deep.equal([]);
  });
});

/**
 * A copy of schemas/ in `dir` with a record kind the catalog does not have, added as a schema
 * author would: an id definition, a record schema and a descriptor in collections.json.
 */
async function schemasWithNotes(dir: string): Promise<void> {
  await fs.promises.cp(path.join(repoRoot, 'schemas'), dir, { recursive: true });
  const ids = JSON.parse(await fs.promises.readFile(path.join(dir, 'defs/ids.json'), 'utf8')) as { $defs: Record<string, unknown> };
  ids.$defs['noteId'] = {
    title: 'Note id', description: 'Identifier of a note: `note_` and 26 characters.', type: 'string',
    'x-id-prefix': 'note_', pattern: '^note_[0-9A-Za-z]{26}$', minLength: 31, maxLength: 31,
  };
  await fs.promises.writeFile(path.join(dir, 'defs/ids.json'), JSON.stringify(ids));
  await fs.promises.writeFile(path.join(dir, 'records/note.json'), JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://catalog.example/schemas/records/note.json',
    title: 'Note', description: 'A note about a service.', type: 'object', additionalProperties: false, required: ['text', 'versionId'],
    properties: {
      id: { $ref: '../defs/ids.json#/$defs/noteId', title: 'Note id', description: 'Identifier of the note.' },
      serviceId: { $ref: '../defs/ids.json#/$defs/serviceId', title: 'Service id', description: 'The service the note is about.' },
      text: { title: 'Text', description: 'What the note says.', type: 'string' },
      versionId: { $ref: '../defs/ids.json#/$defs/versionId', title: 'Version id', description: 'The version of the note.' },
      updatedAt: { $ref: '../defs/common.json#/$defs/timestamp', title: 'Updated at', description: 'When the note was last written.', readOnly: true },
    },
  }));
  const file = path.join(dir, 'collections.json');
  const descriptors = JSON.parse(await fs.promises.readFile(file, 'utf8')) as { collections: Record<string, unknown>[] };
  descriptors.collections.push({
    name: 'notes', title: 'Notes', record: 'Note', schema: 'https://catalog.example/schemas/records/note.json',
    notFound: 'Note not found', references: { serviceId: 'services' }, filters: ['serviceId'],
  });
  await fs.promises.writeFile(file, JSON.stringify(descriptors));
}

describe('Self-description grows with schemas/collections.json', () => {
  let dir: string;
  before(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'catalog-openapi-'));
    await schemasWithNotes(dir);
  });
  after(async () => {
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('documents a collection added to schemas/ on both families with no code change, and stays valid', async () => {
    const before = serviceDocument(loadSchemaRegistry(), declaredRooms(loadSchemaRegistry())) as unknown as Document;
    const document = serviceDocument(loadSchemaRegistry(dir), declaredRooms(loadSchemaRegistry(dir))) as unknown as Document;
    const known = new Set(operations(before).map((operation) => operation.operationId));
    const added = operations(document).filter((operation) => !known.has(operation.operationId));
    expect(operations(document).length - added.length, 'every operation documented before is still there').to.equal(operations(before).length);
    expect(added.map((operation) => operation.operationId).sort()).to.deep.equal([
      'createNote', 'createNoteByProject', 'deleteNote', 'deleteNoteByProject', 'getNote', 'getNoteByProject',
      'listNotes', 'listNotesByProject', 'replaceNote', 'replaceNoteByProject', 'updateNote', 'updateNoteByProject',
    ]);
    expect(new Set(added.map((operation) => operation.tags[0]))).to.deep.equal(new Set(['Notes']));
    const list = document.paths['/v2/catalog/versions/{versionId}/notes']!['get']!;
    expect((list['parameters'] as { name: string }[]).map((parameter) => parameter.name)).to.include('serviceId');
    expect(document.components.schemas).to.include.keys('Note', 'noteId');
    expect(before.components.schemas).to.not.have.property('Note');
    const result = await validate(structuredClone(document));
    expect(result.errors, JSON.stringify(result.errors)).to.deep.equal([]);
  });
});
