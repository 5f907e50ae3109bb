// The SDK side: hand out work, take answers, decide tasks, and settle what a decision moves (the task and
// the buyer's event at once; the buyer's charge or release and the annotators' counters, earnings and
// label counts through SettlementEffects). next and complete run
// on the raw-SQL path (Database.rawRepos / rawTransaction): every repository method they call is raw SQL.
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { GoldenTasksRawRepository } from '../golden-tasks/golden-tasks.repository.ts';
import type { AnnotatorsRawRepository } from './annotators.repository.ts';
import type { AssignmentsRepository } from './assignments.repository.ts';
import type { LabelCountsRepository } from './label-counts.repository.ts';
import { shouldSuspend } from '../../consensus/reputation.ts';
import type { Clock } from '../../lib/clock.ts';
import { Coalescer } from '../../lib/coalescer.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { allowsTie, answerFits, pairAnswerOf, shownPairOptions, storedAnswer, type AnswerKind, type AnswerValue } from '@concord/contract';
import type { SettlementEffects } from '../settlement/applier.ts';
import {
  type AnswerOutcome,
  type AnswerRequest,
  type GoldenRates,
  type NextOutcome,
  type NextRequest,
  type QueueFilters,
  type ServableTask,
} from './assignments.repository.ts';
import { planSettlement } from '../settlement/plan.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type RawRepos = {
  annotators: AnnotatorsRawRepository;
  assignments: AssignmentsRepository;
  goldenTasks: GoldenTasksRawRepository;
  labelCounts: LabelCountsRepository;
};
type Db = UnitOfWork<unknown, RawRepos>;

export interface Answer {
  annotatorId: string;
  /** One option, or a multi-select task's set of options. */
  answer: AnswerValue;
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
const noAssignment = () => new ConflictError('NO_ASSIGNMENT', 'This annotator holds no live assignment of this task; call GET /sdk/tasks/next first');
/**
 * 400 INVALID_ANSWER (CONTRACT: an answer the task does not take), naming the field as VALIDATION_ERROR does
 * (`details.issues`) and, where the task has a list of them, the answers it takes (`details.accepted`).
 */
function answerRefused(message: string, accepted?: readonly string[]): BadRequestError {
  return new BadRequestError('INVALID_ANSWER', message, { issues: [{ path: 'answer', message }], ...(accepted ? { accepted: [...accepted] } : {}) });
}

function invalidAnswer(task: { options: string[]; answerKind: AnswerKind; allowEmpty: boolean }): BadRequestError {
  if (task.answerKind === 'multi') {
    return answerRefused(
      `The answer must be distinct options of the task, as a list or joined by |${task.allowEmpty ? '' : ' (at least one)'}: ${task.options.join(', ')}`,
      task.options,
    );
  }
  // (A written answer's refusal says more, and reads the task for it: invalidText.)
  if (task.answerKind === 'pairwise') {
    const answers = shownPairOptions(allowsTie(task.options));
    return answerRefused(`The answer must name a candidate as the assignment showed it: ${answers.join(', ')}`, answers);
  }
  return answerRefused(`The answer must be one of the task's options: ${task.options.join(', ')}`, task.options);
}

/** A claim as the routes return it: an assignment, nothing to hand out (null), or a suspended annotator. */
function servedOf(claimed: NextOutcome): ServedAssignment | null | 'SUSPENDED' {
  if (claimed.outcome === 'ANNOTATOR_SUSPENDED') return 'SUSPENDED';
  return claimed.outcome === 'SERVED' ? { assignmentId: claimed.assignmentId, expiresAt: claimed.expiresAt, task: claimed.task } : null;
}

/** The outcomes that let the answer go on; every refusal becomes its error. */
function acceptedOrThrow(stored: AnswerOutcome): Extract<AnswerOutcome, { outcome: 'ANSWERED' | 'NOT_A_TASK' | 'DECIDE' | 'SETTLED' | 'STALE' }> {
  switch (stored.outcome) {
    case 'ANNOTATOR_SUSPENDED':
      throw suspendedError();
    case 'ALREADY_ANSWERED':
      throw alreadyAnswered();
    case 'TASK_CLOSED':
      if (stored.task.answerKind === 'text' && stored.task.status === 'VALIDATING') {
        throw new ConflictError('TASK_CLOSED', 'Every written answer of this task is in: its review is choosing between them');
      }
      throw new ConflictError('TASK_CLOSED', `The task is already ${stored.task.status}`);
    case 'NO_ASSIGNMENT':
      throw noAssignment();
    case 'INVALID_ANSWER':
      throw invalidAnswer(stored.task);
    default:
      return stored;
  }
}

/** At most this many calls share a statement; this many statements of a kind run at once per process. */
const BATCH = 16;
const RUNNERS = 2;

export class AnnotationService {
  constructor(
    private readonly db: Db,
    private readonly effects: SettlementEffects,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
  ) {}

