// The re-fit job (CONTRACT §5 "Consensus"): the worker loop re-fits every scope whose
// answers have grown, one process at a time per scope. A re-fit reads a snapshot of the scope, runs
// Dawid–Skene EM in a worker thread, and writes the new counts back in short batches that keep what the
// answer path added meanwhile; no lock that answers wait for is held across the fit.
import { performance } from 'node:perf_hooks';
import type { RefitOptions } from '../../consensus/refit.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { deltaRows } from './counts-delta.ts';
import { countsSideOf } from '../../consensus/kinds/multi-task.ts';
import type { DueScope, QualityRepository, RefitSession } from './quality.repository.ts';
import { fitInWorker } from './refit-thread.ts';
import { ScopeAnswersBuilder } from './scope-answers.builder.ts';

/** How often the worker loop looks for due scopes. */
export const REFIT_INTERVAL_MS = 60_000;
/** A scope is due once its counted answers grew by 5 % and by at least 20 since its last re-fit… */
export const REFIT_GROWTH = 0.05;
export const REFIT_MIN_NEW_ANSWERS = 20;
/** …or, with any growth, once an hour has passed since then (or since its creation). */
export const REFIT_MAX_AGE_MS = 60 * 60 * 1000;
/** Counts rows per write statement: each batch is one short transaction that answers may wait for. */
export const REFIT_WRITE_BATCH = 500;

export type RefitOutcome =
  | {
      kind: 'refitted';
      scope: string;
      /** Every answer read (open tasks' too), and those that went into the stored counts. */
      answers: number;
      countedAnswers: number;
      items: number;
      annotators: number;
      iterations: number;
      /** Where the kept fit started: majority vote, or the scope's decisions after a label swap (refitScope). */
      start: 'majority' | 'decisions';
      /** Share of the decided tasks whose fitted label is their result (null: none decided). */
      decidedAgreement: number | null;
      /** Annotators whose golden answers disagreed with their regular work and were left out of their counts. */
      goldenSetAside: number;
      ms: number;
      readMs: number;
      fitMs: number;
      writeMs: number;
    }
  /** Another process (or call) is re-fitting the scope: skipped. */
  | { kind: 'busy'; scope: string }
  /** The scope was deleted (its project, or its buyer) before or during the re-fit. */
  | { kind: 'gone'; scope: string };

export interface RefitScopeOptions {
  /** Aborting stops the re-fit before it writes anything (shutdown). */
  signal?: AbortSignal;
  /** Called between the snapshot read and the write, with no lock but the scope's advisory one held (tests). */
  beforeWrite?: () => Promise<void>;
}

const elapsed = (since: number) => Math.round(performance.now() - since);

export class QualityService {
  constructor(
    private readonly repository: QualityRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly refitOptions: RefitOptions = {},
  ) {}

  /** The scopes the next run would re-fit (CONTRACT §5: ~5 % growth, or an hour with any). */
  dueScopes(): Promise<DueScope[]> {
    return this.repository.dueScopes({
      growthFactor: 1 + REFIT_GROWTH,
      minNewAnswers: REFIT_MIN_NEW_ANSWERS,
      staleBefore: new Date(this.clock.now().getTime() - REFIT_MAX_AGE_MS),
    });
  }

  /**
   * One run of the worker loop: re-fits the due scopes one after another. A scope that fails is logged
   * and the others still run; an aborted signal stops the run between scopes (and inside a fit).
   */
  async refitDue(signal?: AbortSignal): Promise<RefitOutcome[]> {
    const outcomes: RefitOutcome[] = [];
    for (const due of await this.dueScopes()) {
      if (signal?.aborted) break;
      try {
        outcomes.push(await this.refitScope(due.key, { signal }));
      } catch (error) {
        if (signal?.aborted) break;
        this.logger.error({ event: 'quality.refit.failed', scope: due.key, err: error }, 're-fit of a label scope failed');
      }
    }
    return outcomes;
  }

  /** Re-fits one scope now, unless another process is re-fitting it (`busy`). */
  async refitScope(key: string, options: RefitScopeOptions = {}): Promise<RefitOutcome> {
    const locked = await this.repository.withScopeLock(key, (session) => this.refitLocked(key, session, options));
    return locked.kind === 'busy' ? { kind: 'busy', scope: key } : locked.value;
  }

  private async refitLocked(key: string, session: RefitSession, options: RefitScopeOptions): Promise<RefitOutcome> {
    const started = performance.now();
    let builder: ScopeAnswersBuilder | undefined;
    const scope = await session.readSnapshot(
      key,
      (read, expected) => (builder = new ScopeAnswersBuilder(read.options.length, expected, countsSideOf(read.answerKind, read.options.length))),
      options.signal,
    );
    if (!scope || !builder) return { kind: 'gone', scope: key };
    // The side of each stored counts table (K×K; a multi-select scope's is 2×2 whatever its options).
    const K = countsSideOf(scope.answerKind, scope.options.length);
    const { answers, snapshot } = builder.build();
    const shape = { answers: answers.item.length, items: answers.itemCount, annotators: answers.annotatorCount };
    const readMs = elapsed(started);

    const fitStarted = performance.now();
    const fit = await fitInWorker(
      { answers, snapshot, annotatorIds: builder.annotatorIds, options: this.refitOptions, answerKind: scope.answerKind },
      options.signal,
    );
    const fitMs = elapsed(fitStarted);
    await options.beforeWrite?.();
    options.signal?.throwIfAborted();

    const writeStarted = performance.now();
    const { write } = fit;
    for (let from = 0; from < write.order.length; from += REFIT_WRITE_BATCH) {
      await session.addCounts(key, K, deltaRows(write, write.order.subarray(from, from + REFIT_WRITE_BATCH), builder.annotatorIds, K));
    }
    if (!(await session.finishScope(key, fit, scope.readAt))) return { kind: 'gone', scope: key };
    const outcome = {
      kind: 'refitted' as const,
      scope: key,
      ...shape,
      countedAnswers: fit.countedAnswers,
      iterations: fit.iterations,
      start: fit.start,
      decidedAgreement: fit.decidedAgreement,
      goldenSetAside: fit.goldenSetAside,
      ms: elapsed(started),
      readMs,
      fitMs,
      writeMs: elapsed(writeStarted),
    };
    this.logger.info({ event: 'quality.refit.done', ...outcome }, 'label scope re-fitted');
    return outcome;
  }
}
