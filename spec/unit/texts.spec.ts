// The long texts kept in Markdown beside the rooms (server/routes/texts.ts): read as CommonMark
// reads a paragraph, and a key no section has is an error at once, not an empty description.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { textsOf } from '../../server/routes/texts.ts';

function textsFile(markdown: string): URL {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'texts-')), 'texts.md');
  fs.writeFileSync(file, markdown);
  return pathToFileURL(file);
}

describe('route and tool texts in Markdown', () => {
  const texts = textsOf(textsFile('# Title\n\nPreamble.\n\n## first\n\nOne line\nwrapped here,\n  and here.\n\nA second paragraph of {limit} KB, `/pets/{petId}` kept.\n\n## second\n\nShort.\n'));

  it('joins a section\'s soft line breaks with a space and its paragraphs with a blank line', () => {
    expect(texts('first')).to.equal('One line wrapped here, and here.\n\nA second paragraph of {limit} KB, `/pets/{petId}` kept.');
    expect(texts('second')).to.equal('Short.');
  });

  it('fills in the values given, and leaves other braces as written', () => {
    expect(texts('first', { limit: 64 })).to.contain('of 64 KB, `/pets/{petId}` kept.');
  });

  it('refuses a key no section has, naming the file', () => {
    expect(() => texts('third')).to.throw(/texts\.md: no section "## third"/);
  });
});
