// concord tasks watch: the buyer's task counts by status (GET /tasks/counts), live, until no task is
// PENDING or VALIDATING. With the service's event stream (GET /events/stream) the counts are read again
// when a task completes or fails (the only ways an open task closes, besides deletion), plus a slow
// safety poll; without it (an older service), every --interval seconds.
import { ConcordStreamResumeError, type TaskCountFilters, type TaskCounts } from '@concord/sdk';
import { buyerClient } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { interruptedError, interruption, streamUnavailable, usageError } from './errors.ts';
import { formatCount, type Output } from './output.ts';
import { LOCALES, TASK_TYPES } from '@concord/contract';

export interface WatchOptions extends GlobalOptions {
  project?: string;
  type?: string;
  locale?: string;
  once?: boolean;
  interval: number;
  stream?: boolean;
}

/** With the stream, counts are still read this often: deletions and VALIDATING send no event. */
const SAFETY_POLL_MS = 15_000;

const open = (counts: TaskCounts) => counts.counts.PENDING + counts.counts.VALIDATING;

export function describeCounts(counts: TaskCounts): string {
  const { PENDING, VALIDATING, COMPLETED, FAILED } = counts.counts;
  const share = counts.total > 0 ? Math.floor(((COMPLETED + FAILED) / counts.total) * 100) : 100;
  return `PENDING ${formatCount(PENDING)} · VALIDATING ${formatCount(VALIDATING)} · COMPLETED ${formatCount(COMPLETED)} · FAILED ${formatCount(FAILED)} (${share}% done of ${formatCount(counts.total)})`;
}

export async function watchTasks(options: WatchOptions, output: Output, userAgent: string): Promise<void> {
  if (options.type !== undefined && !(TASK_TYPES as readonly string[]).includes(options.type))
    throw usageError(`--type must be one of ${TASK_TYPES.join(', ')}`);
  if (options.locale !== undefined && !(LOCALES as readonly string[]).includes(options.locale))
    throw usageError(`--locale must be one of ${LOCALES.join(', ')}`);
  if (!Number.isFinite(options.interval) || options.interval < 0.2) throw usageError('--interval is at least 0.2 seconds');
  const filters: TaskCountFilters = {
    projectId: options.project,
    type: options.type as TaskCountFilters['type'],
    locale: options.locale as TaskCountFilters['locale'],
  };
  const connection = await resolveConnection(options);
  const client = buyerClient(connection, userAgent);

  // How the counts are kept fresh: the event stream, or polling (--no-stream, or a service without the stream).
  let mode: 'stream' | 'poll' = options.stream === false ? 'poll' : 'stream';
  let last: string | undefined;
  let bar: ReturnType<Output['progress']> | undefined;
  const show = (counts: TaskCounts, final: boolean) => {
    const key = JSON.stringify(counts);
    const done = open(counts) === 0;
    if (output.json) {
      if (key !== last || final) output.result({ ...counts, open: open(counts), done, mode, at: new Date().toISOString() }, '');
    } else if (output.interactive && !options.once) {
      const closed = counts.counts.COMPLETED + counts.counts.FAILED;
      const payload = {
        pending: formatCount(counts.counts.PENDING),
        validating: formatCount(counts.counts.VALIDATING),
        completed: formatCount(counts.counts.COMPLETED),
        failed: formatCount(counts.counts.FAILED),
      };
      if (!bar) {
        bar = output.progress({
          format: 'tasks {bar} {percentage}% | PENDING {pending} · VALIDATING {validating} · COMPLETED {completed} · FAILED {failed}',
          plain: () => '',
        });
        bar.start(counts.total, payload);
      }
      bar.update(closed, payload, counts.total);
      if (final) {
        bar.stop();
        output.say(describeCounts(counts));
      }
    } else if (key !== last || final) output.say(describeCounts(counts));
    last = key;
  };

  let counts = await client.tasks.counts(filters);
  if (options.once || open(counts) === 0) {
    show(counts, true);
    return;
  }
  show(counts, false);

  const controller = interruption();
  // A wake-up (an event) that arrives while the counts are being read is kept for the next pause.
  let wakePending = false;
  let wakeWaiter: (() => void) | undefined;
  const wake = () => {
    wakePending = true;
    wakeWaiter?.();
  };
  /** Resolves after `ms`, at a wake-up (when `wakes`), or when the watch stops, whichever comes first. */
  const pause = (ms: number, wakes: boolean) =>
    new Promise<void>((resolve) => {
      if (wakes && wakePending) return resolve();
      const finish = () => {
        clearTimeout(timer);
        controller.signal.removeEventListener('abort', finish);
        if (wakeWaiter === finish) wakeWaiter = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      controller.signal.addEventListener('abort', finish, { once: true });
      if (wakes) wakeWaiter = finish;
    });

  const follow = async () => {
    for (;;) {
      // Each (re)connection reads the counts again: what settled before it was open sent no event to it.
      const stream = client.events.stream({ signal: controller.signal, onConnect: wake });
      try {
        for await (const event of stream) {
          if (event.type === 'task.completed' || event.type === 'task.failed') wake();
        }
        return;
      } catch (error) {
        // The stream cannot resume after its last event: follow it from now on (the counts are read again on connecting).
        if (error instanceof ConcordStreamResumeError) continue;
        if (!streamUnavailable(error)) throw error;
        mode = 'poll';
        output.note('(The service has no event stream: polling instead.)');
        wake();
        return;
      }
    }
  };
  const following = mode === 'stream' ? follow() : Promise.resolve();
  let streamFailure: unknown;
  following.catch((error: unknown) => {
    streamFailure = error;
    controller.abort(error);
  });

  try {
    while (!controller.signal.aborted) {
      await pause(mode === 'stream' ? SAFETY_POLL_MS : options.interval * 1000, true);
      if (controller.signal.aborted) break;
      // A short pause gathers the events of one settlement burst into one read.
      if (mode === 'stream') await pause(200, false);
      wakePending = false;
      counts = await client.tasks.counts(filters, { signal: controller.signal });
      if (open(counts) === 0) {
        show(counts, true);
        return;
      }
      show(counts, false);
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    controller.abort();
    controller.dispose();
    bar?.stop();
  }
  if (streamFailure) throw streamFailure;
  if (controller.received) throw interruptedError(controller.received, `Stopped watching; ${describeCounts(counts)}`, { counts });
}
