// The second half of a decision (docs/hot-path.md): settle_task stores the answer, the task's new state
// and its event, and leaves one settlement_effects row with what the decision owes the rest of the
// database — the answerers' counters, earnings and label counts, the buyer's charge or released
// reservation. This applies those rows, many decisions per transaction under one advisory lock, and
// numbers new events (number_events), so decisions of one buyer never queue on the buyer's row, the
// annotators' rows or the buyer's event counter.
//
// Read-your-writes: every API request but the SDK's next and complete calls `settledForRead()` first
// (src/http/endpoint-router.ts), which returns once every effect committed before the request began is
// applied (or has failed, or after READ_WAIT_MS). So a task a request saw COMPLETED before it began comes
// with its charge, earnings and event number; between a decision's COMMIT and the application the
// buyer's availableCents is lower than it will be (the reservation is held until the charge releases
// it), never higher.
import { setTimeout as delay } from 'node:timers/promises';
import type { UnitOfWork } from '../../db/database.ts';
import type { SettlementEffectsRepository } from './settlement.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { LOW_BALANCE_THRESHOLD_CENTS } from '@concord/contract';
import type { BillingService, LedgerRepos } from '../billing/billing.service.ts';
import type { AppliedEffects } from './codecs.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type RawRepos = { settlementEffects: SettlementEffectsRepository } & LedgerRepos;
type Db = UnitOfWork<unknown, RawRepos>;

/**
 * Effects applied per transaction: bounds how long one application holds the rows it locks, and keeps
 * its subtransactions (one per effect) under the 64 a PostgreSQL backend caches.
 */
const BATCH = 50;
/** How long a request waits for the effects before it reads what is applied (settledForRead). */
const READ_WAIT_MS = 5_000;
/** The longest pause between passes of `settled` while an effect's answerer is busy. */
const BUSY_BACKOFF_MAX_MS = 20;
/** How long a decision waits for company before the background applier runs (batches decisions). */
const NUDGE_DELAY_MS = 20;

export class SettlementEffects {
  /** The application running in this process, and the one queued to start after it. */
  private current: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private nudgeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly billing: BillingService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves once every effect committed before the call is applied (or has failed: see
   * apply_settlement_effects) and every event numbered. An effect whose answerer's row an answer holds
   * right now is skipped by a pass (the applier never waits for one), so this passes again, briefly
   * backing off, until the effects it saw are gone; past `withinMs` it throws instead.
   */
  async settled(withinMs = Number.POSITIVE_INFINITY): Promise<void> {
    const { newestEffect, unnumberedEvents } = await this.db.rawRepos.settlementEffects.unsettled();
    if (newestEffect === null && !unnumberedEvents) return;
    const deadline = Date.now() + withinMs;
    for (let pass = 0; ; pass++) {
      await this.applyAll();
      if (newestEffect === null || !(await this.db.rawRepos.settlementEffects.hasEffectsUpTo(newestEffect))) return;
      if (Date.now() > deadline) throw new Error(`settlement effects up to ${newestEffect} still unapplied after ${withinMs} ms`);
      await delay(Math.min(2 ** pass, BUSY_BACKOFF_MAX_MS));
    }
  }

  /**
   * `settled` for a request about to read, within READ_WAIT_MS: if applying fails or takes longer (a
   * database error, a lock held elsewhere), the request goes on with what is applied so far, logged.
   * What is not applied yet makes creditBalance look higher by the unapplied charges, but availableCents
   * (what task creation and debits check) lower — each task's reservation, at least its charge, is held
   * until the charge — and earnings lower, so no one can overspend on it; and one bad effect must not
   * take every route down.
   */
  async settledForRead(): Promise<void> {
    await this.settled(READ_WAIT_MS).catch((error: unknown) =>
      this.logger.error({ event: 'settlement.effects.unsettled', err: error }, 'settlement effects are not all applied; the request reads what is'),
    );
  }

  /** Numbers the events that have none yet (the event stream's poller: it reads numbered events only). */
  async numbered(): Promise<void> {
    if (!(await this.db.rawRepos.settlementEffects.hasUnnumberedEvents())) return;
    await this.numberEvents();
  }

  /** A decision was committed: apply it in the background soon, with whatever else arrives meanwhile. */
  nudge(): void {
    if (this.nudgeTimer) return;
    this.nudgeTimer = setTimeout(() => {
      this.nudgeTimer = null;
      this.applyAll().catch((error: unknown) =>
        this.logger.error({ event: 'settlement.effects.failed', err: error }, 'applying settlement effects failed; the next run retries'),
      );
    }, NUDGE_DELAY_MS);
    this.nudgeTimer.unref();
  }

  /** Cancels a pending background run and waits for the one in progress (shutdown). */
  async stop(): Promise<void> {
    if (this.nudgeTimer) clearTimeout(this.nudgeTimer);
    this.nudgeTimer = null;
    await Promise.allSettled([this.current, this.queued]);
  }

  /**
   * Applies until a pass finds fewer than a batch or applies none, then numbers events. A run already
   * going may have read the queue before the caller's commit, so callers that arrive during one share
   * the run queued after it.
   */
  applyAll(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.current) return this.start();
    const queued = this.current
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  private start(): Promise<void> {
    const run = this.drain().finally(() => {
      if (this.current === run) this.current = null;
    });
    this.current = run;
    return run;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const { selected, applied, failed } = await this.db.rawTransaction((repos) => this.applyBatch(repos));
      if (failed.length > 0)
        this.logger.error(
          { event: 'settlement.effects.failed', failed },
          `${failed.length} settlement effects failed to apply; they are retried after the others`,
        );
      // A full batch with nothing applied (every answerer busy, or every effect failing) ends the run: the
      // next nudge, sweep or reader retries.
      if (selected < BATCH || applied === 0) break;
    }
    // In a transaction of its own, so that effects that fail never hold up the event stream.
    await this.numberEvents();
  }

  private async applyBatch(repos: RawRepos): Promise<AppliedEffects> {
    await repos.settlementEffects.lock();
    const result = await repos.settlementEffects.apply(BATCH, LOW_BALANCE_THRESHOLD_CENTS);
    const at = this.clock.now();
    for (const { buyerId, after } of result.crossed) await this.billing.recordBudgetLow(repos, buyerId, after, at);
    return result;
  }

  private async numberEvents(): Promise<void> {
    await this.db.rawTransaction(async (repos) => {
      await repos.settlementEffects.lock();
      await repos.settlementEffects.numberEvents();
    });
  }
}
