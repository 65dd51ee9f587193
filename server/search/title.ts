// An operation's readable title: its summary, else its description's first sentence as plain text.
import removeMarkdown from 'remove-markdown';

/** Longer than this, a title is cut at a word and ends with "…" (a hit's line, not a paragraph). */
export const MAX_TITLE_LENGTH = 120;

// Sentences the way ICU splits them (Unicode UAX #29): "e.g. a list" or "v1.2" do not end one.
const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

// Descriptions carry HTML as well as Markdown (Stripe's are `<p>…</p>`); remove-markdown drops
// the tags, not the entities they escape.
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', nbsp: ' ', '#39': '\'' };

/**
 * The operation's summary (trimmed), else the first sentence of its description without its
 * Markdown or HTML, bounded to MAX_TITLE_LENGTH; undefined when it has neither (Twilio, Stripe
 * and Slack describe operations in `description` alone, so their hits need this to be readable).
 */
export function operationTitle(operation: { summary?: unknown; description?: unknown }): string | undefined {
  const summary = typeof operation.summary === 'string' ? oneLine(operation.summary) : '';
  if (summary !== '') return bounded(summary);
  if (typeof operation.description !== 'string') return undefined;
  const text = oneLine(plainText(operation.description));
  if (text === '') return undefined;
  const first = SENTENCES.segment(text)[Symbol.iterator]().next().value?.segment.trim() ?? text;
  return bounded(first.replace(/[.:;]$/, ''));
}

function plainText(markdown: string): string {
  // Paragraph breaks end a sentence even without a full stop (a heading, a line of its own).
  const paragraphs = markdown.replace(/<\/?(p|br|li|h\d)\b[^>]*>/gi, '\n\n').split(/\n\s*\n/);
  // The first paragraph with any text, the others left alone (GitHub's run to dozens).
  let first = '';
  for (const paragraph of paragraphs) {
    first = removeMarkdown(paragraph, { gfm: true, useImgAltText: true }).trim();
    if (first !== '') break;
  }
  return first.replace(/&(#39|[a-z]+);/gi, (entity, name: string) => ENTITIES[name.toLowerCase()] ?? entity);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function bounded(text: string): string {
  if (text.length <= MAX_TITLE_LENGTH) return text;
  const cut = text.slice(0, MAX_TITLE_LENGTH - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > MAX_TITLE_LENGTH / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
