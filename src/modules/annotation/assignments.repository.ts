// The work queue. An annotator holds at most one assignment (the primary key is the annotator); a task
// never has more answers plus live assignments than its maxResponses. The claim and the answer run as
// server-side functions (prisma/functions: sdk_next, sdk_next_batch, sdk_answer, sdk_answer_batch,
// settle_task; docs/hot-path.md): candidate task rows are locked with FOR UPDATE SKIP LOCKED and
// recounted under the lock, so neither a second caller nor a second server process can over-assign a
// task, and each SDK call costs one round trip for its checks and writes (two for a deciding answer).
// Every method is raw SQL, so the repository takes the raw executor (the `pg` pool on the hot path,
// Prisma's client elsewhere), typed as such.
import type { RawExecutor } from '../../db/pg-executor.ts';
import { newId } from '../../lib/ids.ts';
import { decideCodec, encodePlan, type ModelView, type Participant, type SettlementPlan } from '../settlement/codecs.ts';
import type { TaskStatus } from '../tasks/tasks.repository.ts';
import { allowsTie, shownPairOptions, type AnswerKind, type AnswerValue, type TaskType } from '@concord/contract';

export interface QueueFilters {
  locale?: string;
  types?: TaskType[];
}

export interface ServableTask {
  id: string;
  buyerId: string;
  type: TaskType;
  content: string;
  options: string[];
  locale: string;
  answerKind: AnswerKind;
  /** Pairwise only: the two candidates in the order this assignment shows them (its options are first, second, tie). */
  candidates?: ShownCandidates;
  /** Text only: the longest written answer. */
  maxLength?: number;
}

/** A pair as one assignment shows it. */
export interface ShownCandidates {
  first: string;
  second: string;
}

export type NextOutcome =
  { outcome: 'SERVED'; assignmentId: string; expiresAt: Date; task: ServableTask } | { outcome: 'NONE' } | { outcome: 'ANNOTATOR_SUSPENDED' };

/** The answered task as settlement needs it. */
export interface AnsweredTask {
  id: string;
  buyerId: string;
  type: TaskType;
  options: string[];
  status: TaskStatus;
  maxCents: number;
  costCents: number;
  maxResponses: number;
  totalResponses: number;
  answerKind: AnswerKind;
  allowEmpty: boolean;
}

export interface Settlement {
  /** The answer count the decision was made on; a different one under the lock makes the call STALE. */
  seenResponses: number;
  plan: SettlementPlan;
}

export type AnswerOutcome =
  | { outcome: 'ANSWERED'; next?: NextOutcome }
  | { outcome: 'STALE' }
  | { outcome: 'DECIDE'; annotatorId: string; task: AnsweredTask; participants: Participant[]; model: ModelView }
  | { outcome: 'SETTLED' }
  | { outcome: 'NOT_A_TASK'; annotatorId: string }
  | { outcome: 'ANNOTATOR_SUSPENDED' | 'ALREADY_ANSWERED' | 'NO_ASSIGNMENT' }
  | { outcome: 'TASK_CLOSED'; task: AnsweredTask }
  | { outcome: 'INVALID_ANSWER'; task: AnsweredTask };

interface NextRow {
  outcome: 'SERVED' | 'NONE' | 'ANNOTATOR_SUSPENDED';
  assignment_id: string;
  expires_at: Date;
  id: string;
  buyer_id: string;
  type: TaskType;
  content: string;
  options: string[];
  locale: string;
  answer_kind: AnswerKind;
  candidates: ShownCandidates | null;
  max_length: number | null;
}

interface AnswerRow {
  outcome: AnswerOutcome['outcome'];
  annotator_id: string;
  id: string;
  buyer_id: string;
  type: TaskType;
  options: string[];
  status: TaskStatus;
  max_cents: number;
  cost_cents: number;
  validations_needed: number;
  max_responses: number;
  total_responses: number;
  answer_kind: AnswerKind;
  allow_empty: boolean;
  /** DECIDE only (JSON, read through decideCodec). */
  participants: unknown;
  model: unknown;
  /** sdk_answer_batch only: the claim made after an ANSWERED answer that asked for `next` (sdk_next's row as JSON), or null. */
  next?: (Omit<NextRow, 'expires_at'> & { expires_at: string }) | null;
}

export interface NextRequest {
  developerId: string;
  externalId: string;
  filters: QueueFilters;
  goldenRoll: number;
  /** Below 0.5: a pairwise assignment shows B first. */
  orderRoll: number;
}

