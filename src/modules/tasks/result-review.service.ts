// Result review (docs/organisations.md, README "Result review"): a buyer rejects a completed result, once,
// within REVIEW_WINDOW_DAYS of its decision. In one transaction the task goes back to VALIDATING at a
// higher target with room for more answers, and what its decision did is undone: the buyer's charge is
// refunded (a REFUND row) and the task's budget reserved again, as for any open task; each participant's
// resolved answer (and agreed one) is taken off their counters, and the earnings of those who gave the
// rejected result are taken back (EARNING_REVERSAL), never below what they have available (the rest is the
// service's loss, logged). The task is then decided again by the same model and settlement as any task:
// the same result charges the buyer again (the crowd confirmed it: the price is kept), another one charges
// once for the new result, a failure charges nothing; the answerers who agree with the final result earn.
// A text task is rejected with its review task: both reopen, and the review decides the text again.
import type { Logger } from 'pino';
import type { Clock } from '../../lib/clock.ts';
import { inScope, type Actor, type ProjectScope } from '../../lib/endpoint.ts';
import { ConflictError, InsufficientCreditsError } from '../../lib/errors.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { BillingRepository } from '../billing/billing.repository.ts';
import type { EventsRepository } from '../events/events.repository.ts';
import type { CapRepos, SpendingCapsService } from '../billing/spending-caps.service.ts';
import { raisedTargetConfidence, REVIEW_WINDOW_DAYS, shownAnswer } from '@concord/contract';
import type { Participant, ResultReviewRepository } from './result-review.repository.ts';
import type { TaskRecord, TasksRepository } from './tasks.repository.ts';
import { taskNotFound, type TaskDetail, type TasksService } from './tasks.service.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = {
  auditLog: AuditLogRepository;
  billing: BillingRepository;
  events: EventsRepository;
  resultReview: ResultReviewRepository;
  tasks: TasksRepository;
} & CapRepos;
type Db = UnitOfWork<Repos>;

const DAY_MS = 86_400_000;

const notCompleted = (status: string) => new ConflictError('TASK_NOT_COMPLETED', `Only a COMPLETED task's result can be rejected; this task is ${status}`);

/** What is taken back from a participant: their earning on the task, as far as they still have it available. */
export function earningTaken(participant: Pick<Participant, 'earnedCents' | 'availableCents'>): number {
  return Math.min(participant.earnedCents, Math.max(participant.availableCents, 0));
}

export class ResultReviewService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly caps: Pick<SpendingCapsService, 'enforce' | 'noticing'>,
    private readonly tasks: Pick<TasksService, 'get'>,
    private readonly logger: Logger,
  ) {}

  async reject(actor: Actor, id: string, reason: string, scope: ProjectScope = null): Promise<TaskDetail> {
    const buyerId = actor.organisationId;
    const now = this.clock.now();
    const work = this.db.transaction(async (repos) => {
      // Its project first, then the task: the order creations and updates lock them in.
      const seen = await repos.tasks.findForBuyer(buyerId, id);
      if (seen?.projectId) await repos.spendingCaps.lockProjectCaps(buyerId, [seen.projectId]);
      const task = await repos.tasks.lockForBuyer(buyerId, id);
      if (!task || !inScope(scope, task.projectId)) throw taskNotFound();
      if (task.reviewOf) {
        throw new ConflictError('TASK_IS_REVIEW', `This is the review of text task ${task.reviewOf}: reject the text task's result instead`);
      }
      if (task.revision > 1) throw new ConflictError('ALREADY_REJECTED', 'This task’s result was rejected once already; a result is rejected at most once');
      if (task.status !== 'COMPLETED' || task.validatedAt === null || task.result === null) throw notCompleted(task.status);
      if (now.getTime() - task.validatedAt.getTime() > REVIEW_WINDOW_DAYS * DAY_MS) {
        throw new ConflictError(
          'REVIEW_WINDOW_CLOSED',
          `A result can be rejected within ${REVIEW_WINDOW_DAYS} days of its decision (${task.validatedAt.toISOString()})`,
        );
      }
      const review = task.reviewTaskId ? await repos.tasks.lockForBuyer(buyerId, task.reviewTaskId) : null;
      const reopened = review ? [review, task] : [task];
      if (await repos.resultReview.settling(reopened.map((t) => t.id))) {
        throw new ConflictError('TASK_NOT_COMPLETED', 'This task’s decision is still being settled; retry in a moment');
      }
      const refunds: Array<{ taskId: string; cents: number }> = [];
      let reserved = 0;
      for (const each of reopened) {
        const outcome = await this.reopenOne(repos, each, reason, now);
        refunds.push({ taskId: each.id, cents: outcome.refundedCents });
        reserved += each.maxCents;
        await repos.events.record(buyerId, 'task.rejected', {
          taskId: each.id,
          type: each.type,
          reason,
          rejectedResult: shownAnswer(each.answerKind, each.result ?? ''),
          rejectedConfidence: each.confidence ?? 0,
          refundedCents: outcome.refundedCents,
          targetConfidence: outcome.targetConfidence,
          maxResponses: outcome.maxResponses,
          rejectedAt: now.toISOString(),
          ...(each.reviewOf ? { reviewOf: each.reviewOf } : {}),
        });
      }
      const refunded = refunds.reduce((sum, refund) => sum + refund.cents, 0);
      // Open again, its budget counts against the caps instead of its price.
      const added = reserved - refunded;
      if (added > 0) {
        await this.caps.enforce(repos, buyerId, {
          byProject: new Map(task.projectId ? [[task.projectId, added]] : []),
          totalCents: added,
          committedAt: task.releasedAt ?? task.createdAt,
        });
      }
      if (!(await repos.resultReview.refundAndReserve(buyerId, refunds, reserved))) {
        const balance = await repos.billing.getBalance(buyerId);
        throw new InsufficientCreditsError(reserved, (balance?.availableCents ?? 0) + refunded);
      }
      await repos.auditLog.append(actor, {
        targetId: id,
        before: { status: 'COMPLETED', revision: 1, targetConfidence: task.targetConfidence, maxResponses: task.maxResponses },
        after: { status: 'VALIDATING', revision: 2, refundedCents: refunded, reservedCents: reserved },
      });
    });
    await this.caps.noticing(buyerId, work);
    return this.tasks.get(buyerId, id, scope);
  }

  /** One task reopened and its decision undone but for the buyer's money (the caller refunds and reserves for all). */
  private async reopenOne(repos: Repos, task: TaskRecord, reason: string, now: Date) {
    const participants = await repos.resultReview.lockParticipants(task.id, task.result ?? '');
    // A text task takes no more written answers: its review task collects the new answers.
    const state = await repos.resultReview.reopen(task.id, {
      reason,
      at: now,
      extraAnswers: task.answerKind !== 'text',
      targetConfidence: raisedTargetConfidence(task.targetConfidence),
    });
    if (!state) throw notCompleted(task.status);
    const reversals = participants.map((participant) => ({ ...participant, takenCents: earningTaken(participant) }));
    for (const r of reversals.filter((r) => r.takenCents < r.earnedCents)) {
      this.logger.warn(
        { event: 'review.earning_shortfall', taskId: task.id, annotatorId: r.annotatorId, earnedCents: r.earnedCents, takenCents: r.takenCents },
        'a rejected result’s earning was paid out already: the service absorbs what could not be taken back',
      );
    }
    await repos.resultReview.reverseParticipants(task.id, reversals);
    return { refundedCents: await repos.resultReview.chargedCents(task.id), ...state };
  }
}
