// Unit tests for server/pages/markdown-text.ts: imported text written into a Markdown twin stays
// text in a renderer that allows raw HTML (markdown-it with `html: true`, every link kept), for
// hostile names and descriptions and for any string (fast-check); descriptions keep their Markdown.
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { code, description, destination, fence, link, text } from '../../server/pages/markdown-text.ts';
import { liveMarkup } from '../support/live-markup.ts';

const renderer = new MarkdownIt({ html: true });
const HOSTILE = [
  'q` <script>alert(1)</script> `',
  '``` <img src=x onerror=alert(1)>',
  '\\<script>alert(1)</script>',
  '<!-- comment --> <?php ?> <![CDATA[x]]>',
  '[x](javascript:alert(1)) ![i](https://tracker.example/p.png) <javascript:alert(1)>',
  '&lt;b&gt; &#60;script&#62;',
  '1. list\n# heading\n    <script>code</script>\n<div onclick="x">block</div>',
];
// Any string, leaning on the characters Markdown and HTML give a meaning.
const markdownish = fc.stringMatching(/^[<>`\\[\]()!&#*_\-\n "'=a-z:/.~|0-9]*$/);

describe('Markdown text of the twins', () => {
  it('writes a hostile name as one code span that shows it as it is', () => {
    for (const name of HOSTILE) {
      const html = renderer.renderInline(code(name));
      expect(liveMarkup(code(name)), name).to.deep.equal([]);
      expect(html.match(/<code>/g), name).to.have.length(1);
      expect(unescapeHtml(html.replace(/^<code>|<\/code>$/g, '')), name).to.equal(name.replace(/\s*\n\s*/g, ' '));
    }
    expect(code('a`b')).to.equal('``a`b``');
    expect(code('`a')).to.equal('`` `a ``');
    expect(code('``x')).to.equal('``` ``x ```');
  });

  it('writes hostile text, links and fences that render to what they hold, never to markup', () => {
    for (const value of HOSTILE) {
      expect(liveMarkup(text(value)), value).to.deep.equal([]);
      expect(unescapeHtml(renderer.renderInline(text(value))), value).to.equal(value.replace(/\s+/g, ' '));
      expect(liveMarkup(link(value, `/catalog/${value}`)), value).to.deep.equal([]);
      expect(liveMarkup(`- ${link(value, value)}`), value).to.deep.equal([]);
      expect(renderer.render(fence(value)), value).to.match(/^<pre><code>/).and.to.include(escapeHtml(value));
      expect(liveMarkup(fence(value)), value).to.deep.equal([]);
    }
    expect(renderer.renderInline(link('GET /a', '/catalog/x y(1)'))).to.equal('<a href="/catalog/x%20y(1)">GET /a</a>');
    expect(destination('/a b<c>')).to.equal('/a%20b%3Cc%3E');
  });

  it('keeps no HTML, non-web link or image of a description, and closes a fence it leaves open', () => {
    for (const value of HOSTILE) expect(liveMarkup(description(value)), value).to.deep.equal([]);
    const open = description('Example:\n\n```\n<b>bold</b>');
    expect(liveMarkup(open)).to.deep.equal([]);
    expect(renderer.render(`${open}\n\n## After`)).to.include('<h2>After</h2>');
  });

  it("keeps a description's Markdown: emphasis, lists, web links, autolinks and fenced code as written", () => {
    const source = 'Lists **pets**.\n\n- one\n- [docs](https://example.com/docs)\n\nSee <https://example.com>.\n\n```xml\n<pet id="1"/>\n```';
    expect(description(source)).to.equal(source);
    expect(renderer.render(description(source))).to.include('<pre><code class="language-xml">&lt;pet id=&quot;1&quot;/&gt;');
  });

  it('leaves nothing live for any string (fast-check)', () => {
    fc.assert(fc.property(markdownish, (value) => {
      for (const written of [text(value), code(value), fence(value), description(value), link(value, value), `# ${text(value)}`, `- ${code(value)} in ${text(value)}`]) {
        expect(liveMarkup(written), JSON.stringify(written)).to.deep.equal([]);
      }
    }), { numRuns: 2000 });
  });
});

function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function unescapeHtml(value: string): string {
  return value.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}
