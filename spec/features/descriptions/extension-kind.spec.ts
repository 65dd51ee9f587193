// A record kind a schema author adds in a copy of schemas/ alone, with no server code: Code
// samples, mapped from Redoc's `x-codeSamples` on an operation (`extension` in the descriptor).
// The service booted on that copy (SCHEMAS_DIR) imports them, exports them back, searches them
// with their operation, shows them on the operation's page and in MCP.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { callTool, mcpAgents, type McpAgents } from '../../support/mcp.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { petstore } from './petstore.ts';

type Json = Record<string, unknown>;

async function editJson(file: string, edit: (json: Json) => void): Promise<void> {
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Json;
  edit(json);
  await fs.writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

const CODE_SAMPLE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://catalog.example/schemas/records/code-sample.json',
  title: 'CodeSample', description: 'A sample call of an operation, in one language.', type: 'object', additionalProperties: false,
  required: ['operationId', 'lang', 'source', 'versionId'],
  properties: {
    id: { $ref: '../defs/ids.json#/$defs/codeSampleId', title: 'Code sample id', description: 'Its id.' },
    operationId: { $ref: '../defs/ids.json#/$defs/operationId', title: 'Operation id', description: 'The operation it calls.' },
    lang: { title: 'Language', description: 'The language of the source.', type: 'string', minLength: 1 },
    label: { title: 'Label', description: 'What the sample is called.', type: 'string' },
    source: { title: 'Source', description: 'The code.', type: 'string' },
    kvStorage: { $ref: '../defs/common.json#/$defs/kvStorage', title: 'Key-value storage', description: 'Custom metadata.', default: {} },
    versionId: { $ref: '../defs/ids.json#/$defs/versionId', title: 'Version id', description: 'Its version.' },
    updatedAt: { $ref: '../defs/common.json#/$defs/timestamp', title: 'Updated at', description: 'When written.', readOnly: true },
  },
};

/** Copies schemas/ to `dir` and adds the Code samples kind there. */
async function withCodeSamples(dir: string): Promise<void> {
  await fs.cp(path.join(repoRoot, 'schemas'), dir, { recursive: true });
  await editJson(path.join(dir, 'defs/ids.json'), (ids) => {
    (ids['$defs'] as Json)['codeSampleId'] = {
      title: 'Code sample id', description: 'An id.', type: 'string', 'x-id-prefix': 'csm_', pattern: '^csm_[0-9A-Za-z]{26}$', minLength: 30, maxLength: 30,
    };
  });
  await fs.writeFile(path.join(dir, 'records/code-sample.json'), JSON.stringify(CODE_SAMPLE, null, 2));
  await editJson(path.join(dir, 'collections.json'), (descriptors) => {
    (descriptors['collections'] as Json[]).push({
      name: 'code-samples', title: 'Code samples', record: 'CodeSample', schema: CODE_SAMPLE.$id, notFound: 'Code sample not found',
      references: { operationId: 'operations' }, filters: ['operationId'], importKey: ['operationId', 'lang', 'label'], extension: 'x-codeSamples',
    });
  });
}

const SAMPLES = [
  { lang: 'Shell', label: 'curl', source: 'curl https://petstore.example.com/pets?limit=zephyrquill' },
  { lang: 'Python', source: 'import requests\nrequests.get("https://petstore.example.com/pets")', 'x-note': 'kept' },
];

/** The petstore with code samples on `listPets`. */
function sampled(): Json {
  const document = petstore() as { paths: Record<string, Record<string, Json>> };
  document.paths['/pets']!['get']!['x-codeSamples'] = structuredClone(SAMPLES);
  return document;
}

