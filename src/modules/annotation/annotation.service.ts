// The SDK side: hand out work, take answers, decide tasks, and settle what a decision moves (the buyer's
// charge or release, the annotators' counters and earnings, the buyer's events). next and complete run
// on the raw-SQL path (Database.rawTransaction): every repository method they call is raw SQL.
import type { Config } from '../../config.ts';
import type { Database, Repositories } from '../../db/database.ts';
import { decide, type Decision } from '../../consensus/consensus.ts';
import { earningPerAgreeingAnswer, reliability, shouldSuspend } from '../../consensus/reputation.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { Participant } from '../tasks/tasks.repository.ts';
import type { ParticipantUpdate } from './annotators.repository.ts';
import type { AnsweredTask, AnswerOutcome, QueueFilters, ServableTask } from './assignments.repository.ts';

export interface Answer {
  annotatorId: string;
  answer: string;
  timeSpentMs: number;
}

export interface ServedAssignment {
  assignmentId: string;
  expiresAt: Date;
  task: ServableTask;
}

const suspendedError = () => new AppError(403, 'ANNOTATOR_SUSPENDED', 'This annotator is suspended; an administrator can reinstate them');
export const annotatorNotFound = () => new NotFoundError('ANNOTATOR_NOT_FOUND', 'No annotator with this annotatorId for this app');
const taskNotFound = () => new NotFoundError('TASK_NOT_FOUND', 'Task not found');
const alreadyAnswered = () => new ConflictError('ALREADY_ANSWERED', 'This annotator already answered this task');
const noAssignment = () =>
  new ConflictError('NO_ASSIGNMENT', 'This annotator holds no live assignment of this task; call GET /sdk/tasks/next first');
const invalidAnswer = (options: string[]) =>
  new BadRequestError('INVALID_ANSWER', `The answer must be one of the task's options: ${options.join(', ')}`);

/** The outcomes that let the answer go on; every refusal becomes its error. */
function acceptedOrThrow(stored: AnswerOutcome): Extract<AnswerOutcome, { outcome: 'ANSWERED' | 'NOT_A_TASK' | 'DECIDE' }> {
  switch (stored.outcome) {
    case 'ANNOTATOR_SUSPENDED':
      throw suspendedError();
    case 'ALREADY_ANSWERED':
      throw alreadyAnswered();
    case 'TASK_CLOSED':
      throw new ConflictError('TASK_CLOSED', `The task is already ${stored.task.status}`);
    case 'NO_ASSIGNMENT':
      throw noAssignment();
    case 'INVALID_ANSWER':
      throw invalidAnswer(stored.task.options);
    default:
      return stored;
  }
}

export class AnnotationService {
  constructor(
    private readonly db: Database,
    private readonly billing: BillingService,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly random: () => number = Math.random,
  ) {}

