import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { toCents } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import type { Cursor } from '../../lib/pagination.ts';
import type { TaskQuality } from './task-quality.ts';
import {
  DEFAULT_TEXT_MAX_LENGTH,
  kindPriceCents,
  type AnswerKind,
  type PairCandidates,
  type RatingResult,
  type TaskInput,
  type TaskType,
} from '@concord/contract';

export type TaskStatus = 'PENDING' | 'VALIDATING' | 'COMPLETED' | 'FAILED';
export type StatusCounts = Record<TaskStatus, number>;

export interface TaskRecord {
  id: string;
  buyerId: string;
  projectId: string | null;
  type: TaskType;
  content: string;
  options: string[];
  locale: string;
  maxCents: number;
  costCents: number;
  validationsNeeded: number;
  maxResponses: number;
  targetConfidence: number;
  status: TaskStatus;
  answerKind: AnswerKind;
  /** Multi-select only: whether the empty set is an answer and a result. */
  allowEmpty: boolean;
  /** Pairwise only: the two texts compared (null for every other kind). */
  candidates: PairCandidates | null;
  /** Pairwise only: the group whose candidates are ranked together, if any. */
  pairGroup: string | null;
  /** Text only: the longest written answer, in characters. */
  maxLength: number | null;
  /** A review task: the text task whose written answers it chooses between. */
  reviewOf: string | null;
  /** A text task: its review task once the writing is complete (open_text_review), else null. */
  reviewTaskId: string | null;
  /** The option; for a multi-select task the JSON array of the options chosen, in option order (task_answer). */
  result: string | null;
  confidence: number | null;
  /** What the result carries beyond the option, by kind (a rating's mean and interval); null for single choice. */
  resultDetails: ResultDetails | null;
  failureReason: string | null;
  /** Set while the task is held by its project's budget cap (capAction hold): not reserved, not served. */
  heldAt: Date | null;
  /** When a held task was released: its budget counts in that month for the monthly cap. */
  releasedAt: Date | null;
  /** When it stops taking answers and ends FAILED with failureReason EXPIRED, if still open; null: never. */
  deadline: Date | null;
  /** −10 … 10: orders the buyer's own tasks in next. */
  priority: number;
  /** 1; 2 once its result was rejected and the task reopened. */
  revision: number;
  /** The rejected result (as stored), its confidence, when and why; null unless rejected. */
  rejection: { result: string; confidence: number | null; reason: string; at: Date } | null;
  totalResponses: number;
  createdAt: Date;
  validatedAt: Date | null;
}

/** What tasks.result_details holds: a rating's posterior mean and 90 % interval; a multi-select task's confidence per option. */
export interface ResultDetails {
  rating?: RatingResult;
  optionConfidence?: Record<string, number>;
}

export interface TaskResponseRecord {
  /** As stored: a multi-select answer is the JSON array of its options. */
  answer: string;
  timeSpentMs: number;
  /** Pairwise: the answer was given with B shown first. */
  swapped: boolean;
}

export interface TaskFilters {
  status?: TaskStatus;
  type?: TaskType;
  projectId?: string;
  locale?: string;
  answerKind?: AnswerKind;
  /** A project-scoped key's projects: only their tasks. */
  projectIds?: readonly string[];
}

/** What PATCH /tasks/:id may change. */
export interface TaskChanges {
  maxCents?: number;
  validationsNeeded?: number;
  locale?: string;
  projectId?: string | null;
  /** An open task's deadline and priority (the others need a PENDING task). */
  deadline?: Date | null;
  priority?: number;
}

/** A task to insert: valid, with its quality settings and its deadline (its own, or its project's default) resolved. */
export type NewTask = TaskInput & TaskQuality & { deadlineAt: Date | null };

export interface CreatedTask {
  id: string;
  projectId: string | null;
  type: TaskType;
  /** What the task costs once decided: the price, twice for a text task (its writing and its review task). */
  costCents: number;
  maxCents: number;
}

const select = {
  id: true,
  buyerId: true,
  projectId: true,
  type: true,
  content: true,
  options: true,
  locale: true,
  maxCents: true,
  costCents: true,
  validationsNeeded: true,
  maxResponses: true,
  targetConfidence: true,
  status: true,
  answerKind: true,
  allowEmpty: true,
  candidates: true,
  pairGroup: true,
  maxLength: true,
  reviewOf: true,
  result: true,
  confidence: true,
  resultDetails: true,
  failureReason: true,
  heldAt: true,
  releasedAt: true,
  deadline: true,
  priority: true,
  revision: true,
  rejectedAt: true,
  rejectionReason: true,
  rejectedResult: true,
  rejectedConfidence: true,
  totalResponses: true,
  createdAt: true,
  validatedAt: true,
} as const;