/** The served task: a pairwise task's options are the answers its annotator gives (first, second, tie), its candidates as shown. */
function servableTask(row: NextRow): ServableTask {
  const task = {
    id: row.id,
    buyerId: row.buyer_id,
    type: row.type,
    content: row.content,
    options: row.options,
    locale: row.locale,
    answerKind: row.answer_kind,
  };
  if (row.answer_kind === 'text' && row.max_length !== null) return { ...task, maxLength: row.max_length };
  if (row.answer_kind !== 'pairwise' || !row.candidates) return task;
  return { ...task, options: shownPairOptions(allowsTie(row.options)), candidates: row.candidates };
}

function toNextOutcome(row: NextRow): NextOutcome {
  if (row.outcome === 'NONE' || row.outcome === 'ANNOTATOR_SUSPENDED') return { outcome: row.outcome };
  return { outcome: 'SERVED', assignmentId: row.assignment_id, expiresAt: row.expires_at, task: servableTask(row) };
}

function toAnswerOutcome(row: AnswerRow): AnswerOutcome {
  const task: AnsweredTask = {
    id: row.id,
    buyerId: row.buyer_id,
    type: row.type,
    options: row.options,
    status: row.status,
    maxCents: row.max_cents,
    costCents: row.cost_cents,
    maxResponses: row.max_responses,
    totalResponses: row.total_responses,
    answerKind: row.answer_kind,
    allowEmpty: row.allow_empty,
  };
  switch (row.outcome) {
    case 'ANSWERED':
      return row.next ? { outcome: row.outcome, next: toNextOutcome({ ...row.next, expires_at: new Date(row.next.expires_at) }) } : { outcome: row.outcome };
    case 'DECIDE': {
      const { participants, model } = decideCodec.parse({ participants: row.participants ?? [], model: row.model });
      return { outcome: row.outcome, annotatorId: row.annotator_id, task, participants, model };
    }
    case 'NOT_A_TASK':
      return { outcome: row.outcome, annotatorId: row.annotator_id };
    case 'TASK_CLOSED':
    case 'INVALID_ANSWER':
      return { outcome: row.outcome, task };
    default:
      return { outcome: row.outcome };
  }
}

/** sdk_answer's two ways of taking an answer: one option as text, or a set as a JSON array (task_answer). */
const answerText = (answer: AnswerValue): string | null => (typeof answer === 'string' ? answer : null);
const answerChoices = (answer: AnswerValue): string | null => (Array.isArray(answer) ? JSON.stringify(answer) : null);

export interface AnswerRequest {
  developerId: string;
  externalId: string;
  taskId: string;
  /** One option, or a multi-select task's set of options. */
  answer: AnswerValue;
  timeSpentMs: number;
  /** The answer's time: its assignment must be live then. */
  now: Date;
  /** `complete` with `next`: an answer stored at once (ANSWERED) also claims the next assignment in its batch. */
  next?: { filters: QueueFilters; goldenRoll: number; orderRoll: number; expiresAt: Date };
}

/** contract §5: the chance that `next` serves a golden task in place of a regular one, before an annotator's first golden answer and after. */
export interface GoldenRates {
  rate: number;
  firstRate: number;
}

export class AssignmentsRepository {
  constructor(private readonly db: RawExecutor) {}

  /**
   * `next` for one or several annotators in one statement (sdk_next_batch): for each, their live
   * assignment, or a new one on the oldest open task that fits (or a golden task in its place, see
   * sdk_next), claimed in the order given; an annotator is created on first sight. The outcomes come
   * back in that order; all of them commit together.
   */
  async nextBatch(requests: NextRequest[], now: Date, expiresAt: Date, golden: GoldenRates): Promise<NextOutcome[]> {
    const payload = requests.map((r) => ({
      developerId: r.developerId,
      externalId: r.externalId,
      newAnnotatorId: newId(),
      assignmentId: newId(),
      locale: r.filters.locale ?? null,
      types: r.filters.types?.length ? r.filters.types : null,
      goldenRoll: r.goldenRoll,
      orderRoll: r.orderRoll,
    }));
    const rows = await this.db.$queryRaw<Array<NextRow & { request: number }>>`
      SELECT * FROM sdk_next_batch(${JSON.stringify(payload)}::jsonb, ${now}::timestamptz, ${expiresAt}::timestamptz, ${golden.rate}::float8, ${golden.firstRate}::float8)`;
    const outcomes: NextOutcome[] = requests.map(() => ({ outcome: 'NONE' }));
    for (const row of rows) outcomes[row.request] = toNextOutcome(row);
    return outcomes;
  }

