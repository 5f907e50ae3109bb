import type { Logger } from './logger.ts';

/**
 * Runs `tick` on a setTimeout chain: again at once while it reports a full batch, after `idleMs`
 * otherwise, never two at a time. `stop()` waits for the tick in progress. Timers do not keep the
 * process alive.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly tick: () => Promise<number>,
    private readonly batch: number,
    private readonly idleMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().then(
        (handled) => this.schedule(handled >= this.batch ? 0 : this.idleMs),
        (error: unknown) => {
          this.logger.error({ event: `${this.name}.failed`, err: error }, `${this.name} tick failed`);
          this.schedule(this.idleMs);
        },
      );
    }, delayMs);
    this.timer.unref();
  }
}