  private get goldenRates(): GoldenRates {
    return { rate: this.config.goldenRate, firstRate: this.config.goldenFirstRate };
  }

  /** A failed batch is retried call by call; the log says how often that happens. */
  private readonly batchFailed = (statement: string) => (error: unknown, size: number) =>
    this.logger.info({ event: 'sdk.batch.retried', statement, size, err: error }, 'a batched statement failed; its calls run one by one');

  /**
   * `next` calls that arrive while the database is busy with earlier ones are claimed together, in one
   * statement (sdk_next_batch): each is claimed exactly as alone, in arrival order.
   */
  private readonly claims = new Coalescer<NextRequest, NextOutcome>(
    (requests) => this.claim(requests),
    async (request) => (await this.claim([request]))[0] as NextOutcome,
    { maxBatch: BATCH, runners: RUNNERS, onBatchFailure: this.batchFailed('sdk_next_batch') },
  );

  /**
   * The same for answers' first call (sdk_answer_batch): a batch that waits on a lock too long fails, and
   * its answers are then taken one by one. Settlements are not batched: when they still charged the
   * buyer, a batch of them held the buyer's row for all of them and p99 latency grew by a third
   * (bench/README.md); not measured again since settlements left the charge to SettlementEffects.
   */
  private readonly probes = new Coalescer<AnswerRequest, AnswerOutcome>(
    (requests) => this.db.rawRepos.assignments.answerBatch(requests, this.goldenRates),
    (request) => this.db.rawRepos.assignments.answer(request.developerId, request.externalId, request.taskId, request, request.now),
    { maxBatch: BATCH, runners: RUNNERS, onBatchFailure: this.batchFailed('sdk_answer_batch') },
  );

