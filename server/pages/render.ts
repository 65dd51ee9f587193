// How a page is written: one view model, rendered by Eta either as HTML (escaped for HTML by
// default) or as its Markdown twin (escaped for Markdown by default, with markdown-text.ts's
// helpers for code, links and descriptions), chosen by `Accept`; the
// strict Content-Security-Policy every page carries; descriptions rendered by markdown-it with raw
// HTML off, images off (nothing loads from another origin) and only web links kept.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { Eta } from 'eta';
import helmet from 'helmet';
import MarkdownIt from 'markdown-it';
import * as markdownText from './markdown-text.ts';

const TEMPLATES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'templates');

/**
 * Scripts, styles, images and fetches from the service only; no inline script or style (so a
 * description's text can never become code), forms post only here, no framing, no <base>.
 */
export const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
  "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
].join('; ');

/** Swagger UI's page (the reference of one service) sets inline styles: it gets /docs' policy, helmet's default. */
export const REFERENCE_POLICY = Object.entries({ ...helmet.contentSecurityPolicy.getDefaultDirectives(), 'upgrade-insecure-requests': null })
  .filter(([, values]) => values !== null)
  .map(([name, values]) => [name, ...[values].flat()].join(' '))
  .join('; ');

export const HTML = 'text/html';
export const MARKDOWN = 'text/markdown';

const html = new Eta({ views: TEMPLATES, autoEscape: true, cache: true, defaultExtension: '.eta' });
const markdown = new Eta({ views: TEMPLATES, autoEscape: true, escapeFunction: markdownText.text, cache: true, defaultExtension: '.eta' });

/** A page: its template (`name.eta` and the twin `name.md.eta`), its title and what it shows. */
export interface Page {
  template: string;
  title: string;
  data: Record<string, unknown>;
  /** A policy of its own instead of PAGE_POLICY (Swagger UI's page only). */
  policy?: string;
}

/** What every page's frame needs: the sign-out form's token when signed in through a session. */
export interface Frame {
  formToken: string | undefined;
}

/** Whether the caller wants the Markdown twin (an agent) or HTML (a browser, the default). */
export function wantsMarkdown(req: Request): boolean {
  return req.accepts([HTML, MARKDOWN]) === MARKDOWN;
}

export function sendPage(req: Request, res: Response, page: Page, frame: Frame, status = 200): void {
  const data = { ...page.data, title: page.title, formToken: frame.formToken, describe, md: markdownText };
  // helmet's `no-referrer` makes a browser post forms with `Origin: null`; the sign-in and
  // sign-out checks need the real origin, which `same-origin` sends to this service only.
  res.status(status).set({ 'Cache-Control': 'no-store', Vary: 'Accept, Cookie, Authorization', 'Referrer-Policy': 'same-origin' });
  if (wantsMarkdown(req)) {
    res.type('text/markdown; charset=utf-8').send(markdown.render(`./${page.template}.md.eta`, data));
    return;
  }
  res.set('Content-Security-Policy', page.policy ?? PAGE_POLICY).type('text/html; charset=utf-8').send(html.render(`./${page.template}`, data));
}

const describer = new MarkdownIt({ html: false, linkify: false, typographer: false });
describer.disable('image');
// Only web and mail links become links; `javascript:`, `data:`, `vbscript:` and the like stay text.
describer.validateLink = (url) => /^(https?:|mailto:)/i.test(url.trim());
describer.renderer.rules['link_open'] = (tokens, index, options, _env, self) => {
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, index, options);
};

/** A description (CommonMark) as safe HTML: markdown-it escapes text and refuses raw HTML. */
export function describe(text: unknown): string {
  return typeof text === 'string' && text.trim() !== '' ? describer.render(text) : '';
}