describe('descriptions: a kind added in a copy of schemas/ alone is imported, exported, searched, on a page and in MCP', function () {
  this.timeout(60_000);
  let dir: string;
  let service: TestCatalog;
  let tenant: Tenant;
  let serviceId: string;
  const url = (suffix: string) => `${tenant.prefixes.byId}${suffix}`;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-extension-kind-'));
    await withCodeSamples(dir);
    service = await startCatalog({ SCHEMAS_DIR: dir });
    tenant = await givenTenant(service);
    const res = await service.request.post(url('/imports/openapi?service=pets')).set(bearer(tenant.key)).send(sampled());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.records['code-samples']).to.include({ created: 2 });
    serviceId = res.body.service.id;
  });
  after(async () => {
    await service?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('imports each item as a record of the kind, its other members kept with it', async () => {
    const auth = bearer(tenant.key);
    const paths = (await service.request.get(url('/paths')).query({ serviceId, path: '/pets' }).set(auth)).body.items;
    const operation = (await service.request.get(url('/operations')).query({ pathId: paths[0].id, method: 'get' }).set(auth)).body.items[0];
    expect(operation.kvStorage, 'the list is the records\', not the operation\'s').to.not.have.property('x-codeSamples');
    const samples = (await service.request.get(url('/code-samples')).query({ operationId: operation.id }).set(auth)).body.items;
    expect(samples.map(({ lang, label, source }: Json) => ({ lang, label, source }))).to.deep.equal([
      { lang: 'Shell', label: 'curl', source: SAMPLES[0]!.source },
      { lang: 'Python', label: undefined, source: SAMPLES[1]!.source },
    ]);
    expect(samples[1].kvStorage).to.include({ 'x-note': 'kept' });
  });

  it('exports the list back as it came, and a re-import of the export changes nothing', async () => {
    const exported = (await service.request.get(url(`/services/${serviceId}/openapi`)).set(bearer(tenant.key))).body;
    expect(exported.paths['/pets'].get['x-codeSamples']).to.deep.equal(SAMPLES);
    const again = await service.request.post(url('/imports/openapi?service=pets')).set(bearer(tenant.key)).send(exported);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.records['code-samples']).to.deep.equal({ created: 0, updated: 0, deleted: 0, unchanged: 2 });
  });

  const found = async (q: string): Promise<unknown[]> => {
    const res = await service.request.get(url('/search')).query({ q }).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.hits.map((hit: { operation: Json }) => hit.operation['operationId']);
  };

  it('finds the operation by a word only its code sample holds, and by the new word once a re-import changes the sample', async () => {
    expect(await found('zephyrquill')).to.deep.equal(['listPets']);
    const changed = sampled() as { paths: Record<string, Record<string, { 'x-codeSamples': Json[] }>> };
    changed.paths['/pets']!['get']!['x-codeSamples'][0]!['source'] = 'curl https://petstore.example.com/pets?limit=quorbleflint';
    const res = await service.request.post(url('/imports/openapi?service=pets')).set(bearer(tenant.key)).send(changed);
    expect(res.body.records['code-samples'], JSON.stringify(res.body)).to.include({ updated: 1, unchanged: 1 });
    expect(await found('quorbleflint')).to.deep.equal(['listPets']);
    expect(await found('zephyrquill')).to.deep.equal([]);
    const back = await service.request.post(url('/imports/openapi?service=pets')).set(bearer(tenant.key)).send(sampled());
    expect(back.body.records['code-samples'], JSON.stringify(back.body)).to.include({ updated: 1 });
  });

  it('shows the samples on the operation\'s page and its Markdown twin', async () => {
    const page = `/catalog/${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}/services/pets/operations/listPets`;
    const html = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/html');
    expect(html.status).to.equal(200);
    expect(html.text).to.include('<h2 id="kind-code-samples">Code samples</h2>');
    expect(html.text).to.include('curl https://petstore.example.com/pets?limit=zephyrquill');
    const markdown = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/markdown');
    expect(markdown.text).to.include('## Code samples');
    expect(markdown.text).to.include('- lang: Python');
  });

  describe('in MCP', () => {
    let agents: McpAgents;
    before(async () => { agents = await mcpAgents(service); });
    after(async () => agents?.close());

    it('get_endpoint answers the samples under their extension, get_openapi the document with them', async () => {
      const client = await agents.connect(tenant.readOnlyKey);
      const version = tenant.version.id;
      const endpoint = await callTool(client, 'get_endpoint', { version, operation: 'listPets' });
      expect(endpoint.isError, JSON.stringify(endpoint.content)).to.not.equal(true);
      expect((endpoint.structuredContent as { extensions: Json }).extensions).to.deep.equal({
        'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: SAMPLES[0]!.source }, { lang: 'Python', source: SAMPLES[1]!.source }],
      });
      const openapi = await callTool(client, 'get_openapi', { version, service: 'pets' });
      expect(openapi.isError, JSON.stringify(openapi.content)).to.not.equal(true);
      const document = (openapi.structuredContent ?? JSON.parse((openapi.content[0] as { text: string }).text)) as { paths: Record<string, Record<string, Json>> };
      expect(document.paths['/pets']!['get']!['x-codeSamples']).to.deep.equal(SAMPLES);
    });
  });
});
