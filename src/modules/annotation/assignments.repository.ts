// The work queue. An annotator holds at most one assignment (the primary key is the annotator); a task
// never has more answers plus live assignments than its maxResponses. Concurrent callers lock candidate
// task rows with FOR UPDATE SKIP LOCKED and recount under the lock, so neither a second caller nor a
// second server process can over-assign a task.
import type { DbClient } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import type { TaskType } from '../tasks/task-rules.ts';

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
}

export interface AssignmentRecord {
  id: string;
  taskId: string | null;
  goldenTaskId: string | null;
  expiresAt: Date;
}

/** How many locked-but-full candidates to step over before giving up on this call. */
const CLAIM_ATTEMPTS = 8;

export class AssignmentsRepository {
  constructor(private readonly db: DbClient) {}

  /** The annotator's assignment if it is still live and its target still takes answers. */
  async live(annotatorId: string, now: Date): Promise<AssignmentRecord | null> {
    const rows = await this.db.$queryRaw<AssignmentRecord[]>`
      SELECT a.id, a.task_id AS "taskId", a.golden_task_id AS "goldenTaskId", a.expires_at AS "expiresAt"
      FROM assignments a LEFT JOIN tasks t ON t.id = a.task_id
      WHERE a.annotator_id = ${annotatorId} AND a.expires_at > ${now}
        AND (a.golden_task_id IS NOT NULL OR t.status IN ('PENDING', 'VALIDATING'))`;
    return rows[0] ?? null;
  }

  /**
   * Locks the oldest open task that matches, that this annotator has not answered, and that has a free
   * slot; returns it, or null when nothing fits. The lock lasts until the transaction ends.
   */
  async claimOldestOpenTask(annotatorId: string, filters: QueueFilters, now: Date): Promise<ServableTask | null> {
    const conditions = [
      Prisma.sql`t.status IN ('PENDING', 'VALIDATING')`,
      Prisma.sql`t.total_responses + (SELECT count(*) FROM assignments a WHERE a.task_id = t.id AND a.expires_at > ${now}) < t.max_responses`,
      Prisma.sql`NOT EXISTS (SELECT 1 FROM task_responses r WHERE r.task_id = t.id AND r.annotator_id = ${annotatorId})`,
    ];
    if (filters.locale) conditions.push(Prisma.sql`t.locale = ${filters.locale}`);
    if (filters.types?.length) conditions.push(Prisma.sql`t.type::text = ANY(${filters.types}::text[])`);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const rows = await this.db.$queryRaw<ServableTask[]>`
        SELECT t.id, t.buyer_id AS "buyerId", t.type, t.content, t.options, t.locale
        FROM tasks t WHERE ${Prisma.join(conditions, ' AND ')}
        ORDER BY t.created_at, t.id LIMIT 1
        FOR UPDATE OF t SKIP LOCKED`;
      const candidate = rows[0];
      if (!candidate) return null;
      // The candidate was chosen on a snapshot taken before its lock was granted: recount now.
      const free = await this.db.$queryRaw<Array<{ free: boolean }>>`
        SELECT t.status IN ('PENDING', 'VALIDATING')
               AND t.total_responses + (SELECT count(*) FROM assignments a WHERE a.task_id = t.id AND a.expires_at > ${now}) < t.max_responses AS free
        FROM tasks t WHERE t.id = ${candidate.id}`;
      if (free[0]?.free) return candidate;
    }
    return null;
  }

  /** Gives the annotator this assignment, replacing an expired or finished one. */
  async assign(annotatorId: string, target: { taskId: string } | { goldenTaskId: string }, expiresAt: Date): Promise<AssignmentRecord> {
    const id = newId();
    const taskId = 'taskId' in target ? target.taskId : null;
    const goldenTaskId = 'goldenTaskId' in target ? target.goldenTaskId : null;
    await this.db.$executeRaw`
      INSERT INTO assignments (annotator_id, id, task_id, golden_task_id, expires_at, created_at)
      VALUES (${annotatorId}, ${id}, ${taskId}, ${goldenTaskId}, ${expiresAt}, now())
      ON CONFLICT (annotator_id) DO UPDATE SET id = EXCLUDED.id, task_id = EXCLUDED.task_id,
        golden_task_id = EXCLUDED.golden_task_id, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`;
    return { id, taskId, goldenTaskId, expiresAt };
  }

  /** Whether the annotator holds a live assignment of this task (or golden task). */
  async holds(annotatorId: string, target: { taskId: string } | { goldenTaskId: string }, now: Date): Promise<boolean> {
    const rows =
      'taskId' in target
        ? await this.db.$queryRaw<unknown[]>`
            SELECT 1 FROM assignments WHERE annotator_id = ${annotatorId} AND task_id = ${target.taskId} AND expires_at > ${now}`
        : await this.db.$queryRaw<unknown[]>`
            SELECT 1 FROM assignments WHERE annotator_id = ${annotatorId} AND golden_task_id = ${target.goldenTaskId} AND expires_at > ${now}`;
    return rows.length === 1;
  }

  /** What an assignment shows the annotator: its task or golden task, looked alike. */
  async target(assignment: AssignmentRecord): Promise<ServableTask | null> {
    const rows = assignment.taskId
      ? await this.db.$queryRaw<ServableTask[]>`
          SELECT id, buyer_id AS "buyerId", type, content, options, locale FROM tasks WHERE id = ${assignment.taskId}`
      : await this.db.$queryRaw<ServableTask[]>`
          SELECT id, buyer_id AS "buyerId", type, content, options, locale FROM golden_tasks WHERE id = ${assignment.goldenTaskId}`;
    return rows[0] ?? null;
  }

  /** The slot is used up by the answer. */
  async release(annotatorId: string): Promise<void> {
    await this.db.$executeRaw`DELETE FROM assignments WHERE annotator_id = ${annotatorId}`;
  }
}
