// The pages in a real Chromium (playwright-core, Debian's chromium) against a real HTTP server,
// on a version holding two real public APIs and a hostile description: a person signs in with a
// key, searches in plain words, opens the right operation, reads how to call it, walks home →
// version → service → operation and back, and signs out. Nothing leaves the origin, no console
// error, no hostile script runs, axe-core finds no violation of any impact on our pages, Swagger
// UI's reference page too (with an operation open; catalog-init.js and catalog-swagger.css mend
// its own markup and colours); a screenshot of every page type is kept in
// .cache/screenshots/pages-*.png.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import axe from 'axe-core';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../../../server/config.ts';
import { launchChromium } from '../../support/chromium.ts';
import { PWNED, pagesFixtureForSuite, versionPath, type PagesFixture } from './fixture.ts';

const SCREENSHOTS = path.join(repoRoot, '.cache', 'screenshots');

interface AxeViolation { id: string; impact: string | null; help: string; nodes: unknown[] }

describe('pages in a browser', function () {
  this.timeout(180_000);
  let fixture: PagesFixture;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const foreign: string[] = [];
  const violations: string[] = [];

  pagesFixtureForSuite((made) => { fixture = made; });
  before(async function () {
    this.timeout(15 * 60_000);
    server = fixture.service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) foreign.push(request.url());
    });
    page.on('dialog', (dialog) => {
      problems.push(`a dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  /** The page as it is: screenshot kept, axe-core run (its source evaluated through the debugger, not injected past the CSP), no hostile script run. */
  const check = async (name: string) => {
    await page.screenshot({ path: path.join(SCREENSHOTS, `pages-${name}.png`), fullPage: name !== 'service' });
    await page.evaluate(axe.source);
    const found = await page.evaluate(async () => {
      const run = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run;
      return (await run()).violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.length }));
    });
    for (const violation of found) {
      violations.push(`${name}: ${violation.id} (${violation.impact}) ${violation.help} ×${String(violation.nodes)}`);
    }
    expect(await page.evaluate((name) => (globalThis as Record<string, unknown>)[name], PWNED), `hostile script ran on ${name}`).to.equal(undefined);
  };

  it('signs in, searches in plain words, opens the right operation and shows how to call it', async () => {
    await page.goto(`${origin}/`);
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
    await check('sign-in');
    await page.fill('#credential', fixture.tenant.readOnlyKey);
    await Promise.all([page.waitForURL(`${origin}/catalog`), page.press('#credential', 'Enter')]);
    await check('home');

    await page.click(`a[href="${versionPath(fixture.tenant)}"]`);
    await page.waitForSelector('h1');
    expect(await page.textContent('main')).to.include('Giphy API').and.to.include('doqs.dev');
    await check('version');

    // Results as you type, from our script; then Enter submits the form to the results page.
    await page.fill('#q', 'search for gifs');
    await page.waitForSelector('#results .hits li');
    await Promise.all([page.waitForResponse((response) => response.request().resourceType() === 'document' && response.url().includes('/search?q=')), page.press('#q', 'Enter')]);
    const first = page.locator('#results .hits li a').first();
    expect(await first.textContent()).to.match(/GET\s+\/gifs\/search/);
    await check('search');

    await Promise.all([page.waitForURL(/\/operations\/searchGifs$/), first.click()]);
    expect(await page.textContent('h1')).to.match(/GET\s+\/gifs\/search/);
    expect(await page.textContent('#full-url')).to.equal('GET https://api.giphy.com/v1/gifs/search');
    expect(await page.textContent('.where')).to.equal('query parameter api_key');
    expect(await page.locator('.sample pre').first().textContent()).to.match(/^curl --request GET[\s\S]*api_key=YOUR_API_KEY/);
    await check('operation');
    // The top of the page as a person first sees it (the README's picture is one of these).
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pages-operation-top.png') });
  });

  it('follows links from home to version to service to operation, and back', async () => {
    await page.goto(`${origin}/catalog`);
    await page.click(`a[href="${versionPath(fixture.tenant)}"]`);
    await page.click('a:has-text("doqs.dev | PDF filling API")');
    expect(await page.textContent('h1')).to.include('doqs.dev');
    await check('service');
    await page.click('a:has-text("/templates/{id}/fill")');
    expect(await page.textContent('.where')).to.equal('header x-api-key');
    expect(await page.locator('.sample pre').first().textContent()).to.include("--header 'x-api-key: YOUR_API_KEY'");
    await page.click('nav.crumbs a:has-text("doqs.dev")');
    expect(await page.textContent('h1')).to.include('doqs.dev');
    await page.click('nav.crumbs li:nth-child(2) a');
    expect(new URL(page.url()).pathname).to.equal(versionPath(fixture.tenant));
    await page.click('nav.crumbs a:has-text("Projects")');
    expect(new URL(page.url()).pathname).to.equal('/catalog');
  });

  it('shows hostile text as text: no script, handler or javascript: link runs', async () => {
    const at = `${origin}${versionPath(fixture.tenant)}/services/hostile`;
    await page.goto(at);
    await check('hostile-service');
    await page.goto(`${at}/operations/createWidget`);
    for (const link of await page.locator('main a').all()) {
      expect(String(await link.getAttribute('href'))).not.to.match(/^\s*javascript:/i);
    }
    await page.hover('h1');
    await check('hostile-operation');
    await page.goto(`${at}/changes?against=branch/main`);
    await check('changes');
  });

  it("opens Swagger UI on one service's export, and the export itself, from the service page", async () => {
    await page.goto(`${origin}${versionPath(fixture.tenant)}/services/giphy`);
    await page.click('a:has-text("Full reference with try-it")');
    await page.waitForSelector('.opblock-summary', { timeout: 60_000 });
    expect(await page.locator('.opblock-summary').count()).to.equal(10);
    await check('reference');
    await page.click('.opblock-summary-control');
    await page.waitForSelector('.opblock-body');
    await check('reference-operation');
    // A browser downloads YAML rather than show it: fetched with the browser's cookies instead.
    const exported = await page.context().request.get(`${origin}${versionPath(fixture.tenant)}/services/giphy/openapi.yaml`);
    expect([exported.status(), await exported.text()]).to.satisfy(([status, text]: [number, string]) => status === 200 && /^openapi: 3\./m.test(text));
  });

  it('signs out, after which the pages refuse the browser', async () => {
    await page.goto(`${origin}/catalog`);
    await Promise.all([page.waitForURL(/\/sign-in$/), page.click('button:has-text("Sign out")')]);
    await page.goto(`${origin}${versionPath(fixture.tenant)}/services/giphy/operations/searchGifs`);
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
  });

  it('loaded nothing from another origin, logged no console error, and axe-core found no violation', () => {
    expect(foreign).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    expect(violations).to.deep.equal([]);
  });
});
