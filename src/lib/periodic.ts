import type { Logger } from './logger.ts';

export interface Periodic {
  /** Stops the loop and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` on a setTimeout chain (never two runs at once). A failing run is
 * logged and the loop goes on. The timer does not keep the process alive.
 */
export function startPeriodic(options: { name: string; intervalMs: number; run: () => Promise<unknown>; logger: Logger }): Periodic {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = options
      .run()
      .then(
        () => undefined,
        (error: unknown) => options.logger.error({ event: `${options.name}.failed`, err: error }, `${options.name} failed`),
      )
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
