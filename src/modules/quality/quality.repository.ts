// The SQL of the re-fit job: which scopes are due, the per-scope advisory lock, the snapshot
// read of a scope's counts and answers, and the write-back of the new counts. It works on the plain `pg`
// pool because the job needs what Prisma cannot give: a session lock held on one connection across
// several transactions, and a server-side cursor over millions of answer rows.
import type pg from 'pg';
import type { AnswerKind } from '@concord/contract';
import type { Calibration } from '../../consensus/calibration.ts';
import type { ItemAnswers, ItemFacts } from './scope-answers.builder.ts';

/** pg_try_advisory_lock(class, hashtext(scope key)): the class keeps these locks apart from any other use. */
const REFIT_LOCK_CLASS = 16_001;
/**
 * Rows per FETCH (an item with its answers, or a counts row): the next page is fetched while one is
 * handled, and handling one page holds the event loop: ~10 ms at ten answers per item.
 */
const FETCH_ROWS = 1_000;

/** What a re-fit stores on its scope besides the counts. */
export interface ScopeFit {
  prior: { reliability: number; shape: ArrayLike<number> | null };
  classPrior: readonly number[];
  calibration: Calibration;
  /** Σ of the fitted `answered`: the counted answers at the snapshot. */
  countedAnswers: number;
}

export interface DueScope {
  key: string;
  /** Σ annotator_scope_counts.answered now, and at the last re-fit's snapshot. */
  answered: number;
  refitAnswers: number;
}

export interface DueRule {
  /** Growth factor since the last re-fit (1.05: 5 % more counted answers)… */
  growthFactor: number;
  /** …and at least this many more. */
  minNewAnswers: number;
  /** A scope last re-fitted (or created) before this is due on any growth. */
  staleBefore: Date;
}

export interface ScopeRow {
  key: string;
  buyerId: string;
  projectId: string | null;
  /** The scope's option set, in matrix order. */
  options: string[];
  answerKind: AnswerKind;
  /** The snapshot's time (the read transaction's start). */
  readAt: Date;
}

/** How many items and answers a scope holds, as its task rows count them (a capacity hint). */
export interface ScopeSize {
  items: number;
  answers: number;
}

/** Where the snapshot read sends the scope's counts rows, then its items with their answers (ScopeAnswersBuilder). */
export interface SnapshotSink {
  addCounts(annotatorId: string, matrix: ArrayLike<number>, correct: number, answered: number): void;
  addItem(answers: ItemAnswers, facts: ItemFacts): void;
}

