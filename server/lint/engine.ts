// One lint: a description's JSON text through Spectral with a project's settings, and the
// findings as the catalog keeps them (a JSON pointer and, inside an operation, the operation).
// Run on the lint thread (lint-worker.ts) and by the fidelity script, never on a request's.
import { pointer } from '../json/pointer.ts';
import type { Exemption, LintSettings, Severity } from './settings.ts';
import { spectralDefinition, SEVERITIES } from './settings.ts';
import { Core, internalOnlyResolver, Parsers } from './spectral.ts';

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  /** JSON pointer into the exported description. */
  path: string;
  operation?: { method: string; path: string };
}

export type Counts = Record<Severity, number>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The findings of `text` (a JSON document) under `settings`, exemptions left out, in Spectral's order. */
export async function lintText(text: string, settings: LintSettings): Promise<Finding[]> {
  const { definition, problems } = spectralDefinition(settings);
  if (!definition) throw new Error(`lint settings refused: ${problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`);
  const spectral = new Core['Spectral']({ resolver: internalOnlyResolver() });
  spectral.setRuleset(definition);
  const results: { code: string | number; severity: number; message: string; path: (string | number)[] }[] = await spectral.run(new Core['Document'](text, Parsers['Json'], 'description.json'));
  return results.map(findingOf).filter((finding) => !exempt(finding, settings.exemptions));
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

export function countsOf(findings: readonly Finding[]): Counts {
  const counts: Counts = { error: 0, warn: 0, info: 0, hint: 0 };
  for (const { severity } of findings) counts[severity] += 1;
  return counts;
}
