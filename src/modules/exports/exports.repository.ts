// Reads an export as a stream: one pg connection, one REPEATABLE READ snapshot for the count and every
// file (so a split is a true partition even while tasks complete), and server-side cursors fetched a
// page at a time, so memory stays flat however many tasks there are.
import type pg from 'pg';
import { Prisma } from '../../generated/prisma/client.ts';
import type { TaskType } from '../tasks/task-rules.ts';
import type { ExportRecord } from './export-formats.ts';

export interface ExportFilters {
  buyerId: string;
  status: string;
  projectId?: string;
  type?: string;
  locale?: string;
}

/** A split: ranks of the deterministic shuffle (keyed by seed and task id) up to `trainEnd` are train, up to `valEnd` val, the rest test. */
export interface SplitPlan {
  seed: string;
  trainEnd: number;
  valEnd: number;
}

export type Bucket = 0 | 1 | 2;

const PAGE = 2_000;

interface Row {
  id: string;
  type: TaskType;
  content: string;
  options: string[];
  result: string | null;
  confidence: number | null;
  locale: string;
  validated_at: Date | null;
  bucket: Bucket;
}

function where(filters: ExportFilters): Prisma.Sql {
  const conditions = [Prisma.sql`buyer_id = ${filters.buyerId}`, Prisma.sql`status = ${filters.status}::"TaskStatus"`];
  if (filters.projectId) conditions.push(Prisma.sql`project_id = ${filters.projectId}`);
  if (filters.type) conditions.push(Prisma.sql`type = ${filters.type}::"TaskType"`);
  if (filters.locale) conditions.push(Prisma.sql`locale = ${filters.locale}`);
  return Prisma.join(conditions, ' AND ');
}

export class ExportSession {
  private cursors = 0;
  private closed = false;
  /** The FETCH under way, which close() lets finish before rolling back (a pg client runs one query at a time). */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly filters: ExportFilters,
  ) {}

  /** Ends the snapshot and gives the connection back (a broken one is discarded). Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.inFlight.catch(() => undefined);
    const failure = await this.client.query('ROLLBACK').then(() => undefined, (error: unknown) => error);
    this.client.release(failure instanceof Error ? failure : undefined);
  }

  async count(): Promise<number> {
    const query = Prisma.sql`SELECT count(*)::int AS n FROM tasks WHERE ${where(this.filters)}`;
    const result = await this.client.query<{ n: number }>(query.text, query.values);
    return result.rows[0]?.n ?? 0;
  }

  /**
   * The records ordered by validatedAt then id, a page at a time; for a split, in one pass ordered by
   * bucket first (train, then val, then test), each record tagged with its bucket.
   */
  async *records(split?: SplitPlan): AsyncGenerator<ExportRecord & { bucket: Bucket }> {
    const columns = Prisma.raw('id, type, content, options, result, confidence, locale, validated_at');
    const query = split
      ? Prisma.sql`SELECT ${columns}, CASE WHEN rank <= ${split.trainEnd} THEN 0 WHEN rank <= ${split.valEnd} THEN 1 ELSE 2 END AS bucket
        FROM (
          SELECT ${columns}, row_number() OVER (ORDER BY md5(${split.seed} || ':' || id), id) AS rank
          FROM tasks WHERE ${where(this.filters)}
        ) ranked ORDER BY bucket, validated_at NULLS LAST, id`
      : Prisma.sql`SELECT ${columns}, 0 AS bucket FROM tasks WHERE ${where(this.filters)} ORDER BY validated_at NULLS LAST, id`;
    const name = `export_${++this.cursors}`;
    if (this.closed) return;
    const declaring = this.client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${query.text}`, query.values);
    this.inFlight = declaring;
    await declaring;
    try {
      for (;;) {
        if (this.closed) return;
        const fetching = this.client.query<Row>(`FETCH ${PAGE} FROM ${name}`);
        this.inFlight = fetching;
        const page = await fetching;
        for (const row of page.rows) {
          yield {
            id: row.id,
            type: row.type,
            content: row.content,
            options: row.options,
            label: row.result,
            confidence: row.confidence,
            locale: row.locale,
            validatedAt: row.validated_at,
            bucket: row.bucket,
          };
        }
        if (page.rows.length < PAGE) return;
      }
    } finally {
      // After close() the connection is back in the pool: it is no longer ours to use.
      if (!this.closed) await this.client.query(`CLOSE ${name}`).catch(() => undefined);
    }
  }
}

export class ExportsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Opens a read-only snapshot on its own connection; `close()` gives the connection back. */
  async open(filters: ExportFilters): Promise<ExportSession> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (error) {
      client.release(error instanceof Error ? error : undefined);
      throw error;
    }
    return new ExportSession(client, filters);
  }
}
