// Reads an export as a stream: one pg connection, one REPEATABLE READ snapshot for the count, the split's
// boundaries and the records (so a split is a true partition even while tasks complete), and a
// server-side cursor fetched a page at a time, so memory stays flat however many tasks there are.
import type pg from 'pg';
import { Prisma } from '../../generated/prisma/client.ts';
import type { AnswerKind, TaskType } from '@concord/contract';
import type { ExportRecord } from './export-formats.ts';
import type { RankedCandidate } from '../../consensus/kinds/pairwise.ts';
import type { DecidedGroupPair } from '../../consensus/kinds/pairwise-task.ts';
import { GROUP_PAIR_COLUMNS } from '../tasks/task-stats.repository.ts';

export interface ExportFilters {
  buyerId: string;
  status: string;
  projectId?: string;
  type?: string;
  locale?: string;
  minConfidence?: number;
  /** The preference format: pairwise tasks only, ties left out unless `includeTies`. */
  pairs?: { includeTies: boolean };
}

/**
 * Where a split cuts the shuffle. The deterministic shuffle ranks the selection by (shuffle key, id), the
 * key being PostgreSQL's stable 64-bit text hash of `seed:id`; ranks up to trainEnd are train, up to
 * valEnd val, the rest test. The cut is given by the (key, id) at those two ranks (null for rank 0), so
 * no query ever sorts whole records by the shuffle.
 */
export interface SplitCut {
  seed: string;
  lastTrain: Boundary | null;
  lastVal: Boundary | null;
}

export type Bucket = 0 | 1 | 2;

/** A position in the shuffle: its key (a bigint, as text) and the task id that breaks ties. */
export interface Boundary {
  key: string;
  id: string;
}

const PAGE = 1_000;
const BOUNDARY_SORT_MEMORY = '64MB';

/** One exported row, in the SELECT's column order. */
type RowArray = [
  id: string,
  type: TaskType,
  content: string,
  options: string,
  result: string | null,
  confidence: number | null,
  locale: string,
  validatedAt: string | null,
  bucket: Bucket,
  answerKind: AnswerKind,
  rating: ExportRecord['rating'],
  optionConfidence: ExportRecord['optionConfidence'],
  candidates: ExportRecord['candidates'],
  group: string | null,
];

/** The shuffle key of a task: stable across PostgreSQL versions (hash partitioning relies on it). */
const shuffleKey = (seed: string) => Prisma.sql`hashtextextended(${seed} || ':' || id, 0)`;

function where(filters: ExportFilters): Prisma.Sql {
  // A review task is not training data: its text task carries the result it chose.
  const conditions = [Prisma.sql`buyer_id = ${filters.buyerId}`, Prisma.sql`status = ${filters.status}::"TaskStatus"`, Prisma.sql`review_of IS NULL`];
  if (filters.projectId) conditions.push(Prisma.sql`project_id = ${filters.projectId}`);
  if (filters.type) conditions.push(Prisma.sql`type = ${filters.type}::"TaskType"`);
  if (filters.locale) conditions.push(Prisma.sql`locale = ${filters.locale}`);
  if (filters.minConfidence !== undefined) conditions.push(Prisma.sql`confidence >= ${filters.minConfidence}`);
  if (filters.pairs) conditions.push(Prisma.sql`answer_kind = 'pairwise' AND result IS NOT NULL`);
  if (filters.pairs && !filters.pairs.includeTies) conditions.push(Prisma.sql`result IS DISTINCT FROM 'tie'`);
  return Prisma.join(conditions, ' AND ');
}

/**
 * The records of an export ordered by validatedAt then id (the export index's order), each with its split
 * bucket (0 train, 1 val, 2 test; always 0 without a split).
 */