/** What to add to one annotator's stored counts: fitted − snapshot. */
export interface CountsDelta {
  annotatorId: string;
  /** K² cells, row-major. */
  matrix: ArrayLike<number>;
  correct: number;
  answered: number;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

export type Locked<T> = { kind: 'held'; value: T } | { kind: 'busy' };

/** One row per item: its answers as two lists joined by SEPARATOR (itemAnswers). */
type TaskRow = [counted: boolean, decided: number, ownOptionCount: number, annotatorIds: string, answers: string];
type GoldenRow = [truth: number, ownOptionCount: number, annotatorIds: string, answers: string];

/**
 * Between the annotator ids (and the answers) of one item: chr(31), the unit separator. Annotator ids are
 * the service's own (newId: base 36), so a control character never occurs in one.
 */
const SEPARATOR = '\u001f';

/**
 * An item's option set is the scope's when each contains the other (option sets have no duplicates);
 * then answers index the scope's options, else the item's own, in the item's stored order. Any order of
 * the item's own options serves: the one-coin form treats every option alike.
 */
const ITEM_OPTIONS = `
  CASE WHEN x.options @> $2::text[] AND x.options <@ $2::text[] THEN 0 ELSE cardinality(x.options) END AS own_count,
  CASE WHEN x.options @> $2::text[] AND x.options <@ $2::text[] THEN $2::text[] ELSE x.options END AS index_options`;

/**
 * Which rows may belong to the scope, in a form the indexes serve: a project's (tasks_project_status_idx),
 * else the buyer's project-less ones; task_scope_key then picks the scope's exactly. Two texts rather
 * than one with `$3 IS NULL OR …`, which a generic plan could not use an index for.
 */
const scopeFilter = (projectId: string | null) =>
  projectId !== null ? 'x.project_id = $3 AND x.buyer_id = $4' : 'x.project_id IS NULL AND $3::text IS NULL AND x.buyer_id = $4';

/**
 * An item's answers as one row: the annotator ids and the answers' option indices, each list joined into
 * one string. pg parses a row in a few microseconds, so at ten answers per task one row per task instead
 * of one per answer made the read several times faster (bench/README.md, the re-fit job at scale).
 */
const itemAnswers = (responses: string, itemColumn: string, kind: AnswerKind) => {
  const multi = kind === 'multi';
  return `
  CROSS JOIN LATERAL (
    SELECT string_agg(r.annotator_id, chr(31)) AS annotators, string_agg((${answerIndex(kind)})::text, chr(31)) AS answers
    FROM ${responses} r WHERE r.${itemColumn} = x.id AND ${multi ? 'true' : 'array_position(x.index_options, r.answer) IS NOT NULL'}
  ) r
  WHERE r.annotators IS NOT NULL`;
};

/**
 * An answer as the builder passes it on: the option's index (into the scope's options, or the item's own);
 * a multi-select set's bit mask; a pair's answer (0 A, 1 B, 2 tie) plus 3 when its assignment showed B
 * first (the re-fit reads the two apart).
 */
function answerIndex(kind: AnswerKind): string {
  if (kind === 'multi') return setMask('r.answer');
  const index = 'array_position(x.index_options, r.answer) - 1';
  return kind === 'pairwise' ? `${index} + 3 * r.swapped::int` : index;
}

/**
 * A multi-select answer (the JSON array of its options, task_answer) as a bit mask over the scope's
 * options ($2, at most 20): bit o set when option o was chosen. The builder passes it on as the answer.
 */
const setMask = (answer: string) =>
  `(SELECT coalesce(sum(1 << (array_position($2::text[], e) - 1)), 0) FROM jsonb_array_elements_text(${answer}::jsonb) e WHERE array_position($2::text[], e) IS NOT NULL)`;

/**
 * The scope's tasks (open ones too: they inform the fit) with their answers, and a COMPLETED task's result
 * (refitScope's guard against a label swap). OFFSET 0 keeps the task
 * subquery from being flattened, so its option tests run once per task, not once per answer.
 */
// A task's answers are in the stored counts once it is decided and its settlement effect applied (the
// effect carries the count increments, applied after the decision commits): a task decided but not yet
// applied is not counted, or the fit's write and the effect would both add it.
const taskAnswers = (scopeFilter: string, kind: AnswerKind) => {
  const multi = kind === 'multi';
  return `
  SELECT x.status IN ('COMPLETED', 'FAILED') AND NOT EXISTS (SELECT 1 FROM settlement_effects s WHERE s.task_id = x.id),
         ${multi ? '-1' : `CASE WHEN x.status = 'COMPLETED' THEN coalesce(array_position(x.index_options, x.result) - 1, -1) ELSE -1 END`},
         x.own_count, r.annotators, r.answers
  FROM (
    SELECT x.id, x.status, x.result, ${ITEM_OPTIONS}
    FROM tasks x
    WHERE ${scopeFilter} AND task_scope_key(x.project_id, x.buyer_id, x.options, x.answer_kind) = $1
    OFFSET 0
  ) x${itemAnswers('task_responses', 'task_id', kind)}`;
};

/** The scope's golden tasks with their truth (a multi-select golden set as its bit mask) and answers. */
const goldenAnswers = (scopeFilter: string, kind: AnswerKind) => {
  const multi = kind === 'multi';
  return `
  SELECT ${multi ? setMask('x.golden_answer') : 'array_position(x.index_options, x.golden_answer) - 1'}, x.own_count, r.annotators, r.answers
  FROM (
    SELECT x.id, x.golden_answer, ${ITEM_OPTIONS}
    FROM golden_tasks x
    WHERE ${scopeFilter} AND task_scope_key(x.project_id, x.buyer_id, x.options, x.answer_kind) = $1
    OFFSET 0
  ) x${itemAnswers('golden_responses', 'golden_task_id', kind)}
    AND ${multi ? 'true' : 'array_position(x.index_options, x.golden_answer) IS NOT NULL'}`;
};

/** A matrix sent as text by array_to_string (a loop: Float64Array.from with a map function is far slower). */
function parseMatrix(text: string): Float64Array {
  const cells = text === '' ? [] : text.split(',');
  const matrix = new Float64Array(cells.length);
  for (let c = 0; c < cells.length; c++) matrix[c] = Number(cells[c]);
  return matrix;
}

const splitAnswers = (annotatorIds: string, answers: string) => ({ annotatorIds: annotatorIds.split(SEPARATOR), answers: answers.split(SEPARATOR) });

/** The work of one re-fit on the connection that holds its scope's lock. */
export class RefitSession {
  private cursors = 0;

  constructor(private readonly client: pg.PoolClient) {}