interface TaskRow {
  id: string;
  buyer_id: string;
  project_id: string | null;
  type: TaskType;
  content: string;
  options: string[];
  locale: string;
  max_cents: number;
  cost_cents: number;
  validations_needed: number;
  max_responses: number;
  target_confidence: number;
  status: TaskStatus;
  answer_kind: AnswerKind;
  allow_empty: boolean;
  candidates: PairCandidates | null;
  pair_group: string | null;
  max_length: number | null;
  review_of: string | null;
  review_task_id: string | null;
  result: string | null;
  confidence: number | null;
  result_details: ResultDetails | null;
  failure_reason: string | null;
  held_at: Date | null;
  released_at: Date | null;
  deadline: Date | null;
  priority: number;
  revision: number;
  rejected_at: Date | null;
  rejection_reason: string | null;
  rejected_result: string | null;
  rejected_confidence: number | null;
  total_responses: number;
  created_at: Date;
  validated_at: Date | null;
}

/** How many of a buyer's latest completed tasks the at-risk list's medians are taken from. */
const AT_RISK_SAMPLE = 2_000;

const TASK_COLUMNS = Prisma.raw(
  'id, buyer_id, project_id, type, content, options, locale, max_cents, cost_cents, validations_needed, max_responses, target_confidence, ' +
    'status, answer_kind, allow_empty, candidates, pair_group, max_length, review_of, result, confidence, result_details, failure_reason, held_at, released_at, deadline, priority, revision, rejected_at, rejection_reason, rejected_result, rejected_confidence, total_responses, created_at, validated_at, ' +
    // A text task's review, through the unique index on review_of (only text tasks have one).
    "CASE WHEN answer_kind = 'text' THEN (SELECT r.id FROM tasks r WHERE r.review_of = tasks.id) END AS review_task_id",
);

function fromRow(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    buyerId: row.buyer_id,
    projectId: row.project_id,
    type: row.type,
    content: row.content,
    options: row.options,
    locale: row.locale,
    maxCents: row.max_cents,
    costCents: row.cost_cents,
    validationsNeeded: row.validations_needed,
    maxResponses: row.max_responses,
    targetConfidence: row.target_confidence,
    status: row.status,
    answerKind: row.answer_kind,
    allowEmpty: row.allow_empty,
    candidates: row.candidates,
    pairGroup: row.pair_group,
    maxLength: row.max_length,
    reviewOf: row.review_of,
    reviewTaskId: row.review_task_id,
    result: row.result,
    confidence: row.confidence,
    resultDetails: row.result_details,
    failureReason: row.failure_reason,
    heldAt: row.held_at,
    releasedAt: row.released_at,
    deadline: row.deadline,
    priority: row.priority,
    revision: row.revision,
    rejection: rejectionOf({ at: row.rejected_at, reason: row.rejection_reason, result: row.rejected_result, confidence: row.rejected_confidence }),
    totalResponses: row.total_responses,
    createdAt: row.created_at,
    validatedAt: row.validated_at,
  };
}