  /** The annotator's live assignment, or a new one on the oldest open task that fits; null when none. */
  async next(developerId: string, externalId: string, filters: QueueFilters): Promise<ServedAssignment | null> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.assignmentTtlMs);
    const golden = { roll: this.random(), rate: this.config.goldenRate };
    const served = await this.db.rawRepos.assignments.next(developerId, externalId, filters, now, expiresAt, golden);
    if (served.outcome === 'ANNOTATOR_SUSPENDED') throw suspendedError();
    if (served.outcome === 'NONE') return null;
    return { assignmentId: served.assignmentId, expiresAt: served.expiresAt, task: served.task };
  }

  /**
   * Takes an answer; may decide the task. Checks run in this order: ANNOTATOR_SUSPENDED, TASK_NOT_FOUND,
   * ALREADY_ANSWERED, TASK_CLOSED, NO_ASSIGNMENT, INVALID_ANSWER. An answer that cannot decide its task
   * (and every refused one) costs one autocommitted statement; one that can is taken again inside a
   * transaction that decides and settles.
   */
  async complete(developerId: string, taskId: string, input: Answer): Promise<void> {
    const now = this.clock.now();
    const store = (repos: Repositories, mayDecide: boolean) =>
      repos.assignments.answer(developerId, input.annotatorId, taskId, input, now, mayDecide).then(acceptedOrThrow);
    if ((await store(this.db.rawRepos, false)).outcome === 'ANSWERED') return;
    await this.db.rawTransaction(async (repos) => {
      const stored = await store(repos, true);
      if (stored.outcome === 'NOT_A_TASK') return this.completeGolden(repos, stored.annotatorId, taskId, input, now);
      if (stored.outcome !== 'ANSWERED') throw new Error(`unexpected outcome ${stored.outcome}`);
      const { task, participants, annotatorId } = stored;
      if (!participants) return;
      const decision = decide({
        options: task.options,
        answers: participants.map((p) => ({ answer: p.answer, reliability: reliability(p) })),
        validationsNeeded: task.validationsNeeded,
        maxResponses: task.maxResponses,
        threshold: this.config.consensusThreshold,
      });
      if (decision.kind === 'continue') {
        await repos.annotators.countAnswer(annotatorId);
        return;
      }
      await this.settle(repos, task, annotatorId, participants, decision, now);
    });
  }

  /** Applies a COMPLETED or FAILED decision and everything it moves, in the answer's transaction. */
  private async settle(
    repos: Repositories,
    task: AnsweredTask,
    answererId: string,
    participants: Participant[],
    decision: Exclude<Decision, { kind: 'continue' }>,
    now: Date,
  ): Promise<void> {
    const totalResponses = task.totalResponses;
    const answered = (id: string) => (id === answererId ? 1 : 0);
    if (decision.kind === 'fail') {
      await repos.tasks.markFailed(task.id, 'NO_CONSENSUS', now);
      await repos.annotators.countAnswer(answererId);
      await repos.events.record(task.buyerId, 'task.failed', {
        taskId: task.id,
        type: task.type,
        reason: 'NO_CONSENSUS',
        totalResponses,
        failedAt: now.toISOString(),
      });
      await this.billing.releaseFailedTask(repos, task);
      return;
    }
    await repos.tasks.markCompleted(task.id, decision.result, decision.confidence, now);
    const agreeing = participants.filter((p) => p.answer === decision.result);
    const earning = earningPerAgreeingAnswer(task.costCents, this.config.annotatorShare, agreeing.length);
    const updates: ParticipantUpdate[] = participants.map((p) => {
      const agreed = p.answer === decision.result ? 1 : 0;
      return { annotatorId: p.annotatorId, answered: answered(p.annotatorId), resolved: 1, agreed, earnedCents: agreed * earning };
    });
    await repos.annotators.applyDecision(task.id, updates);
    await repos.events.record(task.buyerId, 'task.completed', {
      taskId: task.id,
      type: task.type,
      result: decision.result,
      confidence: decision.confidence,
      totalResponses,
      costCents: task.costCents,
      validatedAt: now.toISOString(),
    });
    // Last: the charge locks the buyer row until commit, and every decision of the buyer's tasks needs it.
    const charge = await this.billing.chargeCompletedTask(repos, task);
    if (charge.crossedLowBalance) await this.billing.recordBudgetLow(repos, task.buyerId, charge.balanceAfterCents, now);
  }

  private async completeGolden(repos: Repositories, annotatorId: string, id: string, input: Answer, now: Date): Promise<void> {
    const golden = await repos.goldenTasks.findById(id);
    if (!golden) throw taskNotFound();
    if (await repos.goldenTasks.hasAnswered(golden.id, annotatorId)) throw alreadyAnswered();
    if (!(await repos.assignments.holdsGolden(annotatorId, golden.id, now))) throw noAssignment();
    if (!golden.options.includes(input.answer)) throw invalidAnswer(golden.options);
    const correct = input.answer === golden.goldenAnswer;
    await repos.goldenTasks.recordAnswer(golden.id, annotatorId, input.answer, input.timeSpentMs, correct);
    await repos.assignments.release(annotatorId);
    const counters = await repos.annotators.countGoldenAnswer(annotatorId, correct);
    const since = { answered: counters.goldenAnswered - counters.goldenAnsweredBase, correct: counters.goldenCorrect - counters.goldenCorrectBase };
    if (shouldSuspend(since.answered, since.correct)) await repos.annotators.setSuspended(annotatorId, true);
  }
}