  /**
   * Checks an answer to a regular task (see sdk_answer for the order of the checks) and, in one
   * autocommitted statement: without a settlement, stores it unless it could decide the task (DECIDE,
   * with the participants the decision needs, nothing written); with one, stores it and applies the
   * settlement (SETTLED) unless the task's answers changed since (STALE).
   */
  async answer(
    developerId: string,
    externalId: string,
    taskId: string,
    input: { answer: AnswerValue; timeSpentMs: number },
    now: Date,
    settlement?: Settlement,
  ): Promise<AnswerOutcome> {
    const rows = await this.db.$queryRaw<AnswerRow[]>`
      SELECT * FROM sdk_answer(${developerId}, ${externalId}, ${newId()}, ${taskId}, ${answerText(input.answer)}, ${input.timeSpentMs}::int,
                               ${newId()}, ${now}::timestamptz, ${settlement?.seenResponses ?? null}::int,
                               ${settlement ? encodePlan(settlement.plan) : null}::jsonb, ${answerChoices(input.answer)}::jsonb)`;
    const row = rows[0];
    if (!row) throw new Error('sdk_answer returned no row');
    return toAnswerOutcome(row);
  }

  /**
   * Several answers' first call (no settlement) in one statement (sdk_answer_batch); the outcomes come
   * back in the order given. The answers are checked in task order, so two batches lock tasks in the
   * same order; a lock wait over 50 ms fails the whole statement (nothing written). A request with
   * `next` whose answer is stored at once gets its next assignment claimed in the same statement, after
   * every answer of the batch (sdk_answer_batch says why).
   */
  async answerBatch(requests: AnswerRequest[], golden: GoldenRates): Promise<AnswerOutcome[]> {
    // Stable: answers to one task keep their arrival order.
    const taskOf = (i: number) => requests[i]?.taskId ?? '';
    const order = requests.map((_, i) => i).sort((a, b) => (taskOf(a) < taskOf(b) ? -1 : taskOf(a) > taskOf(b) ? 1 : 0));
    // Dates travel as ISO text (JSON).
    const payload = order.map((i) => {
      const { next, answer, ...request } = requests[i] as AnswerRequest;
      return {
        ...request,
        answer: answerText(answer),
        ...(Array.isArray(answer) ? { choices: answer } : {}),
        newAnnotatorId: newId(),
        responseId: newId(),
        next: next && {
          assignmentId: newId(),
          newAnnotatorId: newId(),
          locale: next.filters.locale ?? null,
          types: next.filters.types?.length ? next.filters.types : null,
          goldenRoll: next.goldenRoll,
          orderRoll: next.orderRoll,
          expiresAt: next.expiresAt,
        },
      };
    });
    const rows = await this.db.$queryRaw<Array<AnswerRow & { request: number }>>`
      SELECT * FROM sdk_answer_batch(${JSON.stringify(payload)}::jsonb, ${golden.rate}::float8, ${golden.firstRate}::float8)`;
    const outcomes = new Array<AnswerOutcome | undefined>(requests.length);
    for (const row of rows) {
      const index = order[row.request];
      if (index !== undefined) outcomes[index] = toAnswerOutcome(row);
    }
    return outcomes.map((outcome) => {
      if (!outcome) throw new Error('sdk_answer_batch returned too few rows');
      return outcome;
    });
  }

  /** The annotator's live assignment of this golden task (whether it shows a pair swapped), or null when they hold none. */
  async goldenAssignment(annotatorId: string, goldenTaskId: string, now: Date): Promise<{ swapped: boolean } | null> {
    const rows = await this.db.$queryRaw<Array<{ swapped: boolean }>>`
      SELECT swapped FROM assignments WHERE annotator_id = ${annotatorId} AND golden_task_id = ${goldenTaskId} AND expires_at > ${now}`;
    return rows[0] ?? null;
  }

  /**
   * Why a written answer was refused, as SQL's rules read it (written_answer_parts): the text task's
   * maxLength, the answer's length once trimmed, and whether it forges its review's layout.
   */
  async writtenAnswerRefusal(taskId: string, answer: string): Promise<{ maxLength: number | null; length: number; forged: boolean }> {
    const rows = await this.db.$queryRaw<Array<{ max_length: number | null; length: number; forged: boolean }>>`
      SELECT (SELECT max_length FROM tasks WHERE id = ${taskId}) AS max_length, char_length(w.trimmed) AS length, w.forged
      FROM written_answer_parts(${answer}) w`;
    const row = rows[0];
    return { maxLength: row?.max_length ?? null, length: row?.length ?? 0, forged: row?.forged ?? false };
  }

  /** The slot is used up by the answer. */
  async release(annotatorId: string): Promise<void> {
    await this.db.$executeRaw`DELETE FROM assignments WHERE annotator_id = ${annotatorId}`;
  }
}
