// Aggregates over tasks and their answers for dashboards: each one statement that PostgreSQL answers
// from an index range (a project's completed tasks, a window of days).
import type { RawExecutor } from '../../db/pg-executor.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { DayWindow } from '../../lib/day-window.ts';
import { CONFIDENCE_BUCKETS } from '@concord/contract';
import type { DecidedGroupPair } from '../../consensus/kinds/pairwise-task.ts';
// A literal in the SQL text: width_bucket takes an int count, which a bound parameter would not be.
const BUCKETS = Prisma.raw(String(CONFIDENCE_BUCKETS));

export interface Distribution {
  labels: Array<{ label: string; count: number }>;
  /** Count per bucket, index 0 = [0.0, 0.1) … index 9 = [0.9, 1.0]. */
  confidence: number[];
  completed: number;
}

/** A decided pair of a group as a ranking reads it (DecidedGroupPair), from a task row aliased `t`. */
export const GROUP_PAIR_COLUMNS = Prisma.raw(`t.pair_group AS "group", t.candidates, t.result, t.confidence, 'tie' = ANY (t.options) AS "allowTie"`);

/** The kinds' own figures over a project's COMPLETED tasks (the project page's charts by kind). */
export interface KindFigures {
  /** COMPLETED tasks per answer kind. */
  kinds: Array<{ answerKind: string; count: number }>;
  /** Rating tasks by scale (the levels in order) and decided level. */
  ratings: Array<{ levels: string[]; result: string; count: number }>;
  /** Multi-select tasks: how many hold each option (and how many each option could appear in). */
  multiOptions: Array<{ option: string; chosen: number; tasks: number }>;
}

export interface PlatformDay {
  date: string;
  created: number;
  completed: number;
  failed: number;
  answers: number;
}

export class TaskStatsRepository {
  constructor(private readonly db: RawExecutor) {}

  /**
   * Results and confidence buckets of a project's COMPLETED tasks, in one pass over them (the
   * (project_id, status) index): GROUPING SETS counts by label, by bucket and in total at once.
   */
  async projectDistribution(projectId: string): Promise<Distribution> {
    // A multi-select task's result is the JSON array of its set (task_answer): it counts once per option. A
    // text task's result is a written answer, not a label, and its review's ("Answer 2") names no label
    // either: they count in the confidence and the total only.
    const rows = await this.db.$queryRaw<Array<{ label: string | null; bucket: number | null; byLabel: boolean; byBucket: boolean; count: number }>>`
      WITH completed AS (
        SELECT result, answer_kind, review_of, LEAST(width_bucket(confidence, 0, 1, ${BUCKETS}), ${BUCKETS}) AS bucket
        FROM tasks WHERE project_id = ${projectId} AND status = 'COMPLETED'
      )
      SELECT label, NULL::int AS bucket, true AS "byLabel", false AS "byBucket", count(*)::int AS count
      FROM completed CROSS JOIN LATERAL (
        SELECT completed.result AS label WHERE completed.answer_kind NOT IN ('multi', 'text') AND completed.review_of IS NULL
        UNION ALL
        SELECT jsonb_array_elements_text(completed.result::jsonb) WHERE completed.answer_kind = 'multi'
      ) labels
      GROUP BY label
      UNION ALL
      SELECT NULL, bucket, false, true, count(*)::int FROM completed GROUP BY bucket
      UNION ALL
      SELECT NULL, NULL, false, false, count(*)::int FROM completed
      ORDER BY count DESC, label`;
    const distribution: Distribution = { labels: [], confidence: new Array<number>(CONFIDENCE_BUCKETS).fill(0), completed: 0 };
    for (const row of rows) {
      if (row.byLabel && row.label !== null) distribution.labels.push({ label: row.label, count: row.count });
      else if (row.byBucket && row.bucket !== null) distribution.confidence[row.bucket - 1] = row.count;
      else if (!row.byLabel && !row.byBucket) distribution.completed = row.count;
    }
    return distribution;
  }

  /** The decided pairs of a project's pairwise groups (the (project_id, status) index). */
  async projectGroupPairs(projectId: string): Promise<DecidedGroupPair[]> {
    return this.db.$queryRaw<DecidedGroupPair[]>`
      SELECT ${GROUP_PAIR_COLUMNS} FROM tasks t
      WHERE t.project_id = ${projectId} AND t.status = 'COMPLETED' AND t.answer_kind = 'pairwise' AND t.pair_group IS NOT NULL`;
  }

