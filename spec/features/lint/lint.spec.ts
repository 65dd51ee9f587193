// Lint: every write that changes a service's description owes it a lint, run behind the answer
// and stored; both route families and MCP answer it; a project's settings (built-in rulesets,
// its own ruleset documents, severities, exemptions) change what is found, and a bad ruleset is
// a 400 naming the problem; a pending lint survives a restart.
//
// The suite has a database of its own: a new process takes up every pending lint of its
// database, and other files' services may have left theirs pending when they closed.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bearer, givenTenant, startCatalog, tokenFor, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { ownDatabase } from '../../support/database.ts';
import { petstore } from '../descriptions/petstore.ts';

type Finding = { code: string; severity: string; path: string; operation?: { method: string; path: string } };

describe('lint: findings stored behind the writes, answered on both families and MCP', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  const settingsPath = () => `/v2/catalog/projects/${tenant.project.slug}/lint-settings`;
  const lint = async (family: 'byId' | 'byAddress' = 'byId') => {
    await service.runtime.lints.idle();
    const res = await service.request.get(`${tenant.prefixes[family]}/services/petstore/lint`).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { service: { id: string }; status: string; findings: Finding[]; counts: Record<string, number>; rulesets: string[]; settingsRevision: number };
  };
  const codes = (findings: Finding[]) => new Set(findings.map((finding) => finding.code));
  const setSettings = (body: object) => service.request.post(settingsPath()).set(bearer(tenant.key)).send(body);

  let database: ReturnType<typeof ownDatabase>;
  const lintOn = () => startCatalog({ LINT: 'on', MONGODB_URI: database.uri });

  before(async () => {
    database = ownDatabase('lint');
    service = await lintOn();
    tenant = await givenTenant(service);
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore`).set(bearer(tenant.key)).send(petstore());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  });
  after(async () => {
    await service.close();
    await database.drop();
  });

  it('lints an import with spectral:oas and OWASP, the same on both route families', async () => {
    const byId = await lint('byId');
    expect(byId.status).to.equal('current');
    expect(byId.rulesets).to.deep.equal(['spectral:oas', '@stoplight/spectral-owasp-ruleset']);
    const found = codes(byId.findings);
    expect(found).to.include('info-contact');
    expect([...found].some((code) => code.startsWith('owasp:'))).to.equal(true);
    const inOperation = byId.findings.find((finding) => finding.operation);
    expect(inOperation!.path.startsWith(`/paths/${inOperation!.operation!.path.replaceAll('/', '~1')}/${inOperation!.operation!.method.toLowerCase()}`)).to.equal(true);
    expect(byId.counts.warn).to.equal(byId.findings.filter((finding) => finding.severity === 'warn').length);
    const byAddress = await lint('byAddress');
    expect(byAddress.findings).to.deep.equal(byId.findings);
  });

  it('lints again after a record write changes the description (the service record)', async () => {
    const before = await lint();
    expect(codes(before.findings)).to.not.include('info-description');
    const res = await service.request.patch(`${tenant.prefixes.byId}/services/${before.service.id}`).set(bearer(tenant.key)).send({ description: '' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const after = await lint();
    expect(codes(after.findings)).to.include('info-description');
  });

  it('lints again after a record of the service is deleted: the deleted operation\'s findings go', async () => {
    const before = await lint();
    const gone = before.findings.find((finding) => finding.operation)!.operation!;
    const versionId = tenant.version.id;
    const [path] = await service.runtime.stores.get('paths')!.matching(versionId, { path: gone.path });
    const [operation] = await service.runtime.stores.get('operations')!.matching(versionId, { pathId: path!.id, method: gone.method.toLowerCase() });
    const res = await service.request.delete(`${tenant.prefixes.byId}/operations/${operation!.id}`).set(bearer(tenant.key));
    expect(res.status, JSON.stringify(res.body)).to.equal(204);
    const after = await lint();
    const at = (finding: Finding) => finding.operation?.path === gone.path && finding.operation.method === gone.method;
    expect(before.findings.filter(at)).to.not.be.empty;
    expect(after.findings.filter(at)).to.be.empty;
  });

  it('severities per rule, exemptions by operation and by path, and the settings versioned', async () => {
    const before = await lint();
    const operationFinding = before.findings.find((finding) => finding.operation && finding.code === 'owasp:api4:2023-rate-limit-responses-429')!;
    expect(operationFinding).to.not.equal(undefined);
    const res = await setSettings({
      severities: { 'info-contact': 'error', 'operation-tag-defined': 'off' },
      exemptions: [{ rule: operationFinding.code, operation: operationFinding.operation }, { path: '/info/license' }],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.revision).to.equal(1);
    const after = await lint();
    expect(after.settingsRevision).to.equal(1);
    expect(after.findings.find((finding) => finding.code === 'info-contact')!.severity).to.equal('error');
    expect(after.counts.error).to.be.greaterThan(0);
    expect(after.findings.some((finding) => finding.code === operationFinding.code && finding.path === operationFinding.path)).to.equal(false);
    expect(after.findings.some((finding) => finding.path.startsWith('/info/license'))).to.equal(false);
    const read = await service.request.get(settingsPath()).set(bearer(tenant.readOnlyKey));
    expect(read.body.revision).to.equal(1);
  });

  it('a project\'s own ruleset document (YAML, built-in functions) alone', async () => {
    const ruleset = [
      'rules:',
      '  summary-starts-uppercase:',
      '    severity: error',
      '    given: "$.paths[*][*]"',
      '    then:',
      '      field: summary',
      '      function: pattern',
      '      functionOptions:',
      '        match: "^[A-Z]"',
    ].join('\n');
    const res = await setSettings({ rulesets: [], documents: [{ name: 'house-style', ruleset }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const after = await lint();
    expect(after.rulesets).to.deep.equal(['house-style']);
    expect([...codes(after.findings)]).to.satisfy((found: string[]) => found.every((code) => code === 'summary-starts-uppercase'));
  });

  it('a bad ruleset is a 400 naming the problem, and changes nothing', async () => {
    const cases: [object, string][] = [
      [{ rulesets: ['spectral:nope'] }, '/rulesets/0'],
      [{ documents: [{ name: 'remote', ruleset: { extends: ['https://example.com/ruleset.yaml'] } }] }, '/documents/0/ruleset/extends/0'],
      [{ documents: [{ name: 'code', ruleset: { functions: ['evil'], rules: {} } }] }, '/documents/0/ruleset/functions'],
      [{ documents: [{ name: 'fn', ruleset: { rules: { r: { given: '$', then: { function: 'evil' } } } } }] }, '/documents/0/ruleset/rules/r/then/function'],
      [{ documents: [{ name: 'yaml', ruleset: 'rules: [' }] }, '/documents/0/ruleset'],
      [{ severities: { 'no-such-rule': 'off' } }, '/'],
    ];
    for (const [body, field] of cases) {
      const res = await setSettings(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.details.map((detail: { field: string }) => detail.field), JSON.stringify(res.body)).to.include(field);
    }
    const read = await service.request.get(settingsPath()).set(bearer(tenant.readOnlyKey));
    expect(read.body.revision).to.equal(2);
  });

  it('a read-only credential cannot change the settings', async () => {
    const res = await service.request.post(settingsPath()).set(bearer(tenant.readOnlyKey)).send({} as object);
    expect(res.status).to.equal(403);
  });

  it('a pending lint survives a restart: the next process takes it up', async () => {
    const other = await lintOn();
    try {
      const { service: { id } } = await lint();
      // Marked, never run here (as a process stopped after its write): another process resumes it.
      await service.runtime.lints.reports.markPending(tenant.project.id, tenant.version.id, id);
      const pending = await service.request.get(`${tenant.prefixes.byId}/services/petstore/lint`).set(bearer(tenant.key));
      expect(pending.body.status).to.equal('pending');
      expect(await other.runtime.lints.resume()).to.be.greaterThan(0);
      await other.runtime.lints.idle();
      const current = await service.request.get(`${tenant.prefixes.byId}/services/petstore/lint`).set(bearer(tenant.key));
      expect(current.body.status).to.equal('current');
    } finally {
      await other.close();
    }
  });

  it('a stopping process takes up no further lint: what it owes stays pending for the next start', async () => {
    const other = await lintOn();
    try {
      const { service: { id } } = await lint();
      other.runtime.lints.close();
      await other.runtime.lints.request(tenant.project.id, tenant.version.id, id);
      await other.runtime.lints.idle();
      const pending = await service.request.get(`${tenant.prefixes.byId}/services/petstore/lint`).set(bearer(tenant.key));
      expect(pending.body.status).to.equal('pending');
      expect(await service.runtime.lints.resume()).to.be.greaterThan(0);
      expect((await lint()).status).to.equal('current');
    } finally {
      await other.close();
    }
  });

  it('the gate: failOn=lint-error refuses (409) an import leaving error findings, names them, and writes nothing', async () => {
    // spectral:oas alone finds no error in the pet store; info-contact is made one.
    expect((await setSettings({ rulesets: ['spectral:oas'], severities: { 'info-contact': 'error' } })).status).to.equal(200);
    const before = await lint();
    const changed = petstore() as { info: Record<string, unknown> };
    changed.info['description'] = 'Changed, and still no contact.';
    const refused = await service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=petstore&failOn=lint-error`).set(bearer(tenant.key)).send(changed);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(409);
    expect(refused.body.details).to.deep.include({ field: '/info', message: 'info-contact: Info object must have "contact" object.' });
    const exported = await service.request.get(`${tenant.prefixes.byId}/services/petstore/openapi`).set(bearer(tenant.key));
    expect(exported.body.info.description).to.not.equal('Changed, and still no contact.');
    // With a contact, no error is left: the gate lets it through, and the dry run tells what it fixes.
    changed.info['contact'] = { name: 'Pets team', url: 'https://pets.example/team', email: 'team@pets.example' };
    const dry = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore&dryRun=true`).set(bearer(tenant.key)).send(changed);
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    expect(dry.body.lint.fixed.map((finding: Finding) => finding.code)).to.include('info-contact');
    expect(dry.body.lint.counts.error).to.equal(0);
    expect(dry.body.changes).to.not.equal(undefined);
    expect(before.findings.some((finding) => finding.code === 'info-contact')).to.equal(true);
    const passed = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore&failOn=lint-error`).set(bearer(tenant.key)).send(changed);
    expect(passed.status, JSON.stringify(passed.body)).to.equal(200);
    const after = await lint();
    expect(after.findings.some((finding) => finding.code === 'info-contact')).to.equal(false);
  });

  it('a dry run of the description as stored answers with the stored lint, marked unchanged, until the description or the settings change', async () => {
    const kennel = (document: object, query = '&dryRun=true') => service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=kennel${query}`).set(bearer(tenant.key)).send(document);
    expect((await kennel(petstore(), '')).status).to.equal(201);
    await service.runtime.lints.idle();
    const stored = (await service.request.get(`${tenant.prefixes.byId}/services/kennel/lint`).set(bearer(tenant.readOnlyKey))).body as { counts: Record<string, number> };
    const same = await kennel(petstore());
    expect(same.status, JSON.stringify(same.body)).to.equal(200);
    expect(same.body.lint).to.deep.equal({ counts: stored.counts, new: [], fixed: [], unchanged: true });
    const changed = petstore() as { info: Record<string, unknown> };
    changed.info['contact'] = { name: 'Kennel team', email: 'team@kennel.example' };
    const edited = await kennel(changed);
    expect(edited.body.lint.unchanged).to.equal(undefined);
    expect(edited.body.lint.fixed.map((finding: Finding) => finding.code)).to.include('info-contact');
    // Other settings, another lint: the stored one saw the settings before.
    expect((await setSettings({ severities: { 'operation-description': 'off' } })).status).to.equal(200);
    const resettled = await kennel(petstore());
    expect(resettled.body.lint.unchanged).to.equal(undefined);
  });

  it('a dry run lints the description with what is kept beside the service: its webhooks', async () => {
    const document = { ...petstore(), openapi: '3.1.0', webhooks: { petBorn: { post: { servers: [{ url: 'https://hooks.pets.example' }], responses: { 200: { description: 'Received.' } } } } } };
    const dry = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=petstore&dryRun=true`).set(bearer(tenant.key)).send(document);
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    const found = (dry.body.lint.new as Finding[]).map(({ code, path }) => `${code} ${path}`);
    expect(found).to.include('oas3_1-servers-in-webhook /webhooks/petBorn/post/servers');
  });

  it('the service page shows the lint, errors first, in HTML and in its Markdown twin', async () => {
    const report = await lint();
    const page = `/catalog/${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}/services/petstore`;
    const html = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/html');
    expect(html.status).to.equal(200);
    expect(html.text).to.contain('<h2 id="lint">Lint</h2>');
    expect(html.text).to.contain(`${report.counts.error} errors · ${report.counts.warn} warnings`);
    const firstRow = /<table class="lint">[\s\S]*?<span class="severity severity-(\w+)">/.exec(html.text);
    expect(firstRow?.[1]).to.equal((report.counts.error ?? 0) > 0 ? 'error' : report.findings[0]!.severity);
    const markdown = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/markdown');
    expect(markdown.text).to.contain('## Lint');
    expect(markdown.text).to.contain(`- ${report.findings.find((finding) => finding.severity === 'error')?.severity ?? report.findings[0]!.severity} \`${(report.findings.find((finding) => finding.severity === 'error') ?? report.findings[0]!).code}\``);
  });

  it('MCP: get_lint is listed and answers the stored findings, narrowed by severity', async () => {
    expect((await setSettings({ severities: { 'info-contact': 'error' } })).status).to.equal(200);
    await lint();
    const listening: Server = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    const client = new Client({ name: 'lint-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`), { requestInit: { headers: bearer(tokenFor([tenant.project.id], { readOnly: true })) } }));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.include('get_lint');
      const result = await client.callTool({ name: 'get_lint', arguments: { version: tenant.version.id, service: 'petstore', severity: 'error' } }) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).to.not.equal(true);
      const answer = result.structuredContent as { status: string; findings: Finding[] };
      expect(answer.status).to.equal('current');
      expect(answer.findings.length).to.be.greaterThan(0);
      expect(answer.findings.every((finding) => finding.severity === 'error')).to.equal(true);
    } finally {
      await client.close();
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});
