// What a Markdown twin becomes in a renderer that lets raw HTML and every link through
// (markdown-it with `html: true` and no link check), and what of that is live: a tag Markdown
// itself never makes, an event handler, or a link with a scheme other than the web's or mail's.
import MarkdownIt from 'markdown-it';

const permissive = new MarkdownIt({ html: true, linkify: false });
permissive.validateLink = () => true;

/** The elements markdown-it writes for Markdown (no raw HTML, no images). */
const MARKDOWN_TAGS = new Set(['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'em', 'strong', 's', 'code', 'pre',
  'a', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);

/** Each live piece of the rendered twin, as written in the HTML: empty when the twin is inert. */
export function liveMarkup(markdown: string): string[] {
  const html = permissive.render(markdown);
  const live: string[] = [];
  for (const [tag, name = '', attributes = ''] of html.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    const href = /\bhref="([^"]*)"/.exec(attributes)?.[1];
    if (!MARKDOWN_TAGS.has(name.toLowerCase()) || /\son[a-z]+\s*=/i.test(attributes)
      || (href !== undefined && isForeignScheme(href.replaceAll('&amp;', '&')))) live.push(tag);
  }
  // Anything that opens a comment, CDATA or processing instruction is live too.
  for (const [opened] of html.matchAll(/<[!?][^>]*>?/g)) live.push(opened);
  return live;
}

function isForeignScheme(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href) && !/^(https?:|mailto:)/i.test(href);
}