  /**
   * In one REPEATABLE READ READ ONLY transaction: the scope row, then into the sink `open` returns for
   * it every counts row of the scope and every item of the scope with its answers (tasks, then golden
   * tasks), a page at a time through server-side cursors. Null when the scope no longer exists. An
   * aborted signal stops it between pages.
   */
  async readSnapshot(key: string, open: (scope: ScopeRow, expected: ScopeSize) => SnapshotSink, signal?: AbortSignal): Promise<ScopeRow | null> {
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const scopes = await this.client.query<{
        key: string;
        buyer_id: string;
        project_id: string | null;
        options: string[];
        answer_kind: AnswerKind;
        read_at: Date;
      }>('SELECT key, buyer_id, project_id, options, answer_kind, now() AS read_at FROM label_scopes WHERE key = $1', [key]);
      const row = scopes.rows[0];
      if (!row) return null;
      const scope: ScopeRow = {
        key: row.key,
        buyerId: row.buyer_id,
        projectId: row.project_id,
        options: row.options,
        answerKind: row.answer_kind,
        readAt: row.read_at,
      };
      const sink = open(scope, await this.expectedSize(scope));
      // Matrices as text, split here: pg's parser for float8[] took ~15 µs a row (300–700 ms for 20 000 rows).
      await this.streamRows<[annotatorId: string, matrix: string, correct: number, answered: number]>(
        `SELECT annotator_id, array_to_string(matrix, ','), correct, answered FROM annotator_scope_counts WHERE scope_key = $1`,
        [key],
        signal,
        ([annotatorId, matrix, correct, answered]) => sink.addCounts(annotatorId, parseMatrix(matrix), correct, answered),
      );
      const params = [key, scope.options, scope.projectId, scope.buyerId];
      const filter = scopeFilter(scope.projectId);
      await this.streamRows<TaskRow>(taskAnswers(filter, scope.answerKind), params, signal, ([counted, decided, ownOptionCount, annotatorIds, answers]) =>
        sink.addItem(splitAnswers(annotatorIds, answers), { ownOptionCount, truth: -1, counted, decided }),
      );
      await this.streamRows<GoldenRow>(goldenAnswers(filter, scope.answerKind), params, signal, ([truth, ownOptionCount, annotatorIds, answers]) =>
        sink.addItem(splitAnswers(annotatorIds, answers), { ownOptionCount, truth, counted: true, decided: -1 }),
      );
      return scope;
    } finally {
      // Read only: ending it either way changes nothing, and frees the snapshot before the fit.
      await this.client.query('ROLLBACK');
    }
  }

  /**
   * The scope's items and answers as the task rows count them (total_responses, times_answered), one pass
   * over the scope's tasks rather than their answers: the builder allocates its arrays once at this size.
   * Growing them by doubling instead held the event loop for up to 430 ms at 10 M answers (a 64 MB
   * allocation and copy per array).
   */
  private async expectedSize(scope: ScopeRow): Promise<ScopeSize> {
    const params = [scope.key, scope.projectId, scope.buyerId];
    const filter = scopeFilter(scope.projectId).replaceAll('$3', '$2').replaceAll('$4', '$3');
    const { rows } = await this.client.query<{ items: number; answers: number }>(
      `SELECT sum(items)::float8 AS items, sum(answers)::float8 AS answers FROM (
         SELECT count(*) AS items, coalesce(sum(x.total_responses), 0) AS answers FROM tasks x WHERE ${filter} AND task_scope_key(x.project_id, x.buyer_id, x.options, x.answer_kind) = $1
         UNION ALL
         SELECT count(*), coalesce(sum(x.times_answered), 0) FROM golden_tasks x WHERE ${filter} AND task_scope_key(x.project_id, x.buyer_id, x.options, x.answer_kind) = $1
       ) counts`,
      params,
    );
    return { items: rows[0]?.items ?? 0, answers: rows[0]?.answers ?? 0 };
  }

