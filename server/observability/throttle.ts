// Log lines that would repeat on every request while a cause lasts (the database being away)
// are written at most once per interval per cause, with how many were held back.
export class LogThrottle {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  private readonly intervalMs: number;

  constructor(intervalMs: number) {
    this.intervalMs = intervalMs;
  }

  /** Calls `write(suppressed)` if `cause` was not written within the interval; else counts it. */
  run(cause: string, write: (suppressed: number) => void, now = Date.now()): void {
    const seen = this.last.get(cause);
    if (seen && now - seen.at < this.intervalMs) {
      seen.suppressed += 1;
      return;
    }
    this.last.set(cause, { at: now, suppressed: 0 });
    write(seen?.suppressed ?? 0);
  }
}