/** A task's rejection, from its columns: present once a rejection wrote them all. */
function rejectionOf(columns: { at: Date | null; reason: string | null; result: string | null; confidence: number | null }): TaskRecord['rejection'] {
  const { at, reason, result, confidence } = columns;
  return at === null || reason === null || result === null ? null : { at, reason, result, confidence };
}

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class TasksRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /**
   * Inserts every task in one statement: the rows travel as one JSON parameter and
   * jsonb_to_recordset turns them back into typed columns (options become text[]). Each task comes with
   * its quality settings already resolved (tasks.service's taskQualityFor).
   */
  async insertMany(buyerId: string, tasks: NewTask[], costCents: number): Promise<CreatedTask[]> {
    const rows = tasks.map((task) => ({
      id: newId(),
      project_id: task.projectId,
      type: task.type,
      content: task.content,
      options: task.options,
      locale: task.locale,
      max_cents: task.maxCents,
      validations_needed: task.validationsNeeded,
      max_responses: task.maxResponses,
      target_confidence: task.targetConfidence,
      answer_kind: task.answerKind,
      allow_empty: task.allowEmpty ?? false,
      candidates: task.candidates ?? null,
      pair_group: task.group ?? null,
      max_length: task.answerKind === 'text' ? (task.maxLength ?? DEFAULT_TEXT_MAX_LENGTH) : null,
      deadline: task.deadlineAt?.toISOString() ?? null,
      priority: task.priority,
    }));
    await this.db.$executeRaw`
      INSERT INTO tasks (id, buyer_id, project_id, type, content, options, locale, max_cents, cost_cents,
                         validations_needed, max_responses, target_confidence, answer_kind, allow_empty, candidates, pair_group, max_length,
                         deadline, priority)
      SELECT r.id, ${buyerId}, r.project_id, r.type::"TaskType", r.content, r.options, r.locale, r.max_cents,
             ${costCents}, r.validations_needed, r.max_responses, r.target_confidence, r.answer_kind, r.allow_empty,
             r.candidates, r.pair_group, r.max_length, r.deadline, r.priority
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
        id text, project_id text, type text, content text, options text[], locale text, max_cents int,
        validations_needed int, max_responses int, target_confidence double precision, answer_kind text, allow_empty boolean,
        candidates jsonb, pair_group text, max_length int, deadline timestamptz, priority smallint)`;
    return rows.map((row) => ({
      id: row.id,
      projectId: row.project_id,
      type: row.type,
      costCents: kindPriceCents(row.answer_kind, costCents),
      maxCents: row.max_cents,
    }));
  }

  /** Locks the task row for the rest of the transaction (answers, updates and deletes serialise on it). */
  async lockForBuyer(buyerId: string, id: string): Promise<TaskRecord | null> {
    const rows = await this.db.$queryRaw<TaskRow[]>`
      SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ${id} AND buyer_id = ${buyerId} FOR UPDATE`;
    const row = rows[0];
    return row ? fromRow(row) : null;
  }

  /**
   * Newest first by (createdAt, id); reads `limit + 1` rows so the caller can tell whether more remain.
   * The row-value comparison `(created_at, id) < (…)` lets PostgreSQL start the index scan at the
   * cursor, so a page deep in a million tasks costs what the first page costs.
   */
  async list(buyerId: string, filters: TaskFilters, limit: number, after?: Cursor): Promise<TaskRecord[]> {
    const conditions = [Prisma.sql`buyer_id = ${buyerId}`];
    if (filters.status) conditions.push(Prisma.sql`status = ${filters.status}::"TaskStatus"`);
    if (filters.type) conditions.push(Prisma.sql`type = ${filters.type}::"TaskType"`);
    if (filters.projectId) conditions.push(Prisma.sql`project_id = ${filters.projectId}`);
    if (filters.projectIds) conditions.push(Prisma.sql`project_id = ANY(${[...filters.projectIds]}::text[])`);
    if (filters.locale) conditions.push(Prisma.sql`locale = ${filters.locale}`);
    if (filters.answerKind) conditions.push(Prisma.sql`answer_kind = ${filters.answerKind}`);
    if (after) conditions.push(Prisma.sql`(created_at, id) < (${after.createdAt}::timestamptz, ${after.id})`);
    const rows = await this.db.$queryRaw<TaskRow[]>`
      SELECT ${TASK_COLUMNS} FROM tasks WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`;
    return rows.map(fromRow);
  }

  /**
   * Closes up to `slots.length` open tasks past their deadline (expire_tasks.sql: FAILED, EXPIRED, the
   * reservation released by a settlement effect, a task.failed event per task using its slot's ids).
   */
  async expireDue(now: Date, slots: Array<{ id: string; deliveryIds: string[] }>): Promise<Array<{ taskId: string; buyerId: string }>> {
    const rows = await this.db.$queryRaw<Array<{ task_id: string; buyer_id: string }>>`
      SELECT task_id, buyer_id FROM expire_tasks(${now}::timestamptz, ${JSON.stringify(slots)}::jsonb)`;
    return rows.map((row) => ({ taskId: row.task_id, buyerId: row.buyer_id }));
  }

  /**
   * A buyer's open tasks with a deadline nearer than the median creation-to-completion time of their
   * project (tasks without a project: of the buyer's tasks without one), soonest deadline first, `limit + 1`
   * rows. The medians come from the buyer's last AT_RISK_SAMPLE completed tasks (review tasks left out: a
   * text task's completion includes its review); a project without any is compared with `defaultMs`. The
   * keyset cursor is on (deadline, id).
   */
  async atRisk(
    buyerId: string,
    filters: { projectId?: string; projectIds?: readonly string[] },
    now: Date,
    defaultMs: number,
    limit: number,
    after?: Cursor,
  ): Promise<Array<TaskRecord & { medianCompletionMs: number; medianKnown: boolean }>> {
    const conditions = [Prisma.sql`buyer_id = ${buyerId}`, Prisma.sql`deadline IS NOT NULL`, Prisma.sql`status IN ('PENDING', 'VALIDATING')`];
    if (filters.projectId) conditions.push(Prisma.sql`project_id = ${filters.projectId}`);
    if (filters.projectIds) conditions.push(Prisma.sql`project_id = ANY(${[...filters.projectIds]}::text[])`);
    // The cursor's time is the last row's deadline: the list is soonest deadline first.
    if (after) conditions.push(Prisma.sql`(deadline, id) > (${after.createdAt}::timestamptz, ${after.id})`);
    const rows = await this.db.$queryRaw<Array<TaskRow & { median_ms: number | null }>>`
      WITH recent AS (
        SELECT project_id, EXTRACT(EPOCH FROM validated_at - created_at) * 1000 AS ms FROM tasks
        WHERE buyer_id = ${buyerId} AND status = 'COMPLETED' AND review_of IS NULL
        ORDER BY validated_at DESC LIMIT ${AT_RISK_SAMPLE}
      ), medians AS (
        SELECT project_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS median_ms FROM recent GROUP BY project_id
      )
      SELECT ${TASK_COLUMNS}, own.median_ms
      FROM tasks
      LEFT JOIN LATERAL (SELECT m.median_ms FROM medians m WHERE m.project_id IS NOT DISTINCT FROM tasks.project_id) own ON true
      WHERE ${Prisma.join(conditions, ' AND ')}
        AND deadline < ${now}::timestamptz + make_interval(secs => coalesce(own.median_ms, ${defaultMs}) / 1000.0)
      ORDER BY deadline, id LIMIT ${limit + 1}`;
    return rows.map((row) => ({
      ...fromRow(row),
      medianCompletionMs: Math.round(Number(row.median_ms ?? defaultMs)),
      medianKnown: row.median_ms !== null,
    }));
  }

  /** Median creation-to-validation time of the tasks of a type validated since `since`, if any. */
  async medianCompletionMs(type: TaskType, since: Date): Promise<number | null> {
    const rows = await this.db.$queryRaw<Array<{ median: number | null }>>`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM validated_at - created_at) * 1000) AS median
      FROM tasks WHERE type = ${type}::"TaskType" AND status = 'COMPLETED' AND validated_at >= ${since}`;
    const median = rows[0]?.median;
    return median === null || median === undefined ? null : Math.round(Number(median));
  }
}