  /** Every annotator's 3×3 table in a project's pairwise scope, most answers first, and the scope's typical annotator (prior_shape). */
  async projectPairCounts(projectId: string, buyerId: string, limit: number): Promise<{ tables: number[][]; priorShape: number[] | null }> {
    const key = Prisma.sql`task_scope_key(${projectId}, ${buyerId}, ARRAY['A', 'B'], 'pairwise')`;
    const [tables, scopes] = await Promise.all([
      this.db.$queryRaw<Array<{ matrix: number[] }>>`
        SELECT matrix FROM annotator_scope_counts WHERE scope_key = ${key} ORDER BY answered DESC, annotator_id LIMIT ${limit}`,
      this.db.$queryRaw<Array<{ prior_shape: number[] }>>`SELECT prior_shape FROM label_scopes WHERE key = ${key}`,
    ]);
    return { tables: tables.map((row) => row.matrix), priorShape: scopes[0]?.prior_shape ?? null };
  }

  /** Per kind, over a project's COMPLETED tasks (the (project_id, status) index): counts, rating levels, multi-select options. */
  async projectKindFigures(projectId: string): Promise<KindFigures> {
    const [kinds, ratings, multiOptions] = await Promise.all([
      // A text task's review is counted with its text task, not as a single-choice task of its own.
      this.db.$queryRaw<KindFigures['kinds']>`
        SELECT answer_kind AS "answerKind", count(*)::int AS count FROM tasks
        WHERE project_id = ${projectId} AND status = 'COMPLETED' AND review_of IS NULL GROUP BY answer_kind ORDER BY count DESC, answer_kind`,
      this.db.$queryRaw<KindFigures['ratings']>`
        SELECT options AS levels, result, count(*)::int AS count FROM tasks
        WHERE project_id = ${projectId} AND status = 'COMPLETED' AND answer_kind = 'rating' GROUP BY options, result`,
      this.db.$queryRaw<KindFigures['multiOptions']>`
        SELECT o.option, count(*) FILTER (WHERE t.result::jsonb ? o.option)::int AS chosen, count(*)::int AS tasks
        FROM tasks t CROSS JOIN LATERAL unnest(t.options) AS o(option)
        WHERE t.project_id = ${projectId} AND t.status = 'COMPLETED' AND t.answer_kind = 'multi'
        GROUP BY o.option ORDER BY chosen DESC, o.option`,
    ]);
    return { kinds, ratings, multiOptions };
  }

  /**
   * Platform-wide per UTC day of the window, every day present: tasks created, COMPLETED (by
   * validated_at), FAILED (by failed_at), and answers to regular tasks (golden answers live in their
   * own table). Four counts, each through its own index (BRIN on created_at for tasks and answers,
   * partial indexes on validated_at and failed_at), so the cost follows the rows inside the window, not
   * the whole history: about 2 s for 1.7 M rows in the window on the 2-core machine; the dashboard
   * reads it once a minute.
   */
  async platformDaily(window: DayWindow): Promise<PlatformDay[]> {
    const { from, to } = window;
    return this.db.$queryRaw<PlatformDay[]>`
      WITH created AS (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM tasks
        WHERE created_at >= ${from} AND created_at < ${to} GROUP BY 1
      ), completed AS (
        SELECT (validated_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM tasks
        WHERE status = 'COMPLETED' AND validated_at >= ${from} AND validated_at < ${to} GROUP BY 1
      ), failed AS (
        SELECT (failed_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM tasks
        WHERE status = 'FAILED' AND failed_at >= ${from} AND failed_at < ${to} GROUP BY 1
      ), answers AS (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM task_responses
        WHERE created_at >= ${from} AND created_at < ${to} GROUP BY 1
      )
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date, COALESCE(c.n, 0)::int AS created, COALESCE(v.n, 0)::int AS completed,
             COALESCE(f.n, 0)::int AS failed, COALESCE(a.n, 0)::int AS answers
      FROM generate_series(${window.firstDay}::date, ${window.lastDay}::date, interval '1 day') AS d(day)
      LEFT JOIN created c ON c.day = d.day
      LEFT JOIN completed v ON v.day = d.day
      LEFT JOIN failed f ON f.day = d.day
      LEFT JOIN answers a ON a.day = d.day
      ORDER BY d.day`;
  }
}
