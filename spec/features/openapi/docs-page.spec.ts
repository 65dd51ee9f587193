// GET /docs: the API reference page (Swagger UI, served by the service itself), opened in
// headless Chromium against a real HTTP server; it must list the operations of the generated
// document, load nothing from elsewhere, break no Content-Security-Policy rule, and leave a
// screenshot in .cache/screenshots/docs.png.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { repoRoot } from '../../../server/config.ts';
import { launchChromium } from '../../support/chromium.ts';
import { startCatalog, type TestCatalog } from '../../support/catalog.ts';

const SCREENSHOT = path.join(repoRoot, '.cache', 'screenshots', 'docs.png');

/** What the page's window offers the test's scrolling (the project's types have no DOM library). */
type Scrollable = { document: { body: { scrollHeight: number } }; scrollTo(x: number, y: number): void };

describe('The /docs page', function () {
  // A browser start on a busy two-core machine takes seconds.
  this.timeout(120_000);
  let service: TestCatalog;
  let server: Server;
  let origin: string;
  let browser: Browser;

  before(async function () {
    // On a fresh machine the first launch installs Debian's chromium first (spec/support/chromium.ts).
    this.timeout(15 * 60_000);
    service = await startCatalog();
    server = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    await service?.close();
  });

  it('is served without credentials, with a policy that keeps scripts to the service itself', async () => {
    const res = await service.request.get('/docs');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).to.include("script-src 'self'");
    expect(policy).to.include("script-src-attr 'none'");
    expect(policy).to.not.include('upgrade-insecure-requests');
    // Everywhere else helmet's policy stays whole.
    expect(String((await service.request.get('/healthz')).headers['content-security-policy'])).to.include('upgrade-insecure-requests');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'catalog-init.js']) {
      expect((await service.request.get(`/docs/assets/${asset}`)).status, asset).to.equal(200);
    }
    expect((await service.request.get('/docs/assets/nothing.js')).status).to.equal(404);
  });

  it('lists the operations in headless Chromium, from the service alone', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
    });

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).to.equal(200);
    const document = (await service.request.get('/v2/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    await page.waitForSelector('.opblock-summary', { timeout: 60_000 });

    // Swagger UI renders only what is near the viewport: walk the page top to bottom and collect
    // every operation it renders on the way (its element id ends in the operationId).
    const rendered = new Set<string>();
    const summaries = new Set<string>();
    const paths = new Set<string>();
    for (let y = 0, tries = 0; tries < 400; tries++, y += 600) {
      await page.evaluate((top) => (globalThis as unknown as Scrollable).scrollTo(0, top), y);
      await page.waitForTimeout(50);
      for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => (block as unknown as { id: string }).id))) rendered.add(id);
      for (const text of await page.locator('.opblock-summary-description').allTextContents()) summaries.add(text);
      for (const text of await page.locator('.opblock-summary-path').allTextContents()) paths.add(text.replace(/\u200b/g, ''));
      if (y > (await page.evaluate(() => (globalThis as unknown as Scrollable).document.body.scrollHeight))) break;
    }
    expect([...rendered].map((id) => id.slice(id.lastIndexOf('-') + 1)).sort()).to.deep.equal([...operationIds].sort());
    expect([...summaries]).to.include.members(['List paths', 'Create a path', 'Get a request', 'Delete a request', 'Check health']);
    expect([...paths]).to.include('/v2/catalog/versions/{versionId}/paths/{id}');

    // Opening an operation shows its parameters, read from the document's components.
    for (let y = 0; (await page.locator('#operations-Paths-listPaths').count()) === 0 && y < 400 * 600; y += 600) {
      await page.evaluate((top) => (globalThis as unknown as Scrollable).scrollTo(0, top), y);
      await page.waitForTimeout(50);
    }
    await page.locator('#operations-Paths-listPaths .opblock-summary-control').click();
    await page.waitForSelector('#operations-Paths-listPaths .parameters', { timeout: 30_000 });
    const parameterNames = (await page.locator('#operations-Paths-listPaths .parameter__name').allTextContents()).map((name) => name.replace(/[^A-Za-z]/g, ''));
    expect(parameterNames).to.include.members(['versionId', 'cursor', 'limit', 'sort', 'serviceId']);

    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(fs.statSync(SCREENSHOT).size).to.be.greaterThan(10_000);
    expect(problems, 'console errors (a CSP violation shows here)').to.deep.equal([]);
    expect(foreign, 'requests to other hosts').to.deep.equal([]);
    await page.close();
  });

  it('runs a search from the page: "send an sms" passes the published q pattern in the browser', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${origin}/docs`);
    await page.waitForSelector('.opblock-summary', { timeout: 60_000 });
    const block = '#operations-Search-searchEndpoints';
    for (let y = 0; (await page.locator(block).count()) === 0 && y < 400 * 600; y += 600) {
      await page.evaluate((top) => (globalThis as unknown as Scrollable).scrollTo(0, top), y);
      await page.waitForTimeout(50);
    }
    await page.locator(`${block} .opblock-summary-control`).click();
    await page.locator(`${block} .try-out__btn`).click();
    const versionId = 'ver_01M8817J9J1R3EVFDESASHK80M';
    await page.locator(`${block} tr[data-param-name="versionId"] input`).fill(versionId);
    await page.locator(`${block} tr[data-param-name="q"] input`).fill('send an sms');
    // Swagger UI checks each parameter against its schema before sending; a refused one is never sent.
    const sent = page.waitForRequest((request) => request.url().includes('/search?'), { timeout: 30_000 });
    await page.locator(`${block} .execute`).click();
    const url = new URL((await sent).url());
    expect(url.pathname).to.equal(`/v2/catalog/versions/${versionId}/search`);
    expect(url.searchParams.get('q')).to.equal('send an sms');
    await page.close();
  });
});
