// Unit tests for the JSON Schema files in schemas/: they compile under the server's exact Ajv
// options, agree with the contract (docs in schemas/README.md), and accept/reject/fill records
// the way the contract and design decisions say.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Ajv2020, type AnySchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, loadSchemaRegistry } from '../../server/schemas/registry.ts';
import { CONTRACT_KINDS, CONTRACT_NATURAL_KEYS, notFoundOf } from '../support/contract.ts';
import { ulid } from 'ulid';

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');
const BASE = 'https://catalog.example/schemas/';
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const DESCRIPTORS_FILE = 'collections.json';

// The contract's identifier table: def name -> [prefix, total length].
const ID_TABLE: Record<string, [string, number]> = {
  versionId: ['ver_', 30],
  serviceId: ['svc_', 30],
  resourceId: ['rsc_', 30],
  pathId: ['path_', 31],
  operationId: ['op_', 29],
  parameterId: ['par_', 30],
  requestId: ['req_', 30],
  responseId: ['res_', 30],
  serverId: ['srv_', 30],
  securitySchemeId: ['sec_sch_', 34],
  headerId: ['head_', 31],
  exampleId: ['expl_', 31],
  projectId: ['proj_', 31],
  // Not in the contract's table: the tenancy's own kind.
  apiKeyId: ['key_', 30],
};

interface Warnings { messages: string[] }

/** The server's Ajv setup, plus a logger that records anything Ajv would have printed. */
function recordingAjv(warnings: Warnings): Ajv2020 {
  const record = (...args: unknown[]): void => { warnings.messages.push(args.map(String).join(' ')); };
  return createAjv({ log: record, warn: record, error: record });
}

function schemaFiles(): string[] {
  return (fs.readdirSync(SCHEMA_DIR, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.json') && file !== DESCRIPTORS_FILE)
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

function readJson(file: string): AnySchemaObject {
  return JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as AnySchemaObject;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every schema object that is a property schema or a $defs entry, with a readable location. */
function documentedSchemas(schema: unknown, at: string, out: Array<[string, Record<string, unknown>]> = []): typeof out {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => documentedSchemas(item, `${at}/${i}`, out));
    return out;
  }
  if (!isObject(schema)) return out;
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'properties' || key === '$defs') && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        if (isObject(sub)) out.push([`${at}/${key}/${name}`, sub]);
        documentedSchemas(sub, `${at}/${key}/${name}`, out);
      }
    } else if (key !== 'enum' && key !== 'const' && key !== 'default') {
      documentedSchemas(value, `${at}/${key}`, out);
    }
  }
  return out;
}

const warnings: Warnings = { messages: [] };
const ajv = recordingAjv(warnings);
const files = schemaFiles();
const schemas = new Map(files.map((file) => [file, readJson(file)]));
for (const schema of schemas.values()) ajv.addSchema(schema);

