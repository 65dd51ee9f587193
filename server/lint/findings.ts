// A lint finding as the catalog keeps it, and the counts per severity of a report.
import type { Severity } from './settings.ts';

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  /** JSON pointer into the exported description. */
  path: string;
  operation?: { method: string; path: string };
}

export type Counts = Record<Severity, number>;

export function countsOf(findings: readonly Finding[]): Counts {
  const counts: Counts = { error: 0, warn: 0, info: 0, hint: 0 };
  for (const { severity } of findings) counts[severity] += 1;
  return counts;
}
