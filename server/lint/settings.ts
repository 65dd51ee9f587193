// What a project chooses to lint with: built-in rulesets, its own Spectral ruleset documents,
// a severity per rule and exemptions, as data (definition.ts makes Spectral's ruleset of them).
// Apart from Spectral, so that what only stores or reads settings does not load it.
import { parse as parseYaml } from 'yaml';
import { InvalidRequest } from '../errors.ts';

export type Severity = 'error' | 'warn' | 'info' | 'hint';
export const SEVERITIES: readonly Severity[] = ['error', 'warn', 'info', 'hint'];

export interface Exemption {
  /** The rule exempted; absent: every rule. */
  rule?: string;
  /** A JSON pointer into the description: findings at it or below it are exempt. */
  path?: string;
  /** An operation: findings inside it are exempt. */
  operation?: { method: string; path: string };
  reason?: string;
}

export interface LintSettings {
  /** Built-in rulesets by name (BUILT_IN_RULESETS), their recommended rules. */
  rulesets: string[];
  /** The project's own Spectral ruleset documents, as JSON (YAML is parsed before). */
  documents: { name: string; ruleset: Record<string, unknown> }[];
  /** A severity per rule code, or `off`. */
  severities: Record<string, Severity | 'off'>;
  exemptions: Exemption[];
}

export const DEFAULT_SETTINGS: LintSettings = {
  rulesets: ['spectral:oas', '@stoplight/spectral-owasp-ruleset'],
  documents: [],
  severities: {},
  exemptions: [],
};

export type SettingsBody = Partial<Omit<LintSettings, 'documents'>> & { documents?: { name: string; ruleset: Record<string, unknown> | string }[] };

/** The body as settings: YAML ruleset documents parsed (a parse error is a 400 naming the document). */
export function settingsOf(body: SettingsBody): LintSettings {
  return {
    rulesets: body.rulesets ?? DEFAULT_SETTINGS.rulesets,
    documents: (body.documents ?? []).map(({ name, ruleset }, index) => {
      if (typeof ruleset !== 'string') return { name, ruleset };
      try {
        return { name, ruleset: parseYaml(ruleset) as Record<string, unknown> };
      } catch (error) {
        throw InvalidRequest.field(`/documents/${index}/ruleset`, `is not YAML: ${(error as Error).message.split('\n')[0]}`);
      }
    }),
    severities: body.severities ?? {},
    exemptions: body.exemptions ?? [],
  };
}
