// A project's lint settings (settings.ts) as Spectral's ruleset definition. Its own documents
// are data, never code: no JS functions, no `extends` but the built-in rulesets (a URL or a
// file in `extends` would make the catalog fetch it), and each rule's `then.function` one of
// Spectral's built-in functions, named.
import type { FieldProblem } from '../errors.ts';
import { isObject } from '../json/values.ts';
import type { LintSettings } from './settings.ts';
import { BUILT_IN_RULESETS, Core, Formats, Functions } from './spectral.ts';

/** The keys a ruleset document may have; `functions`, `functionsDir` and `overrides` (files) are not for a catalog. */
const DOCUMENT_KEYS = new Set(['rules', 'extends', 'formats', 'aliases', 'description', 'documentationUrl', 'parserOptions']);

/** The Spectral ruleset definition of `settings`, and the problems that stop it being one (pointers into the settings). */
export function spectralDefinition(settings: LintSettings): { definition?: Record<string, unknown>; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const builtIns = settings.rulesets.flatMap((name, index) => {
    if (name in BUILT_IN_RULESETS) return [[BUILT_IN_RULESETS[name], 'recommended'] as const];
    problems.push({ field: `/rulesets/${index}`, message: `is not a built-in ruleset (${Object.keys(BUILT_IN_RULESETS).join(', ')})` });
    return [];
  });
  const documents = settings.documents.map(({ ruleset }, index) => translated(ruleset, `/documents/${index}/ruleset`, problems));
  if (problems.length > 0) return { problems };
  const definition = { extends: [...builtIns, ...documents], rules: { ...settings.severities } };
  try {
    new Core['Ruleset'](definition);
  } catch (error) {
    // RulesetValidationError (an aggregate), or a rule's override of a rule no ruleset has.
    const errors: { message: string; path?: string[] }[] = (error as { errors?: [] }).errors ?? [error as Error];
    for (const each of errors) problems.push({ field: '/', message: each.message });
    return { problems };
  }
  return { definition, problems };
}

/** A ruleset document with names put for what Spectral's core takes as objects (functions, formats, built-in rulesets). */
function translated(document: Record<string, unknown>, at: string, problems: FieldProblem[]): Record<string, unknown> {
  if (!isObject(document)) {
    problems.push({ field: at, message: 'must be a Spectral ruleset object' });
    return {};
  }
  for (const key of Object.keys(document)) if (!DOCUMENT_KEYS.has(key)) problems.push({ field: `${at}/${key}`, message: `is not allowed (a ruleset here may have ${[...DOCUMENT_KEYS].join(', ')})` });
  const out: Record<string, unknown> = { ...document };
  if ('extends' in document) out['extends'] = extended(document['extends'], `${at}/extends`, problems);
  if ('formats' in document) out['formats'] = formats(document['formats'], `${at}/formats`, problems);
  if (isObject(document['rules'])) {
    out['rules'] = Object.fromEntries(Object.entries(document['rules']).map(([code, rule]) => [code, ruleWithFunctions(rule, `${at}/rules/${code}`, problems)]));
  }
  return out;
}

function extended(value: unknown, at: string, problems: FieldProblem[]): unknown[] {
  const entries = Array.isArray(value) ? value : [value];
  return entries.map((entry, index) => {
    const [name, mode] = Array.isArray(entry) ? entry : [entry, undefined];
    if (typeof name === 'string' && name in BUILT_IN_RULESETS) return mode === undefined ? BUILT_IN_RULESETS[name] : [BUILT_IN_RULESETS[name], mode];
    problems.push({ field: `${at}/${index}`, message: `may only name a built-in ruleset (${Object.keys(BUILT_IN_RULESETS).join(', ')}): no URLs or files` });
    return {};
  });
}

function formats(value: unknown, at: string, problems: FieldProblem[]): unknown[] {
  if (!Array.isArray(value)) {
    problems.push({ field: at, message: 'must be a list of format names (oas2, oas3, oas3_0, oas3_1, …)' });
    return [];
  }
  return value.map((name, index) => {
    if (typeof name === 'string' && typeof Formats[name] === 'function') return Formats[name];
    problems.push({ field: `${at}/${index}`, message: 'is not a format Spectral knows (oas2, oas3, oas3_0, oas3_1, …)' });
    return undefined;
  });
}

function ruleWithFunctions(rule: unknown, at: string, problems: FieldProblem[]): unknown {
  if (!isObject(rule)) return rule;
  const out: Record<string, unknown> = { ...rule };
  if ('formats' in rule) out['formats'] = formats(rule['formats'], `${at}/formats`, problems);
  const then = rule['then'];
  const actions = Array.isArray(then) ? then : [then];
  const withFunctions = actions.map((action, index) => {
    if (!isObject(action)) return action;
    const name = action['function'];
    if (typeof name === 'string' && Object.hasOwn(Functions, name) && typeof Functions[name] === 'function') return { ...action, function: Functions[name] };
    problems.push({ field: `${at}/then${Array.isArray(then) ? `/${index}` : ''}/function`, message: `must name one of Spectral's built-in functions (${Object.keys(Functions).filter((key) => typeof Functions[key] === 'function').join(', ')})` });
    return action;
  });
  if ('then' in rule) out['then'] = Array.isArray(then) ? withFunctions : withFunctions[0];
  return out;
}
