// Imported text written into the Markdown twins so that it stays text: plain text with Markdown's
// special characters escaped, code spans and fences longer than any backtick run inside them,
// link destinations, and descriptions kept as Markdown with raw HTML, non-web links and images
// made inert. A twin is read by agents and by any Markdown renderer, many of which pass raw HTML
// through, so nothing here may leave a `<` that could open a tag.
import MarkdownIt, { type Token } from 'markdown-it';

/** Text as text: every ASCII punctuation Markdown gives a meaning escaped, lines folded, no line-start marker. */
export function text(value: unknown): string {
  return String(value ?? '')
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_{}[\]<>()#|!~&]/g, (character) => `\\${character}`)
    // A list item, setext underline or ordered item when the text opens a line.
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/**
 * A code span of any text (CommonMark 6.1): delimited by one backtick more than the longest run
 * inside, padded with a space each side when a backtick at either end would join the delimiter
 * or a space at both ends would be stripped. Line breaks become spaces, since a line inside a
 * span could otherwise open a block (a heading, a list).
 */
export function code(value: unknown): string {
  const content = String(value ?? '').replace(/\s*[\r\n]+\s*/g, ' ');
  const delimiter = '`'.repeat(longestRun(content) + 1);
  const padding = /^`|`$|^ .* $|^ *$/s.test(content) ? ' ' : '';
  return `${delimiter}${padding}${content}${padding}${delimiter}`;
}

/** A fenced code block of any text (CommonMark 4.5): the fence longer than any backtick run inside. */
export function fence(value: unknown): string {
  const content = String(value ?? '').replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const delimiter = '`'.repeat(Math.max(3, longestRun(content) + 1));
  return `${delimiter}\n${content}\n${delimiter}`;
}

/** A link: its label as text, its destination with what would end or break one encoded. */
export function link(label: unknown, url: unknown): string {
  return `[${text(label)}](${destination(url)})`;
}

/**
 * A link destination (CommonMark 6.3): no spaces or angle brackets, parentheses, backslashes and
 * `&` escaped (an entity would be decoded into the URL), and a scheme other than the web's or
 * mail's made a relative path, so no `javascript:` link can form.
 */
export function destination(url: unknown): string {
  const written = String(url ?? '')
    .replace(/[\s<>"\u0000-\u001f]/g, (character) => encodeURIComponent(character))
    .replace(/[\\()&]/g, (character) => `\\${character}`);
  return /^[a-z][a-z0-9+.-]*:/i.test(written) && !WEB_LINK.test(written) ? `./${written}` : written;
}

const WEB_LINK = /^(https?:|mailto:)/i;

// Finds what a permissive renderer would make of a description: raw HTML on, every link kept.
const reader = new MarkdownIt({ html: true, linkify: false });
reader.validateLink = () => true;

/**
 * A description kept as Markdown, made inert: outside fenced code every `<` becomes `&lt;`, in
 * code spans too since renderers disagree on them (no tag or comment can open; a web or mail
 * autolink stays); when it holds an image or a link that is not a web or mail link, brackets
 * become entities as well (no link can form); a fence left open is closed, so it cannot swallow
 * the rest of the twin. The result is read again: anything still live falls back to plain text.
 */
export function description(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  const source = value.replace(/\r\n?/g, '\n');
  const tokens = reader.parse(source, {});
  const brackets = inlineTokens(tokens).some(unsafe);
  const lines = source.split('\n');
  const verbatim = fencedLines(tokens, lines);
  const inert = lines.map((line, index) => verbatim.has(index) ? line : inertLine(line, brackets)).join('\n');
  const closed = closeOpenFence(inert);
  return isInert(closed) ? closed : text(source);
}

function inertLine(line: string, brackets: boolean): string {
  const escaped = line.replace(/<(?!(?:https?:\/\/|mailto:)[^\s<>"'`]*>)/gi, '&lt;');
  return brackets ? escaped.replaceAll('[', '&#91;').replaceAll(']', '&#93;') : escaped;
}

/** The content lines of every closed fence, which CommonMark keeps verbatim; an open fence's are escaped. */
function fencedLines(tokens: Token[], lines: string[]): Set<number> {
  const verbatim = new Set<number>();
  for (const token of tokens) {
    if (token.type !== 'fence' || !token.map || !isClosed(token, lines)) continue;
    for (let line = token.map[0] + 1; line < token.map[1] - 1; line++) verbatim.add(line);
  }
  return verbatim;
}

/** A fence at the top level still open at the end would hold whatever the twin writes after it. */
function closeOpenFence(markdown: string): string {
  const lines = markdown.split('\n');
  const last = reader.parse(markdown, {}).findLast((token) => token.type === 'fence' && token.level === 0);
  return last?.map && last.map[1] >= lines.length && !isClosed(last, lines) ? `${markdown}\n${last.markup}` : markdown;
}

/** Whether a fence's last line is its closing fence (a fence in a list or quote may end with its container). */
function isClosed(fence: Token, lines: string[]): boolean {
  const [start, end] = fence.map!;
  const last = (lines[end - 1] ?? '').trim();
  return end - start > 1 && /^(`+|~+)$/.test(last) && last.startsWith(fence.markup);
}

function isInert(markdown: string): boolean {
  const tokens = reader.parse(markdown, {});
  return !tokens.some((token) => token.type === 'html_block') && !inlineTokens(tokens).some((token) => token.type === 'html_inline' || unsafe(token));
}

function unsafe(token: Token): boolean {
  return token.type === 'image' || (token.type === 'link_open' && !WEB_LINK.test(String(token.attrGet('href') ?? '').trim()));
}

function inlineTokens(tokens: Token[]): Token[] {
  return tokens.flatMap((token) => token.children ?? []);
}

function longestRun(content: string): number {
  return Math.max(0, ...Array.from(content.matchAll(/`+/g), (match) => match[0].length));
}