export class TasksRepository extends TasksRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  async findForBuyer(buyerId: string, id: string): Promise<TaskRecord | null> {
    const found = await this.db.task.findFirst({ where: { id, buyerId }, select: { ...select, review: { select: { id: true } } } });
    if (!found) return null;
    const { review, rejectedAt, rejectionReason, rejectedResult, rejectedConfidence, ...task } = found;
    // The columns' CHECK constraint and settle_task hold these to their types; Prisma types them as text and JSON.
    return {
      ...task,
      reviewTaskId: review?.id ?? null,
      rejection: rejectionOf({ at: rejectedAt, reason: rejectionReason, result: rejectedResult, confidence: rejectedConfidence }),
      answerKind: task.answerKind as AnswerKind,
      candidates: task.candidates as PairCandidates | null,
      resultDetails: task.resultDetails as ResultDetails | null,
    };
  }

  async responses(taskId: string): Promise<TaskResponseRecord[]> {
    return this.db.taskResponse.findMany({
      where: { taskId },
      select: { answer: true, timeSpentMs: true, swapped: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async update(id: string, changes: TaskChanges & Partial<TaskQuality>): Promise<void> {
    await this.db.task.update({ where: { id }, data: changes });
  }

  async delete(id: string): Promise<void> {
    await this.db.task.delete({ where: { id } });
  }

  /**
   * Task counts by status, platform-wide, for one project, or for a buyer with the GET /tasks filters but
   * status (one GROUP BY; a buyer's runs on the (buyer_id, status, created_at, id) index).
   */
  async countByStatus(filter: Omit<TaskFilters, 'status'> & { buyerId?: string; reviewOf?: null } = {}): Promise<StatusCounts> {
    const { projectIds, ...where } = filter;
    const scoped = projectIds ? { AND: [where, { projectId: { in: [...projectIds] } }] } : where;
    const groups = await this.db.task.groupBy({ by: ['status'], where: scoped, _count: { _all: true } });
    const counts: StatusCounts = { PENDING: 0, VALIDATING: 0, COMPLETED: 0, FAILED: 0 };
    for (const group of groups) counts[group.status] = group._count._all;
    return counts;
  }

  /** What the completed tasks of a project cost. */
  async sumCompletedCost(projectId: string): Promise<number> {
    const spent = await this.db.task.aggregate({ where: { projectId, status: 'COMPLETED' }, _sum: { costCents: true } });
    return toCents(spent._sum.costCents ?? 0);
  }
}