  /** Rows of a query through a cursor (as arrays: no object per row), the next page fetched while one is handled. */
  private async streamRows<Row extends unknown[]>(text: string, params: unknown[], signal: AbortSignal | undefined, each: (row: Row) => void): Promise<void> {
    const name = `refit_${++this.cursors}`;
    await this.client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, params);
    const fetchPage = () => this.client.query<Row>({ text: `FETCH ${FETCH_ROWS} FROM ${name}`, rowMode: 'array' });
    let next: Promise<pg.QueryResult<Row>> | undefined = fetchPage();
    while (next) {
      const page: pg.QueryResult<Row> = await next;
      signal?.throwIfAborted();
      next = page.rows.length === FETCH_ROWS ? fetchPage() : undefined;
      // An early failure below leaves the prefetch to the ROLLBACK; it must not become an unhandled rejection.
      next?.catch(() => undefined);
      for (const row of page.rows) each(row);
    }
    await this.client.query(`CLOSE ${name}`);
  }

  /**
   * Adds fitted − snapshot to each annotator's counts as they are now, under the row's lock: what the
   * answer path added since the snapshot stays. One statement (its own short transaction) per batch,
   * locking rows in annotator_id order as the answer path does. Rows absent now are inserted; an
   * annotator or scope deleted meanwhile is skipped.
   */
  async addCounts(key: string, optionCount: number, batch: CountsDelta[]): Promise<void> {
    const cells = optionCount * optionCount;
    const matrices = new Array<number>(batch.length * cells);
    batch.forEach((delta, b) => {
      for (let c = 0; c < cells; c++) matrices[b * cells + c] = delta.matrix[c] ?? 0;
    });
    await this.client.query(
      `INSERT INTO annotator_scope_counts AS c (scope_key, annotator_id, matrix, correct, answered)
       SELECT $1, u.annotator_id, ($3::float8[])[(u.i - 1) * $6 + 1 : u.i * $6], u.correct, u.answered
       FROM unnest($2::text[], $4::float8[], $5::float8[]) WITH ORDINALITY AS u(annotator_id, correct, answered, i)
       JOIN annotators a ON a.id = u.annotator_id
       WHERE EXISTS (SELECT 1 FROM label_scopes s WHERE s.key = $1)
       ORDER BY u.annotator_id
       ON CONFLICT (scope_key, annotator_id) DO UPDATE
       SET matrix = label_counts_add(c.matrix, EXCLUDED.matrix), correct = c.correct + EXCLUDED.correct, answered = c.answered + EXCLUDED.answered`,
      [key, batch.map((d) => d.annotatorId), matrices, batch.map((d) => d.correct), batch.map((d) => d.answered), cells],
    );
  }

  /** Stores the scope's new priors, calibration map and the snapshot's counted answers; false when the scope is gone. */
  async finishScope(key: string, fit: ScopeFit, refittedAt: Date): Promise<boolean> {
    const result = await this.client.query(
      `UPDATE label_scopes SET prior_reliability = $2, prior_shape = $3::float8[], class_prior = $4::float8[], calibration = $5::jsonb,
                               refit_answers = $6, refitted_at = $7
       WHERE key = $1`,
      [
        key,
        fit.prior.reliability,
        fit.prior.shape ? Array.from(fit.prior.shape) : null,
        fit.classPrior,
        JSON.stringify(fit.calibration),
        fit.countedAnswers,
        refittedAt,
      ],
    );
    return (result.rowCount ?? 0) > 0;
  }
}

export class QualityRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Scopes whose counted answers (Σ answered of their counts rows, one index range each) grew enough
   * since the last re-fit, the longest-waiting first.
   */
  async dueScopes(rule: DueRule): Promise<DueScope[]> {
    const { rows } = await this.pool.query<{ key: string; answered: number; refit_answers: number }>(
      `SELECT s.key, c.answered, s.refit_answers
       FROM label_scopes s
       CROSS JOIN LATERAL (SELECT coalesce(sum(answered), 0)::float8 AS answered FROM annotator_scope_counts WHERE scope_key = s.key) c
       WHERE (c.answered >= s.refit_answers * $1 AND c.answered >= s.refit_answers + $2)
          OR (coalesce(s.refitted_at, s.created_at) <= $3 AND c.answered > s.refit_answers)
       ORDER BY coalesce(s.refitted_at, s.created_at), s.key`,
      [rule.growthFactor, rule.minNewAnswers, rule.staleBefore],
    );
    return rows.map((r) => ({ key: r.key, answered: r.answered, refitAnswers: r.refit_answers }));
  }

  /**
   * Runs `work` holding the scope's advisory lock, a session lock on one pooled connection that `work`
   * uses throughout; another process (or call) holding it gives `busy` at once. The lock is released
   * after, or with the connection if that broke.
   */
  async withScopeLock<T>(key: string, work: (session: RefitSession) => Promise<T>): Promise<Locked<T>> {
    const client = await this.pool.connect();
    let locked: boolean;
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [REFIT_LOCK_CLASS, key]);
      locked = rows[0]?.locked === true;
    } catch (error) {
      client.release(asError(error));
      throw error;
    }
    if (!locked) {
      client.release();
      return { kind: 'busy' };
    }
    try {
      return { kind: 'held', value: await work(new RefitSession(client)) };
    } finally {
      // A connection that cannot unlock is destroyed instead: ending the session ends its lock.
      const failure = await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [REFIT_LOCK_CLASS, key]).then(() => undefined, asError);
      client.release(failure);
    }
  }
}
