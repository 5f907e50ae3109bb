/**
 * Runs calls that arrive together as one batch: a call that finds a free runner starts at once (alone,
 * through `single`); calls that arrive while the runners are busy wait and go together as the next batch
 * (at most `maxBatch` at a time). Under load one round trip then serves many callers; when idle nothing
 * waits. If a batch fails, each of its calls is run alone, so one bad call fails only itself.
 */
export class Coalescer<I, O> {
  private readonly waiting: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  private running = 0;

  constructor(
    private readonly batch: (inputs: I[]) => Promise<O[]>,
    private readonly single: (input: I) => Promise<O>,
    private readonly options: { maxBatch: number; runners: number; onBatchFailure?: (error: unknown, size: number) => void },
  ) {}

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (this.running < this.options.runners) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running += 1;
    try {
      while (this.waiting.length > 0) {
        const calls = this.waiting.splice(0, this.options.maxBatch);
        const [first] = calls;
        if (calls.length === 1 && first) {
          await this.single(first.input).then(first.resolve, first.reject);
          continue;
        }
        try {
          const outputs = await this.batch(calls.map((c) => c.input));
          calls.forEach((c, i) => c.resolve(outputs[i] as O));
        } catch (error) {
          this.options.onBatchFailure?.(error, calls.length);
          await Promise.all(calls.map((c) => this.single(c.input).then(c.resolve, c.reject)));
        }
      }
    } finally {
      this.running -= 1;
    }
  }
}
