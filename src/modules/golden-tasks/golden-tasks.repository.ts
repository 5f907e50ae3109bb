import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AnswerKind, PairCandidates, TaskType } from '@concord/contract';
import { Prisma } from '../../generated/prisma/client.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';

export interface GoldenTaskRecord {
  id: string;
  buyerId: string;
  projectId: string | null;
  type: TaskType;
  content: string;
  options: string[];
  goldenAnswer: string;
  locale: string;
  answerKind: AnswerKind;
  /** Multi-select only: whether the empty set is an answer. */
  allowEmpty: boolean;
  /** Pairwise only: the two texts compared. */
  candidates: PairCandidates | null;
  timesServed: number;
  timesAnswered: number;
  timesCorrect: number;
  createdAt: Date;
}

export interface GoldenTaskInput {
  type: TaskType;
  content: string;
  options: string[];
  /** One option; for a multi-select golden task the JSON array of its options, in option order (as answers are stored). */
  goldenAnswer: string;
  locale: string;
  projectId: string | null;
  answerKind: AnswerKind;
  allowEmpty: boolean;
  candidates: PairCandidates | null;
}

/** A row as Prisma reads it: answer_kind is text there, held to the kinds by its CHECK constraint; candidates JSON of the contract's shape. */
const asRecord = <T extends { answerKind: string; candidates: unknown }>(row: T): T & { answerKind: AnswerKind; candidates: PairCandidates | null } => ({
  ...row,
  answerKind: row.answerKind as AnswerKind,
  candidates: row.candidates as PairCandidates | null,
});

export const goldenTaskNotFound = () => new NotFoundError('GOLDEN_TASK_NOT_FOUND', 'Golden task not found');

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class GoldenTasksRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  // The methods below run in the SDK's raw-SQL transactions: raw SQL only.

  async findById(id: string): Promise<GoldenTaskRecord | null> {
    const rows = await this.db.$queryRaw<GoldenTaskRecord[]>`
      SELECT id, buyer_id AS "buyerId", project_id AS "projectId", type, content, options, golden_answer AS "goldenAnswer",
             locale, answer_kind AS "answerKind", allow_empty AS "allowEmpty", candidates, times_served AS "timesServed", times_answered AS "timesAnswered", times_correct AS "timesCorrect",
             created_at AS "createdAt"
      FROM golden_tasks WHERE id = ${id}`;
    return rows[0] ?? null;
  }

  async hasAnswered(goldenTaskId: string, annotatorId: string): Promise<boolean> {
    const rows = await this.db.$queryRaw<unknown[]>`
      SELECT 1 FROM golden_responses WHERE golden_task_id = ${goldenTaskId} AND annotator_id = ${annotatorId}`;
    return rows.length > 0;
  }

  /** Stores a golden answer and scores it on the golden task; a second answer is ALREADY_ANSWERED. */
  async recordAnswer(
    goldenTaskId: string,
    annotatorId: string,
    given: { answer: string; swapped: boolean },
    timeSpentMs: number,
    correct: boolean,
  ): Promise<void> {
    try {
      await this.db.$executeRaw`
        INSERT INTO golden_responses (id, golden_task_id, annotator_id, answer, time_spent_ms, correct, swapped)
        VALUES (${newId()}, ${goldenTaskId}, ${annotatorId}, ${given.answer}, ${timeSpentMs}, ${correct}, ${given.swapped})`;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('ALREADY_ANSWERED', 'This annotator already answered this task');
      throw error;
    }
    await this.db.$executeRaw`
      UPDATE golden_tasks SET times_answered = times_answered + 1, times_correct = times_correct + ${correct ? 1 : 0}
      WHERE id = ${goldenTaskId}`;
  }
}

export class GoldenTasksRepository extends GoldenTasksRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  async create(buyerId: string, input: GoldenTaskInput): Promise<GoldenTaskRecord> {
    const { candidates, ...rest } = input;
    return asRecord(await this.db.goldenTask.create({ data: { id: newId(), buyerId, ...rest, candidates: candidates ?? Prisma.DbNull } }));
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  async list(buyerId: string, page: PageRequest): Promise<GoldenTaskRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    return (await this.db.goldenTask.findMany({ where: { buyerId, ...where }, ...rest })).map(asRecord);
  }

  async delete(buyerId: string, id: string): Promise<void> {
    const deleted = await this.db.goldenTask.deleteMany({ where: { id, buyerId } });
    if (deleted.count === 0) throw goldenTaskNotFound();
  }
}
