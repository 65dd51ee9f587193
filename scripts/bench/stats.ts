// From bursts to what the report shows: per-variant medians over rounds, and ratios taken per
// round (the variants of one round ran back to back, so they saw the same machine) and then the
// median of those.
import type { Burst } from './load.ts';
import type { VariantName } from './scenarios.ts';

export interface Round {
  round: number;
  /** Position of the variant within its round (the order rotates from round to round). */
  position: number;
  burst: Burst;
  /** CPU time of the servers process per successful request, in microseconds. */
  cpuUsPerRequest: number;
  /** The part of it spent in the kernel (sockets, mostly). */
  systemShare: number;
}

export interface VariantResult {
  variant: VariantName;
  rounds: Round[];
  /** Medians over the rounds. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  /** Totals over the rounds. */
  ok: number;
  unexpected: number;
  errors: number;
}

export interface Ratio {
  subject: VariantName;
  baseline: VariantName;
  /** subject ÷ baseline, median over rounds. Below 1 for req/s means the subject is slower. */
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
}

export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function summarise(variant: VariantName, rounds: Round[]): VariantResult {
  return {
    variant,
    rounds,
    rps: median(rounds.map((r) => r.burst.rps)),
    p50Ms: median(rounds.map((r) => r.burst.p50Ms)),
    p99Ms: median(rounds.map((r) => r.burst.p99Ms)),
    cpuUsPerRequest: median(rounds.map((r) => r.cpuUsPerRequest)),
    ok: rounds.reduce((sum, r) => sum + r.burst.ok, 0),
    unexpected: rounds.reduce((sum, r) => sum + r.burst.unexpected, 0),
    errors: rounds.reduce((sum, r) => sum + r.burst.errors, 0),
  };
}

/** Paired by round: round r of the subject against round r of the baseline. */
export function ratio(subject: VariantResult, baseline: VariantResult): Ratio {
  const paired = (pick: (round: Round) => number) => median(subject.rounds.map((round, i) => {
    const other = baseline.rounds[i];
    return other ? pick(round) / pick(other) : NaN;
  }));
  return {
    subject: subject.variant,
    baseline: baseline.variant,
    rps: paired((r) => r.burst.rps),
    p50: paired((r) => r.burst.p50Ms),
    p99: paired((r) => r.burst.p99Ms),
    cpuPerRequest: paired((r) => r.cpuUsPerRequest),
  };
}
