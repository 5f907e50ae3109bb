// An import's speed, defined once so that its progress line and its summary cannot disagree: rows
// finished (sent and answered, skipped as committed by an earlier run, or refused) over the seconds since
// the command started. The clock stops when the run ends, so the last progress line and the summary,
// drawn a moment apart, read the same seconds and the same rate.

/** Whole rows per second (how both are shown): 0 before any time has passed. */
export const rowsPerSecond = (rows: number, seconds: number): number => (seconds > 0 ? Math.round(rows / seconds) : 0);

export class Throughput {
  private endedAt: number | undefined;

  /** `startedAt` and `now` are performance.now() milliseconds. */
  constructor(
    private readonly startedAt: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Stops the clock (once: later calls keep the first end). */
  end(): void {
    this.endedAt ??= this.now();
  }

  /** Seconds from the start to now, or to the end once ended. */
  seconds(): number {
    return Math.max(0, ((this.endedAt ?? this.now()) - this.startedAt) / 1000);
  }

  /** `finishedRows` per second over seconds(). */
  rate(finishedRows: number): number {
    return rowsPerSecond(finishedRows, this.seconds());
  }
}
