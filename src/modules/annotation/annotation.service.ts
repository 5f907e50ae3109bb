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
import type { TaskRecord } from '../tasks/tasks.repository.ts';
import type { AnnotatorRecord, ParticipantUpdate } from './annotators.repository.ts';
import type { AssignmentRecord, QueueFilters, ServableTask } from './assignments.repository.ts';

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
    const annotator = await this.activeAnnotator(developerId, externalId);
    return this.db.rawTransaction(async (repos) => {
      const now = this.clock.now();
      const live = await repos.assignments.live(annotator.id, now);
      if (live) return this.serve(repos, live);
      const task = await repos.assignments.claimOldestOpenTask(annotator.id, filters, now);
      if (!task) return null;
      const expiresAt = new Date(now.getTime() + this.config.assignmentTtlMs);
      const golden = await this.goldenInstead(repos, annotator, task);
      if (golden) {
        await repos.goldenTasks.countServed(golden.id);
        return { ...this.toServed(await repos.assignments.assign(annotator.id, { goldenTaskId: golden.id }, expiresAt)), task: golden };
      }
      return { ...this.toServed(await repos.assignments.assign(annotator.id, { taskId: task.id }, expiresAt)), task };
    });
  }

  /** Takes an answer; may decide the task. Checks run in this order: ALREADY_ANSWERED, TASK_CLOSED, NO_ASSIGNMENT, INVALID_ANSWER. */
  async complete(developerId: string, taskId: string, input: Answer): Promise<void> {
    const annotator = await this.activeAnnotator(developerId, input.annotatorId);
    await this.db.rawTransaction(async (repos) => {
      const task = await repos.tasks.lockAny(taskId);
      if (!task) return this.completeGolden(repos, annotator, taskId, input);
      if (await repos.tasks.hasAnswered(task.id, annotator.id)) throw alreadyAnswered();
      if (task.status === 'COMPLETED' || task.status === 'FAILED') {
        throw new ConflictError('TASK_CLOSED', `The task is already ${task.status}`);
      }
      const now = this.clock.now();
      if (!(await repos.assignments.holds(annotator.id, { taskId: task.id }, now))) throw noAssignment();
      if (!task.options.includes(input.answer)) throw invalidAnswer(task.options);

      const total = await repos.tasks.recordAnswer(task.id, annotator.id, input.answer, input.timeSpentMs);
      await repos.assignments.release(annotator.id);
      const decision = total >= task.validationsNeeded ? await this.decideTask(repos, task) : undefined;
      if (!decision || decision.decision.kind === 'continue') {
        await repos.annotators.countAnswer(annotator.id);
        return;
      }
      await this.settle(repos, task, annotator.id, total, decision.participants, decision.decision, now);
    });
  }

  private async decideTask(repos: Repositories, task: TaskRecord) {
    const participants = await repos.tasks.participants(task.id);
    const decision = decide({
      options: task.options,
      answers: participants.map((p) => ({ answer: p.answer, reliability: reliability(p) })),
      validationsNeeded: task.validationsNeeded,
      maxResponses: task.maxResponses,
      threshold: this.config.consensusThreshold,
    });
    return { participants, decision };
  }

  /** Applies a COMPLETED or FAILED decision and everything it moves, in the answer's transaction. */
  private async settle(
    repos: Repositories,
    task: TaskRecord,
    answererId: string,
    totalResponses: number,
    participants: Awaited<ReturnType<Repositories['tasks']['participants']>>,
    decision: Exclude<Decision, { kind: 'continue' }>,
    now: Date,
  ): Promise<void> {
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
    await repos.annotators.applyDecision(updates);
    if (earning > 0) await repos.annotators.appendEarnings(task.id, agreeing.map((p) => ({ annotatorId: p.annotatorId, cents: earning })));
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

  private async completeGolden(repos: Repositories, annotator: AnnotatorRecord, id: string, input: Answer): Promise<void> {
    const golden = await repos.goldenTasks.findById(id);
    if (!golden) throw taskNotFound();
    if (await repos.goldenTasks.hasAnswered(golden.id, annotator.id)) throw alreadyAnswered();
    if (!(await repos.assignments.holds(annotator.id, { goldenTaskId: golden.id }, this.clock.now()))) throw noAssignment();
    if (!golden.options.includes(input.answer)) throw invalidAnswer(golden.options);
    const correct = input.answer === golden.goldenAnswer;
    await repos.goldenTasks.recordAnswer(golden.id, annotator.id, input.answer, input.timeSpentMs, correct);
    await repos.assignments.release(annotator.id);
    const counters = await repos.annotators.countGoldenAnswer(annotator.id, correct);
    const since = { answered: counters.goldenAnswered - counters.goldenAnsweredBase, correct: counters.goldenCorrect - counters.goldenCorrectBase };
    if (shouldSuspend(since.answered, since.correct)) await repos.annotators.setSuspended(annotator.id, true);
  }

  /**
   * A golden task of the same buyer, type and locale that this annotator has not answered, served in
   * place of the regular task: always while the annotator has answered no golden task, then with
   * probability GOLDEN_RATE.
   */
  private async goldenInstead(repos: Repositories, annotator: AnnotatorRecord, task: ServableTask): Promise<ServableTask | null> {
    if (annotator.goldenAnswered > 0 && this.random() >= this.config.goldenRate) return null;
    if (!(await repos.goldenTasks.exists(task.buyerId, task.type, task.locale))) return null;
    return repos.goldenTasks.pickUnanswered(task.buyerId, task.type, task.locale, annotator.id);
  }

  private async serve(repos: Repositories, assignment: AssignmentRecord): Promise<ServedAssignment | null> {
    const task = await repos.assignments.target(assignment);
    return task ? { ...this.toServed(assignment), task } : null;
  }

  private toServed(assignment: AssignmentRecord) {
    return { assignmentId: assignment.id, expiresAt: assignment.expiresAt };
  }

  private async activeAnnotator(developerId: string, externalId: string): Promise<AnnotatorRecord> {
    const annotator = await this.db.rawRepos.annotators.ensure(developerId, externalId);
    if (annotator.suspended) throw suspendedError();
    return annotator;
  }
}
