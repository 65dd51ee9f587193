// How a page is written: one view model, rendered by Eta either as HTML (escaped for HTML by
// default) or as its Markdown twin (escaped for Markdown by default, with markdown-text.ts's
// helpers for code, links and descriptions), chosen by `Accept`; the
// strict Content-Security-Policy every page carries; descriptions rendered by markdown-it with
// their inline HTML, then cut to an allow-list by sanitize-html: no image (nothing loads from
// another origin), no attribute that could run anything, only web and mail links.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { Eta } from 'eta';
import helmet from 'helmet';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
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
// Markdown's lines mean something (a list item ends at its line's end), so a line of a twin keeps
// its newline after a value (`<%= %>`), which Eta's default trim would take: only the control
// tags (`<% -%>`) take theirs.
const markdown = new Eta({ views: TEMPLATES, autoEscape: true, escapeFunction: markdownText.text, cache: true, defaultExtension: '.eta', autoTrim: false });

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

// Bare web addresses become links, as the renderers descriptions are written for (GitHub's,
// Redoc's) make them; only ones with their scheme, so a name like `example.org` stays text.
const describer = new MarkdownIt({ html: true, linkify: true, typographer: false });
describer.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
describer.disable('image');
// Only web and mail links become links; `javascript:`, `data:`, `vbscript:` and the like stay text.
describer.validateLink = (url) => WEB_LINK.test(url.trim());
describer.renderer.rules['link_open'] = (tokens, index, options, _env, self) => {
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, index, options);
};

const WEB_LINK = /^(https?:|mailto:)/i;

/**
 * What a description's HTML may keep: the text-level and block markup real descriptions use
 * (Spotify's `<a href>` and `<br/>`, Stripe's `<p>`, tables), no attribute but a link's target
 * and a table cell's span, no image, style, form, frame or script (those go with their content).
 */
const KEPT: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'hr', 'a', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'code', 'pre', 'kbd', 'sub', 'sup', 'small', 'span', 'div', 'blockquote',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary'],
  allowedAttributes: { a: ['href', 'title', 'rel'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A link that is not to the web or mail (a relative one would point into this service) keeps its text only.
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: WEB_LINK.test((attribs['href'] ?? '').trim()) ? { href: attribs['href']!, ...(attribs['title'] && { title: attribs['title'] }), rel: 'noopener noreferrer nofollow' } : {},
    }),
  },
};

/**
 * A description (CommonMark with inline HTML) as safe HTML: markdown-it renders it, sanitize-html
 * keeps only the allow-list. Without a `<` there is no HTML of its own to sanitize (markdown-it
 * escapes text and writes only links it validated): sanitizing costs ten times the rendering, and
 * most descriptions have none (GitHub's: 17 µs each rendered, 218 µs sanitized).
 */
export function describe(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const html = describer.render(text);
  // A code block scrolls sideways in its own box: focusable, so a keyboard can scroll it too.
  return (text.includes('<') ? sanitizeHtml(html, KEPT) : html).replaceAll('<pre>', '<pre tabindex="0">');
}