function validator(ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema ${ref}`);
  return validate;
}

/** Validates a copy (Ajv fills defaults in place) and returns the verdict and the filled copy. */
function check(ref: string, value: unknown): { valid: boolean; data: Record<string, unknown>; errors: string } {
  const data = structuredClone(value) as Record<string, unknown>;
  const validate = validator(ref);
  const valid = validate(data);
  return { valid, data, errors: JSON.stringify(validate.errors) };
}

function expectValid(ref: string, value: unknown): Record<string, unknown> {
  const result = check(ref, value);
  expect(result.valid, result.errors).to.equal(true);
  return result.data;
}

function expectInvalid(ref: string, value: unknown): void {
  expect(check(ref, value).valid, JSON.stringify(value)).to.equal(false);
}

const id = (prefix: string): string => prefix + ulid();
const record = (name: string): string => `${BASE}records/${name}.json`;
const VERSION = id('ver_');

describe('schemas/', () => {
  describe('files', () => {
    it('finds the expected schema files', () => {
      expect(files).to.include.members([
        'api/error.json', 'api/pagination.json', 'collection-descriptors.schema.json',
        'defs/common.json', 'defs/ids.json',
        'records/assistant-conversation.json', 'records/example.json', 'records/header.json',
        'records/operation.json', 'records/parameter.json', 'records/path.json', 'records/request.json',
        'records/resource.json', 'records/response.json', 'records/security-scheme.json',
        'records/server.json', 'records/service.json',
      ]);
    });

    for (const file of files) {
      it(`${file} declares draft 2020-12 and the $id of its location`, () => {
        const schema = schemas.get(file)!;
        expect(schema['$schema']).to.equal(DRAFT);
        expect(schema['$id']).to.equal(BASE + file);
      });

      it(`${file} compiles (and each of its $defs) without errors or warnings`, () => {
        expect(validator(BASE + file)).to.be.a('function');
        for (const name of Object.keys(schemas.get(file)!['$defs'] ?? {})) {
          expect(validator(`${BASE}${file}#/$defs/${name}`), name).to.be.a('function');
        }
        expect(warnings.messages).to.deep.equal([]);
      });

      it(`${file} has a title and description on itself, every property and every $defs entry`, () => {
        const schema = schemas.get(file)!;
        const missing = [['', schema] as [string, Record<string, unknown>], ...documentedSchemas(schema, '')]
          .filter(([, sub]) => typeof sub['title'] !== 'string' || typeof sub['description'] !== 'string')
          .map(([at]) => at || '(root)');
        expect(missing).to.deep.equal([]);
      });
    }

    it('record schemas are closed objects whose top-level defaults are declared beside the field', () => {
      for (const [file, schema] of schemas) {
        if (!file.startsWith('records/')) continue;
        expect(schema['type'], file).to.equal('object');
        expect(schema['additionalProperties'], file).to.equal(false);
        for (const field of schema['required'] as string[]) expect(schema['properties'], file).to.have.property(field);
      }
    });

    it('shared defs declare no defaults (Ajv would ignore them: see schemas/README.md)', () => {
      const defaults: string[] = [];
      const walk = (value: unknown, at: string): void => {
        if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}/${i}`));
        else if (isObject(value)) {
          for (const [key, sub] of Object.entries(value)) {
            if (key === 'default' && !at.endsWith('/properties')) defaults.push(at);
            walk(sub, `${at}/${key}`);
          }
        }
      };
      walk(schemas.get('defs/common.json'), '');
      walk(schemas.get('defs/ids.json'), '');
      expect(defaults).to.deep.equal([]);
    });
  });

  describe('identifiers (defs/ids.json)', () => {
    const defs = schemas.get('defs/ids.json')!['$defs'] as Record<string, Record<string, unknown>>;
    const idDefs = Object.entries(defs).filter(([, def]) => def['x-id-prefix'] !== undefined);

    it('has exactly one x-id-prefix def per identifier kind of the contract', () => {
      expect(idDefs.map(([name]) => name).sort()).to.deep.equal(Object.keys(ID_TABLE).sort());
    });

    for (const [name, [prefix, total]] of Object.entries(ID_TABLE)) {
      it(`${name}: prefix ${prefix}, pattern and lengths agree (${total} characters)`, () => {
        const def = defs[name]!;
        const generated = total - prefix.length;
        expect(generated, 'generated part is a 26-character ULID').to.equal(26);
        expect(def['type']).to.equal('string');
        expect(def['x-id-prefix']).to.equal(prefix);
        expect(def['pattern']).to.equal(`^${prefix}[0-9A-Za-z]{${generated}}$`);
        expect(def['minLength']).to.equal(total);
        expect(def['maxLength']).to.equal(total);
        expect(def['description']).to.be.a('string').and.include(prefix);

        const ref = `${BASE}defs/ids.json#/$defs/${name}`;
        const good = id(prefix);
        expect(good).to.have.length(total);
        expectValid(ref, good);
        expectValid(ref, prefix + 'abcdefghijklmnopqrstuvwxyz');
        expectInvalid(ref, good.slice(0, -1));
        expectInvalid(ref, good + 'A');
        expectInvalid(ref, good.slice(0, -1) + '-');
        expectInvalid(ref, good.slice(0, -1) + 'é');
        expectInvalid(ref, 'x' + good.slice(1));
        expectInvalid(ref, prefix.toUpperCase() + good.slice(prefix.length));
        expectInvalid(ref, 42);
      });
    }

    it('projectRef accepts a project id or any non-empty slug', () => {
      const ref = `${BASE}defs/ids.json#/$defs/projectRef`;
      expectValid(ref, id('proj_'));
      expectValid(ref, 'my-project');
      expectValid(ref, 'Any string');
      expectInvalid(ref, '');
      expectInvalid(ref, 7);
    });

    it('versionType, versionSlug and projectSlug', () => {
      const ids = `${BASE}defs/ids.json#/$defs/`;
      expectValid(`${ids}versionType`, 'branch');
      expectValid(`${ids}versionType`, 'environment');
      expectInvalid(`${ids}versionType`, 'tag');
      expectValid(`${ids}versionSlug`, 'main');
      expectInvalid(`${ids}versionSlug`, '');
      expectValid(`${ids}projectSlug`, 'acme-api-2');
      expectInvalid(`${ids}projectSlug`, 'Acme');
      expectInvalid(`${ids}projectSlug`, '');
      expectInvalid(`${ids}projectSlug`, 'a'.repeat(101));
    });

    it('every record id field refers to the def of its kind (`SecurityScheme` → securitySchemeId)', () => {
      for (const collection of loadSchemaRegistry().collections) {
        const properties = collection.schema['properties'] as Record<string, Record<string, unknown>>;
        const def = `${collection.record[0]!.toLowerCase()}${collection.record.slice(1)}Id`;
        expect(properties['id']!['$ref'], collection.name).to.equal(`../defs/ids.json#/$defs/${def}`);
        expect(properties['versionId']!['$ref'], collection.name).to.equal('../defs/ids.json#/$defs/versionId');
      }
    });
  });

  describe('collections.json', () => {
    const descriptors = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, DESCRIPTORS_FILE), 'utf8')) as {
      collections: Array<{ name: string; record: string; schema: string; notFound: string; filters?: string[] }>;
    };

    it('validates against collection-descriptors.schema.json', () => {
      expectValid(`${BASE}collection-descriptors.schema.json`, descriptors);
    });

    // A schema author may add kinds after the contract's; none of the contract's may go.
    it('serves every record kind of the contract, in its order, first', () => {
      expect(descriptors.collections.map((c) => c.name).slice(0, CONTRACT_KINDS.length)).to.deep.equal(CONTRACT_KINDS);
    });

    it('declares the natural keys, references and scope rules of decisions.md', () => {
      const byName = new Map(loadSchemaRegistry().collections.map((c) => [c.name, c]));
      for (const kind of CONTRACT_KINDS) expect(byName.get(kind)!.naturalKey, kind).to.deep.equal(CONTRACT_NATURAL_KEYS[kind] ?? []);
      for (const collection of byName.values()) {
        for (const [field, target] of collection.references) {
          expect(byName.has(target), `${collection.name}.${field} → ${target}`).to.equal(true);
          expect(field).to.match(/Id$/);
        }
      }
      expect(byName.get('servers')!.scope).to.deep.equal({ fields: ['serviceId', 'pathId', 'operationId'], min: 0, max: 1 });
      expect(byName.get('parameters')!.scope).to.deep.equal({ fields: ['pathId', 'operationId'], min: 1, max: 1 });
    });

    it('each descriptor names an existing record schema with the filtered reference, natural-key and scalar fields', () => {
      for (const collection of descriptors.collections) {
        const schema = ajv.getSchema(collection.schema)?.schema as AnySchemaObject | undefined;
        expect(schema, collection.schema).to.be.an('object');
        expect(schema!['title']).to.equal(collection.record);
        expect(collection.notFound).to.equal(notFoundOf(collection));
        const properties = schema!['properties'] as Record<string, Record<string, unknown>>;
        expect(properties['id']!['$ref'], 'id refers to an x-id-prefix def').to.match(/^\.\.\/defs\/ids\.json#\/\$defs\//);
        const declared = collection as { references?: Record<string, string>; naturalKey?: string[] };
        for (const filter of collection.filters ?? []) {
          expect(properties, `${collection.name} filter`).to.have.property(filter);
          if (declared.naturalKey?.includes(filter)) continue;
          // A scalar field of its own (a Service's lifecycle, owner): filtered by equality like the others.
          if (!declared.references?.[filter] && ['string', 'boolean', 'integer', 'number'].includes(String(properties[filter]!['type']))) continue;
          expect(declared.references, `${filter} is a reference or natural-key field`).to.have.property(filter);
          expect(properties[filter]!['$ref'], `${filter} is a reference field`).to.match(/^\.\.\/defs\/ids\.json#\/\$defs\/\w+Id$/);
        }
      }
    });

    it('the not-found rule gives the contract\'s own words (catalog-interface.md, decisions.md)', () => {
      expect(notFoundOf({ record: 'Path' })).to.equal('Path not found');
      expect(notFoundOf({ record: 'Request' })).to.equal('Request not found');
      expect(notFoundOf({ record: 'SecurityScheme' })).to.equal('Security scheme not found');
    });

    it('the descriptor schema rejects bad descriptors and defaults filters to []', () => {
      const ref = `${BASE}collection-descriptors.schema.json`;
      const good = { name: 'things', title: 'Things', record: 'Thing', schema: `${BASE}records/thing.json`, notFound: 'Thing not found' };
      const filled = expectValid(ref, { collections: [good] });
      expect((filled['collections'] as Array<Record<string, unknown>>)[0]!['filters']).to.deep.equal([]);
      expectInvalid(ref, { collections: [{ ...good, name: 'Things' }] });
      expectInvalid(ref, { collections: [{ ...good, name: '1things' }] });
      expectInvalid(ref, { collections: [{ ...good, extra: true }] });
      const { notFound: _notFound, ...withoutNotFound } = good;
      expectInvalid(ref, { collections: [withoutNotFound] });
      expectInvalid(ref, {});
    });
  });

  describe('Path', () => {
    const ref = record('path');
    const minimal = { serviceId: id('svc_'), path: '/users/{userId}', versionId: VERSION };

    it('accepts a minimal path and fills kvStorage: {}', () => {
      const filled = expectValid(ref, minimal);
      expect(filled).to.deep.equal({ ...minimal, kvStorage: {} });
    });

    it('accepts a full path, and a returned record validates unchanged', () => {
      const full = {
        id: id('path_'), ...minimal, summary: 'Users', description: '# Users\n',
        kvStorage: { 'x-vendor': { $weird: ['a', ['b']], 'dotted.key': null } },
        updatedAt: '2025-01-02T03:04:05.678Z',
      };
      expect(expectValid(ref, full)).to.deep.equal(full);
      expectValid(ref, { ...full, updatedAt: null });
    });

    it('rejects invalid paths', () => {
      expectInvalid(ref, { ...minimal, path: 'users' });
      expectInvalid(ref, { ...minimal, path: '' });
      expectInvalid(ref, { ...minimal, extra: 1 });
      expectInvalid(ref, { ...minimal, id: 'path_123' });
      expectInvalid(ref, { ...minimal, id: id('req_') });
      expectInvalid(ref, { ...minimal, serviceId: id('svc_').toLowerCase().replace('svc_', 'SVC_') });
      expectInvalid(ref, { ...minimal, versionId: id('ver_') + 'x' });
      expectInvalid(ref, { ...minimal, kvStorage: [] });
      expectInvalid(ref, { ...minimal, updatedAt: 'yesterday' });
      expectInvalid(ref, { ...minimal, summary: 3 });
      for (const field of ['serviceId', 'path', 'versionId'] as const) {
        const { [field]: _dropped, ...rest } = minimal;
        expectInvalid(ref, rest);
      }
      expectInvalid(ref, [minimal]);
    });
  });

  describe('Request', () => {
    const ref = record('request');
    const minimal = { operationId: id('op_'), versionId: VERSION };

    it('accepts a minimal request and fills headers, kvStorage and examples with {}', () => {
      expect(expectValid(ref, minimal)).to.deep.equal({ ...minimal, headers: {}, kvStorage: {}, examples: {} });
    });

    it('accepts a full request, and a returned record validates unchanged', () => {
      const full = {
        id: id('req_'), ...minimal,
        description: 'Creates a user.',
        descriptionBlocks: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Hi', marks: [{ type: 'bold' }, { type: 'link', attrs: { href: 'https://x.test' } }] }] },
          { type: 'heading', attrs: { level: 2 }, extraKey: true },
        ],
        contentMediaType: 'application/json',
        headers: {
          'X-Trace': { description: 'Trace id', required: true, deprecated: false, schema: { type: 'string' }, examples: { a: { value: 'abc' } } },
          'X-Shared': { $ref: '#/components/headers/Shared' },
          'X-Empty': {},
        },
        schema: { type: 'object', properties: { name: { type: 'string' } }, $defs: {}, 'a.b': 1 },
        kvStorage: { encoding: { name: { contentType: 'text/plain' } } },
        examples: {
          embedded: { summary: 'A user', value: { name: 'Ada' } },
          nullValue: { value: null },
          external: { summary: 'Remote', description: 'Big one', externalValue: 'https://example.test/user.json' },
          summaryOnly: { summary: 'No value yet' },
        },
        updatedAt: '2025-01-02T03:04:05.678Z',
      };
      expect(expectValid(ref, full)).to.deep.equal(full);
      expectValid(ref, { ...minimal, contentMediaType: null, descriptionBlocks: { type: 'doc', content: [] } });
    });

    it('does not fill defaults inside headers (they are documented, not applied)', () => {
      const filled = expectValid(ref, { ...minimal, headers: { 'X-A': { description: 'a' } } });
      expect(filled['headers']).to.deep.equal({ 'X-A': { description: 'a' } });
    });

    it('rejects invalid requests', () => {
      const invalid: Array<[string, unknown]> = [
        ['unknown field', { ...minimal, body: {} }],
        ['malformed operationId', { ...minimal, operationId: 'op_short' }],
        ['operationId of another kind', { ...minimal, operationId: id('par_') }],
        ['missing operationId', { versionId: VERSION }],
        ['missing versionId', { operationId: minimal.operationId }],
        ['contentMediaType number', { ...minimal, contentMediaType: 1 }],
        ['schema not an object', { ...minimal, schema: 'string' }],
        ['example with value and externalValue', { ...minimal, examples: { both: { value: 1, externalValue: 'https://x.test' } } }],
        ['example with unknown field', { ...minimal, examples: { e: { value: 1, extra: 2 } } }],
        ['example externalValue not a string', { ...minimal, examples: { e: { externalValue: 5 } } }],
        ['example not an object', { ...minimal, examples: { e: 'text' } }],
        ['header reference with extra fields', { ...minimal, headers: { 'X-A': { $ref: '#/h', description: 'x' } } }],
        ['header reference not a string', { ...minimal, headers: { 'X-A': { $ref: 5 } } }],
        ['inline header with unknown field', { ...minimal, headers: { 'X-A': { name: 'X-A' } } }],
        ['inline header required not boolean', { ...minimal, headers: { 'X-A': { required: 'yes' } } }],
        ['inline header with a bad example', { ...minimal, headers: { 'X-A': { examples: { e: { value: 1, externalValue: 'u' } } } } }],
        ['headers not a map', { ...minimal, headers: [] }],
        ['descriptionBlocks string', { ...minimal, descriptionBlocks: 'text' }],
        ['rich-text node content not an array', { ...minimal, descriptionBlocks: { content: {} } }],
        ['rich-text mark without type', { ...minimal, descriptionBlocks: [{ type: 'text', text: 'x', marks: [{ attrs: {} }] }] }],
        ['rich-text node text not a string', { ...minimal, descriptionBlocks: [{ text: 1 }] }],
        ['updatedAt not a date-time', { ...minimal, updatedAt: '2025-13-01' }],
      ];
      for (const [what, value] of invalid) expect(check(ref, value).valid, what).to.equal(false);
    });
  });

  describe('other records', () => {
    it('Server: at most one of serviceId, pathId, operationId (the descriptor\'s scope rule); variables need default and enum', () => {
      const servers = loadSchemaRegistry().collections.find((c) => c.name === 'servers')!;
      const base = { url: 'https://{region}.api.test/v1', versionId: VERSION };
      const problems = (extra: Record<string, unknown>): unknown => servers.checkRecord({ ...base, ...extra });
      expect(problems({})).to.deep.equal([]);
      expect(problems({ serviceId: id('svc_') })).to.deep.equal([]);
      expect(problems({ pathId: id('path_') })).to.deep.equal([]);
      expect(problems({ operationId: id('op_') })).to.deep.equal([]);
      const combined = 'set at most 1 of serviceId, pathId, operationId';
      expect(problems({ serviceId: id('svc_'), pathId: id('path_') })).to.deep.equal([{ field: '/pathId', message: `cannot be combined with serviceId: ${combined}` }]);
      expect(problems({ serviceId: id('svc_'), operationId: id('op_') })).to.deep.equal([{ field: '/operationId', message: `cannot be combined with serviceId: ${combined}` }]);
      expect(problems({ pathId: id('path_'), operationId: id('op_') })).to.deep.equal([{ field: '/operationId', message: `cannot be combined with pathId: ${combined}` }]);
      expect(problems({ serviceId: id('svc_'), pathId: id('path_'), operationId: id('op_') })).to.have.length(1);
      expect(problems({ variables: { region: { default: 'eu', enum: ['eu', 'us'], description: 'Region' } } })).to.deep.equal([]);
      expect(problems({ variables: { region: { default: 'eu', enum: [] } } })).to.deep.equal([{ field: '/variables/region/enum', message: 'must NOT have fewer than 1 items' }]);
      expect(problems({ variables: { region: { enum: ['eu'] } } })).to.deep.equal([{ field: '/variables/region/default', message: 'is required' }]);
      expect(problems({ variables: { region: { default: 'eu' } } })).to.deep.equal([{ field: '/variables/region/enum', message: 'is required' }]);
    });

    it('field rules answer with one problem a user understands', () => {
      const schemas = loadSchemaRegistry();
      const check = (name: string, value: Record<string, unknown>): unknown => schemas.collections.find((c) => c.name === name)!.checkRecord({ ...value, versionId: VERSION });
      const op = { method: 'get', pathId: id('path_'), operationId: 'listUsers' };
      expect(check('operations', { ...op, method: 'fetch' })).to.deep.equal([
        { field: '/method', message: 'must be one of: "get", "put", "post", "delete", "options", "head", "patch", "trace"' },
      ]);
      const par = { name: 'petId', in: 'path', schema: {}, pathId: id('path_') };
      expect(check('parameters', { ...par, required: true })).to.deep.equal([]);
      expect(check('parameters', { ...par, required: false })).to.deep.equal([{ field: '/required', message: 'must be true when in is "path"' }]);
      expect(check('parameters', { ...par, required: true, pathId: undefined })).to.deep.equal([{ field: '/pathId', message: 'is required: set exactly 1 of pathId, operationId' }]);
      expect(check('parameters', { ...par, required: true, operationId: id('op_') })).to.deep.equal([{ field: '/operationId', message: 'cannot be combined with pathId: set exactly 1 of pathId, operationId' }]);
      const res = { operationId: id('op_') };
      expect(check('responses', { ...res, statusCode: 200 })).to.deep.equal([]);
      expect(check('responses', { ...res, statusCode: null })).to.deep.equal([]);
      expect(check('responses', { ...res, statusCode: 99 })).to.deep.equal([{ field: '/statusCode', message: 'must be >= 100' }]);
      expect(check('responses', { ...res, statusCode: 600 })).to.deep.equal([{ field: '/statusCode', message: 'must be <= 599' }]);
      expect(check('responses', { ...res, statusCode: 200.5 })).to.deep.equal([{ field: '/statusCode', message: 'must be integer or null' }]);
      const needs: [Record<string, unknown>, string][] = [
        [{ type: 'apiKey', in: 'header' }, ''],
        [{ type: 'apiKey' }, '/in'],
        [{ type: 'http', scheme: 'bearer' }, ''],
        [{ type: 'http' }, '/scheme'],
        [{ type: 'oauth2', flows: {} }, ''],
        [{ type: 'oauth2' }, '/flows'],
        [{ type: 'openIdConnect', openIdConnectUrl: 'https://id.test/.well-known/openid-configuration' }, ''],
        [{ type: 'openIdConnect' }, '/openIdConnectUrl'],
        [{ type: 'mutualTLS' }, '/type'],
        [{ type: 'mutualTls' }, ''],
      ];
      for (const [fields, field] of needs) {
        const problems = check('security-schemes', { name: 'key', ...fields }) as Array<{ field: string; message: string }>;
        if (field === '') expect(problems, JSON.stringify(fields)).to.deep.equal([]);
        else {
          expect(problems, JSON.stringify(fields)).to.have.length(1);
          expect(problems[0]!.field).to.equal(field);
          if (field !== '/type') expect(problems[0]!.message).to.equal(`is required when type is ${JSON.stringify(fields['type'])}`);
        }
      }
      // A header that is neither an inline header nor a reference: the real problem, once.
      expect(check('requests', { operationId: id('op_'), headers: { 'X-A': { required: 'yes' } } })).to.deep.equal([
        { field: '/headers/X-A/required', message: 'must be boolean' },
      ]);
    });

    it('Service: slug pattern and defaults', () => {
      const ref = record('service');
      const base = { slug: 'users-api', versionId: VERSION, organizationId: 'org-1' };
      expect(expectValid(ref, base)).to.deep.equal({
        ...base, name: '', summary: '', description: '', tags: [], previousSlugs: [], kvStorage: {}, hasConnection: false,
      });
      expectValid(ref, { ...base, security: [{ projectApiKey: [] }, { oauth: ['read', 'write'] }], lastReportAt: null });
      expectInvalid(ref, { ...base, slug: 'Users API' });
      expectInvalid(ref, { ...base, security: [{ oauth: 'read' }] });
      expectInvalid(ref, { slug: 'x', versionId: VERSION });
    });

    it('Operation, Parameter, Response, Resource, SecurityScheme, Header', () => {
      const op = { method: 'get', pathId: id('path_'), operationId: 'listUsers', versionId: VERSION };
      expect(expectValid(record('operation'), op)).to.deep.equal({ ...op, deprecated: false, tags: [], kvStorage: {} });
      expectInvalid(record('operation'), { ...op, method: 'GET' });
      expectValid(record('operation'), { ...op, externalDocs: { url: 'https://docs.test' } });
      expectInvalid(record('operation'), { ...op, externalDocs: { description: 'no url' } });

      const par = { name: 'limit', in: 'query', schema: { type: 'integer' }, versionId: VERSION };
      expect(expectValid(record('parameter'), par)).to.deep.equal({
        ...par, deprecated: false, required: false, allowEmptyValue: false, examples: {}, kvStorage: {},
      });
      expectInvalid(record('parameter'), { ...par, in: 'body' });
      expectInvalid(record('parameter'), { ...par, name: '' });

      const res = { operationId: id('op_'), versionId: VERSION };
      expectValid(record('response'), { ...res, statusCode: 200, contentMediaType: null });
      expectValid(record('response'), { ...res, statusCode: null });
      expectInvalid(record('response'), { ...res, statusCode: '200' });

      expectValid(record('resource'), { schema: { type: 'object' }, versionId: VERSION });
      expectInvalid(record('resource'), { versionId: VERSION });

      const sch = { type: 'http', name: 'projectApiKey', scheme: 'bearer', bearerFormat: 'API Key', versionId: VERSION };
      expectValid(record('security-scheme'), sch);
      expectInvalid(record('security-scheme'), { ...sch, type: 'basic' });
      expect(expectValid(record('security-scheme'), { ...sch })).to.deep.equal({ ...sch, kvStorage: {} });
      expectValid(record('security-scheme'), { ...sch, kvStorage: { parameterName: 'X-Key', 'x-vendor': [1] } });

      const header = { name: 'X-Rate-Limit', versionId: VERSION };
      expectValid(record('header'), { ...header, style: 'simple', content: { 'application/json': { schema: {} } } });
      expectInvalid(record('header'), { ...header, style: 'form' });
      expectInvalid(record('header'), { ...header, content: { 'application/json': { examples: {} } } });
    });

    it('Example: value and externalValue are exclusive', () => {
      const ref = record('example');
      expectValid(ref, { versionId: VERSION, value: { a: 1 } });
      expectValid(ref, { versionId: VERSION, externalValue: 'https://example.test/a.json' });
      expectInvalid(ref, { versionId: VERSION, value: 1, externalValue: 'https://example.test/a.json' });
      expectInvalid(ref, { versionId: VERSION, externalValue: 'not a url' });
    });

    it('Assistant conversation: parts', () => {
      const ref = record('assistant-conversation');
      const message = (parts: unknown[]): unknown => ({ messages: [{ id: 'm1', role: 'user', parts }] });
      expectValid(ref, message([{ type: 'text', text: 'hi', state: 'done' }]));
      expectValid(ref, message([{ type: 'reasoning', text: '...', providerMetadata: {} }]));
      expectValid(ref, message([{ type: 'file', mediaType: 'image/png', url: 'data:,', filename: 'a.png' }]));
      expectValid(ref, message([{ type: 'tool-search', anything: [1, 2] }]));
      expectInvalid(ref, message([{ type: 'text' }]));
      expectInvalid(ref, message([{ type: 'text', text: 'x', state: 'paused' }]));
      expectInvalid(ref, message([{ type: 'file', url: 'data:,' }]));
      expectInvalid(ref, message([{ type: '' }]));
      expectInvalid(ref, message([{ text: 'no type' }]));
      expectInvalid(ref, { messages: [{ role: 'robot', parts: [] }] });
      expectInvalid(ref, { messages: [{ role: 'user' }] });
      expectInvalid(ref, {});
    });
  });

  describe('api shapes', () => {
    it('pagination metadata', () => {
      const ref = `${BASE}api/pagination.json`;
      expectValid(ref, { nextCursor: null, hasMore: false, limit: 50 });
      expectValid(ref, { nextCursor: id('path_'), hasMore: true, limit: 1000 });
      expectInvalid(ref, { nextCursor: null, hasMore: false });
      expectInvalid(ref, { nextCursor: null, hasMore: false, limit: 1.5 });
      expectInvalid(ref, { nextCursor: null, hasMore: false, limit: 50, extra: 1 });
    });

    it('error body', () => {
      const ref = `${BASE}api/error.json`;
      expectValid(ref, { error: 'Path not found' });
      expectValid(ref, { error: 'Invalid request', details: [{ field: '/path', message: 'must start with /' }] });
      expectValid(ref, { error: 'Invalid request', details: null });
      expectInvalid(ref, { details: 'x' });
      expectInvalid(ref, { error: 'Conflict', status: 409 });
    });
  });

  describe('Ajv and defaults inside branches', () => {
    it('strict mode refuses a default inside oneOf/anyOf/not (so shared shapes carry none)', () => {
      for (const keyword of ['oneOf', 'anyOf']) {
        const fresh = recordingAjv({ messages: [] });
        const schema = {
          [keyword]: [
            { type: 'object', properties: { a: { type: 'boolean', default: false } } },
            { type: 'string' },
          ],
        };
        expect(() => fresh.compile(schema), keyword).to.throw(/default is ignored/);
      }
      expect(() => recordingAjv({ messages: [] }).compile({
        type: 'object', not: { properties: { a: { type: 'boolean', default: false } } },
      })).to.throw(/default is ignored/);
    });

    it('...but one reached through a $ref Ajv does not inline is applied silently, even in a failing branch', () => {
      // Ajv inlines only $ref targets without refs of their own; any other target is compiled as
      // a separate function that no longer knows it sits in a oneOf. Whether a nested default is
      // refused or applied thus depends on Ajv internals: shared defs carry no defaults at all.
      const fresh = recordingAjv({ messages: [] });
      fresh.addSchema({
        $id: 'https://t.test/branch.json',
        $defs: {
          text: { type: 'string' },
          header: {
            type: 'object', additionalProperties: false, required: ['kind'],
            properties: { kind: { $ref: '#/$defs/text' }, required: { type: 'boolean', default: false }, big: { type: 'boolean' } },
          },
        },
      });
      const validate = fresh.compile({ oneOf: [{ $ref: 'https://t.test/branch.json#/$defs/header' }, { type: 'object', required: ['big'], properties: { big: { const: true } } }] });
      const matching: Record<string, unknown> = { kind: 'x' };
      expect(validate(matching)).to.equal(true);
      expect(matching).to.deep.equal({ kind: 'x', required: false });
      const bothBranches: Record<string, unknown> = { kind: 'x', big: true };
      expect(validate(bothBranches)).to.equal(false);
      expect(bothBranches).to.deep.equal({ kind: 'x', big: true, required: false });
    });

    it('a default on a $ref target is not applied; the default must sit beside the $ref', () => {
      const fresh = recordingAjv({ messages: [] });
      fresh.addSchema({ $id: 'https://t.test/defs.json', $defs: { obj: { type: 'object', default: {} } } });
      const beside = fresh.compile({ type: 'object', properties: { a: { $ref: 'https://t.test/defs.json#/$defs/obj', default: {} } } });
      const onTarget = fresh.compile({ type: 'object', properties: { a: { $ref: 'https://t.test/defs.json#/$defs/obj' } } });
      const one: Record<string, unknown> = {};
      const two: Record<string, unknown> = {};
      beside(one);
      onTarget(two);
      expect(one).to.deep.equal({ a: {} });
      expect(two).to.deep.equal({});
    });
  });
});