export function recordsQuery(filters: ExportFilters, cut?: SplitCut): Prisma.Sql {
  // Dates and arrays arrive as text ready for output: pg's own parsers for them cost more than the
  // formatting (CPU profile of bench/exports). The text date has its own name: named validated_at, it
  // was what ORDER BY validated_at meant, and PostgreSQL sorted every row by the text instead of
  // reading the export index in order (2.5 s before the first record of a million).
  const columns = Prisma.raw(
    `id, type, content, array_to_json(options)::text AS options, result, confidence, locale, ` +
      `to_char(validated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS validated_at_text`,
  );
  const after = Prisma.raw(`answer_kind, result_details->'rating' AS rating, result_details->'optionConfidence' AS option_confidence, candidates, pair_group`);
  // A comparison with an absent boundary (NULL) is never true, so it falls through to the next bucket.
  const bucket = cut
    ? Prisma.sql`CASE WHEN (${shuffleKey(cut.seed)}, id) <= (${cut.lastTrain?.key ?? null}::bigint, ${cut.lastTrain?.id ?? null}::text) THEN 0
                      WHEN (${shuffleKey(cut.seed)}, id) <= (${cut.lastVal?.key ?? null}::bigint, ${cut.lastVal?.id ?? null}::text) THEN 1
                      ELSE 2 END`
    : Prisma.sql`0`;
  return Prisma.sql`SELECT ${columns}, ${bucket} AS bucket, ${after} FROM tasks WHERE ${where(filters)} ORDER BY validated_at NULLS LAST, id`;
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
    const failure = await this.client.query('ROLLBACK').then(
      () => undefined,
      (error: unknown) => error,
    );
    this.client.release(failure instanceof Error ? failure : undefined);
  }

  async count(): Promise<number> {
    const query = Prisma.sql`SELECT count(*)::int AS n FROM tasks WHERE ${where(this.filters)}`;
    const result = await this.client.query<{ n: number }>(query.text, query.values);
    return result.rows[0]?.n ?? 0;
  }

  /**
   * Every decided pair of the groups the export holds (all of the buyer's decided pairs of each group,
   * whatever the export's other filters), in the export's snapshot: what the groups' rankings are fitted on.
   */
  async groupPairs(): Promise<DecidedGroupPair[]> {
    const query = Prisma.sql`
      SELECT ${GROUP_PAIR_COLUMNS} FROM tasks t
      WHERE t.buyer_id = ${this.filters.buyerId} AND t.status = 'COMPLETED' AND t.answer_kind = 'pairwise'
        AND t.pair_group IN (SELECT DISTINCT pair_group FROM tasks WHERE ${where(this.filters)} AND pair_group IS NOT NULL)`;
    const inFlight = this.client.query<DecidedGroupPair>(query.text, query.values);
    this.inFlight = inFlight;
    return (await inFlight).rows;
  }

  /**
   * The keys at the given ranks of the shuffle (1-based; 0 gives null), from one sort of (key, id) pairs
   * only. The snapshot is the count's, so the members these boundaries cut are an exact partition.
   */
  async boundaries(seed: string, ranks: number[]): Promise<Array<Boundary | null>> {
    const wanted = ranks.filter((rank) => rank > 0);
    if (wanted.length === 0) return ranks.map(() => null);
    const query = Prisma.sql`
      SELECT key::text AS key, id, rank::int AS rank FROM (
        SELECT ${shuffleKey(seed)} AS key, id, row_number() OVER (ORDER BY ${shuffleKey(seed)}, id) AS rank
        FROM tasks WHERE ${where(this.filters)}
      ) ranked WHERE rank = ANY(${wanted}::int[])`;
    // The sort holds (key, id) pairs only (~50 bytes a task): in memory it takes a fraction of the time
    // an external merge does. SET LOCAL ends with the export's transaction.
    await this.client.query(`SET LOCAL work_mem = '${BOUNDARY_SORT_MEMORY}'`);
    const inFlight = this.client.query<Boundary & { rank: number }>(query.text, query.values);
    this.inFlight = inFlight;
    const { rows } = await inFlight;
    return ranks.map((rank) => {
      const row = rows.find((r) => r.rank === rank);
      return row ? { key: row.key, id: row.id } : null;
    });
  }

  /**
   * The records ordered by validatedAt then id, a page at a time, each with its split bucket (0 train,
   * 1 val, 2 test; always 0 without a split) and, given `rankings`, its group's ranking.
   */
  async *records(cut?: SplitCut, rankings?: ReadonlyMap<string, RankedCandidate[]>): AsyncGenerator<ExportRecord & { bucket: Bucket }> {
    const query = recordsQuery(this.filters, cut);
    const name = `export_${++this.cursors}`;
    if (this.closed) return;
    const declaring = this.client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${query.text}`, query.values);
    this.inFlight = declaring;
    await declaring;
    const fetchPage = () => {
      // Rows as arrays: pg builds no object per row (the columns are in the SELECT's order).
      const fetching = this.client.query<RowArray>({ text: `FETCH ${PAGE} FROM ${name}`, rowMode: 'array' });
      this.inFlight = fetching;
      // Awaited below, or abandoned when the reader stops early: never an unhandled rejection.
      fetching.catch(() => undefined);
      return fetching;
    };
    try {
      let next: Promise<pg.QueryResult<RowArray>> | undefined = fetchPage();
      while (next && !this.closed) {
        const page: pg.QueryResult<RowArray> = await next;
        // The database reads the next page while this one is formatted and written.
        next = page.rows.length === PAGE && !this.closed ? fetchPage() : undefined;
        for (const row of page.rows) {
          const [id, type, content, options, label, confidence, locale, validatedAt, bucket, answerKind, rating, optionConfidence, candidates, group] = row;
          const kind = { answerKind, rating, optionConfidence, candidates, group, groupRanking: (group !== null && rankings?.get(group)) || null };
          yield { id, type, content, options: JSON.parse(options) as string[], label, confidence, locale, validatedAt, bucket, ...kind };
        }
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
