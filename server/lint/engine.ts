// One lint: a description's JSON text through Spectral with a project's settings, and the
// findings as the catalog keeps them (a JSON pointer and, inside an operation, the operation).
// Run on the lint thread (lint-worker.ts) and by the fidelity script, never on a request's.
import { pointer } from '../json/pointer.ts';
import { isObject } from '../json/values.ts';
import type { Finding } from './findings.ts';
import type { Exemption, LintSettings, Severity } from './settings.ts';
import { sharedCompiles } from './compiled-schemas.ts';
import { spectralDefinition } from './definition.ts';
import { SEVERITIES } from './settings.ts';
import { LocatedJson } from './located-json.ts';
import { Core, internalOnlyResolver } from './spectral.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Result = { code: string | number; severity: number; message: string; path: (string | number)[] };

/** The code a finding has when a rule could not run on the description and was left out. */
export const RULE_SKIPPED = 'catalog-rule-skipped';

/** The findings of `text` (a JSON document) under `settings`, exemptions left out, in Spectral's order. */
export function lintText(text: string, settings: LintSettings): Promise<Finding[]> {
  return sharedCompiles(() => lintOnce(text, settings));
}

async function lintOnce(text: string, settings: LintSettings): Promise<Finding[]> {
  const { definition, problems } = spectralDefinition(settings);
  if (!definition) throw new Error(`lint settings refused: ${problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`);
  const document = new Core['Document'](text, LocatedJson, 'description.json');
  // A rule whose JSONPath filter calls a string method (`@.match(…)`, OWASP's no-numeric-ids)
  // throws on a value that is no string, and Spectral's whole run with it (GitHub's description
  // has such values; the CLI fails the same way). Those rules run alone first, on the parsed
  // document: one that throws is left out and named, and the rest run once.
  const { fragile, others } = rulesInForce(definition);
  const rules = definition['rules'] as Record<string, unknown>;
  const without = (codes: readonly string[]) => ({ ...definition, rules: { ...rules, ...Object.fromEntries(codes.map((code) => [code, 'off'])) } });
  let alone: Result[] = [];
  let skipped: Finding[] = [];
  if (fragile.length > 0) {
    try {
      // Only the rules' own findings: the document's (a parser's, an unresolved `$ref`) come with the second run.
      alone = (await run(without(others), document)).filter((result) => fragile.includes(String(result.code)));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('jsonPath:')) throw error;
      skipped = fragile.map((code) => ({ code: RULE_SKIPPED, severity: 'hint', message: `${code} could not run on this description (${error.message.split('\n')[0]}) and was left out`, path: '' }));
    }
  }
  const results = [...await run(without(fragile), document), ...alone];
  return [...skipped, ...results.map(findingOf).filter((finding) => !exempt(finding, settings.exemptions))];
}

/**
 * OWASP's rules on every string and array schema (`given` #StringProperties, #ArrayProperties: a
 * recursive filter on the schema alone, no `field`) run on the description as written, not on the
 * one with every `$ref` inlined: there a schema that many operations reach is visited once per
 * place, and Spectral maps each finding back to where the schema is written, so the findings are
 * the same, once each. GitHub's description: 58,971 findings one for one and in the same order,
 * 60–65 s instead of 127–134 s. The fidelity run's 50 descriptions: none of ours missing from the
 * CLI's, which has five more, each a copy it places at the parent of a key with a space, `#`, `+`
 * or `/` (docs/benchmark.md, "Fidelity with the Spectral CLI"). OWASP's integer and
 * additionalProperties rules stay on the inlined one: there Spectral reports findings the written
 * one does not have (such copies for the keys `+1`, `-1`; a finding through a `$ref` at its
 * target), 80 on GitHub, and the CLI reports them too.
 */
const ON_WRITTEN_DOCUMENT: Readonly<Record<string, string>> = {
  'owasp:api4:2023-string-limit': '#StringProperties',
  'owasp:api4:2023-string-restricted': '#StringProperties',
  'owasp:api4:2023-array-limit': '#ArrayProperties',
};

async function run(definition: Record<string, unknown>, document: unknown): Promise<Result[]> {
  const spectral = new Core['Spectral']({ resolver: internalOnlyResolver() });
  spectral.setRuleset(definition);
  const rules = (spectral as { ruleset: { rules: Record<string, { resolved: boolean; definition: { given: unknown } }> } }).ruleset.rules;
  // Only the rules as OWASP's ruleset defines them: a project's own rule of the same name may read context.
  for (const [code, given] of Object.entries(ON_WRITTEN_DOCUMENT)) {
    const rule = rules[code];
    if (rule && rule.definition.given === given) rule.resolved = false;
  }
  const results: Result[] = await spectral.run(document);
  // A `$ref` with a `type` beside it matches on the written document; inlined, the `$ref` replaced it (OpenAPI 3.0 ignores its siblings).
  const data = (document as { data: unknown }).data;
  return results.filter((result) => !(String(result.code) in ON_WRITTEN_DOCUMENT && hasRef(valueAt(data, result.path))));
}

function valueAt(data: unknown, at: readonly (string | number)[]): unknown {
  return at.reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), data);
}

function hasRef(value: unknown): boolean {
  return isObject(value) && '$ref' in value;
}

/** The codes of the rules in force: those whose `given` filters with a string method call, and the others. */
function rulesInForce(definition: Record<string, unknown>): { fragile: string[]; others: string[] } {
  const ruleset = new Core['Ruleset'](definition) as { rules: Record<string, { enabled: boolean; definition: { given: string | string[] } }> };
  const enabled = Object.entries(ruleset.rules).filter(([, rule]) => rule.enabled);
  const isFragile = ([, rule]: (typeof enabled)[number]) => [rule.definition.given].flat().some((given) => /@\.match\(/.test(String(given)));
  return { fragile: enabled.filter(isFragile).map(([code]) => code), others: enabled.filter((entry) => !isFragile(entry)).map(([code]) => code) };
}

function findingOf({ code, severity, message, path }: { code: string | number; severity: number; message: string; path: (string | number)[] }): Finding {
  const finding: Finding = { code: String(code), severity: SEVERITIES[severity] ?? 'hint', message, path: pointer(...path) };
  const [top, route, method] = path;
  if (top === 'paths' && typeof route === 'string' && typeof method === 'string' && METHODS.has(method)) finding.operation = { method: method.toUpperCase(), path: route };
  return finding;
}

function exempt(finding: Finding, exemptions: readonly Exemption[]): boolean {
  return exemptions.some(({ rule, path, operation }) => (rule === undefined || rule === finding.code)
    && (path === undefined || finding.path === path || finding.path.startsWith(`${path}/`))
    && (operation === undefined || (finding.operation?.path === operation.path && finding.operation.method === operation.method.toUpperCase())));
}