  private claim(requests: NextRequest[]): Promise<NextOutcome[]> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.assignmentTtlMs);
    return this.db.rawRepos.assignments.nextBatch(requests, now, expiresAt, this.goldenRates);
  }

  /** The annotator's live assignment, or a new one on the oldest open task that fits; null when none. */
  async next(developerId: string, externalId: string, filters: QueueFilters): Promise<ServedAssignment | null> {
    const served = await this.claimNext(developerId, externalId, filters);
    if (served === 'SUSPENDED') throw suspendedError();
    return served;
  }

  /**
   * `complete`, then `next` with these filters — sdk_next in the answer's own batch statement when the
   * answer is stored at once, else the coalesced claim `next` uses — so the assignment is exactly the
   * one `next` would hand out right after the answer (a golden task included). A refused
   * answer throws before anything is claimed. Once the answer is stored it is accepted whatever follows:
   * an annotator that this (golden) answer suspended gets null, as `next` would refuse them work.
   */
  async completeAndNext(developerId: string, taskId: string, input: Answer, filters: QueueFilters): Promise<ServedAssignment | null> {
    const goldenRoll = this.random();
    const expiresAt = new Date(this.clock.now().getTime() + this.config.assignmentTtlMs);
    // An answer stored at once comes back with its claim (same statement); any other claims after it.
    const orderRoll = this.random();
    const claimed = await this.answer(developerId, taskId, input, { filters, goldenRoll, orderRoll, expiresAt });
    const served = servedOf(claimed ?? (await this.claims.call({ developerId, externalId: input.annotatorId, filters, goldenRoll, orderRoll })));
    return served === 'SUSPENDED' ? null : served;
  }

  /** The coalesced claim both routes share: an assignment, nothing to hand out (null), or a suspended annotator. */
  private async claimNext(developerId: string, externalId: string, filters: QueueFilters): Promise<ServedAssignment | null | 'SUSPENDED'> {
    return servedOf(await this.claims.call({ developerId, externalId, filters, goldenRoll: this.random(), orderRoll: this.random() }));
  }

  /**
   * Takes an answer; may decide the task. Checks run in this order: ANNOTATOR_SUSPENDED, TASK_NOT_FOUND,
   * ALREADY_ANSWERED, NO_ASSIGNMENT, TASK_CLOSED, INVALID_ANSWER. An answer that cannot decide its task
   * (and every refused one) costs one autocommitted statement, shared with the answers that arrive
   * together (`probes`). One that can comes back with the task's answers and their annotators' counts
   * in the task's label scope (DECIDE, nothing written); the label model decides (planSettlement), and a
   * second statement checks the answer again under the task's lock, verifies the task still has the
   * answers the decision counted, and writes the answer with the whole settlement (settle_task). If
   * another answer was stored in between (STALE) the answer is taken again from the start; every round
   * means another answer reached the task, so there are at most maxResponses of them. A decided task's
   * charge, earnings and label counts follow from its settlement_effects row (SettlementEffects, nudged
   * here; budget.low is recorded there).
   */
  async complete(developerId: string, taskId: string, input: Answer): Promise<void> {
    await this.answer(developerId, taskId, input);
  }

  /** `complete`; with `next`, the next assignment when the answer's own statement claimed it (undefined otherwise). */
  private async answer(developerId: string, taskId: string, input: Answer, next?: AnswerRequest['next']): Promise<NextOutcome | undefined> {
    const now = this.clock.now();
    const request: AnswerRequest = { developerId, externalId: input.annotatorId, taskId, answer: input.answer, timeSpentMs: input.timeSpentMs, now, next };
    for (;;) {
      const answered = await this.probes.call(request);
      if (answered.outcome === 'INVALID_ANSWER' && answered.task.answerKind === 'text') throw await this.invalidText(taskId, input.answer);
      const probe = acceptedOrThrow(answered);
      if (probe.outcome === 'ANSWERED') return probe.next;
      if (probe.outcome === 'NOT_A_TASK') {
        await this.db.rawTransaction((repos) => this.completeGolden(repos, probe.annotatorId, taskId, input, now));
        return undefined;
      }
      if (probe.outcome !== 'DECIDE') throw new Error(`unexpected outcome ${probe.outcome}`);
      const plan = planSettlement({ ...probe, annotatorShare: this.config.annotatorShare, now });
      const settled = acceptedOrThrow(
        await this.db.rawRepos.assignments.answer(developerId, input.annotatorId, taskId, input, now, { seenResponses: probe.task.totalResponses, plan }),
      );
      if (settled.outcome === 'SETTLED') {
        if (plan.kind !== 'continue') this.effects.nudge();
        return undefined;
      }
    }
  }

  /**
   * INVALID_ANSWER for a written answer, saying why (SQL's written_answer has the rules): the line that reads
   * like its review's layout, or the task's limit and the length sent (a refusal's one extra read).
   */
  private async invalidText(taskId: string, answer: AnswerValue): Promise<BadRequestError> {
    const refusal = await this.db.rawRepos.assignments.writtenAnswerRefusal(taskId, typeof answer === 'string' ? answer : '');
    if (refusal.forged) return answerRefused('A written answer may not have a line that begins "Answer <number>:", the layout of its review');
    const sent = typeof answer === 'string' ? `${refusal.length} characters once trimmed` : 'a list';
    return answerRefused(`The answer must be one written text of 1 to ${refusal.maxLength ?? '?'} characters once trimmed; this one is ${sent}`);
  }

  private async completeGolden(repos: RawRepos, annotatorId: string, id: string, input: Answer, now: Date): Promise<void> {
    const golden = await repos.goldenTasks.findById(id);
    if (!golden) throw taskNotFound();
    if (await repos.goldenTasks.hasAnswered(golden.id, annotatorId)) throw alreadyAnswered();
    const assignment = await repos.assignments.goldenAssignment(annotatorId, golden.id, now);
    if (!assignment) throw noAssignment();
    const kind = { options: golden.options, answerKind: golden.answerKind, allowEmpty: golden.allowEmpty };
    // A pair's answer names a candidate as the assignment showed it (first, second, tie).
    const answer = golden.answerKind === 'pairwise' ? pairAnswerOf(input.answer, assignment.swapped) : input.answer;
    if (answer === null || !answerFits(kind, answer)) throw invalidAnswer(kind);
    const stored = storedAnswer(golden, answer);
    const correct = stored === golden.goldenAnswer;
    await repos.goldenTasks.recordAnswer(golden.id, annotatorId, { answer: stored, swapped: assignment.swapped }, input.timeSpentMs, correct);
    await repos.assignments.release(annotatorId);
    const counters = await repos.annotators.countGoldenAnswer(annotatorId, correct);
    // After the annotator's row is locked (above): the order every writer of the label counts uses.
    await repos.labelCounts.addGoldenAnswer(golden.id, annotatorId, stored, assignment.swapped);
    const since = { answered: counters.goldenAnswered - counters.goldenAnsweredBase, correct: counters.goldenCorrect - counters.goldenCorrectBase };
    if (shouldSuspend(since.answered, since.correct)) await repos.annotators.setSuspended(annotatorId, true);
  }
}
