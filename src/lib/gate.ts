/**
 * At most `max` runs at a time; the others wait their turn, first come first served. For work that is
 * fair to queue but must not all run at once (CSV imports: each holds its file, its rows and the CPU).
 */
export class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line (running stays counted), or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
