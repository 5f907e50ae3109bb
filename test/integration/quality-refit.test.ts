// The label model's re-fit job (CONTRACT §5) on a real PostgreSQL: scopes, tasks, answers and
// counts rows are written with SQL (as the answer path leaves them), then the job re-fits them.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLogLikelihoods, type ScopePrior } from '../../src/consensus/label-model.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { QualityRepository } from '../../src/modules/quality/quality.repository.ts';
import { QualityService, type RefitOutcome } from '../../src/modules/quality/quality.service.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { prng } from '../../bench/quality/random.ts';

let ctx: TestContext;
let db: pg.Pool;
let buyerId: string;
let developerId: string;

beforeAll(async () => {
  // A database of its own: the due-scope list and refitDue see every scope in the database.
  ctx = await createIsolatedTestContext();
  db = new pg.Pool({ connectionString: ctx.databaseUrl, max: 4 });
  buyerId = `buyer-${randomUUID()}`;
  developerId = `dev-${randomUUID()}`;
  await db.query(`INSERT INTO accounts (id, email, role) VALUES ($1, $1 || '@example.test', 'BUYER'), ($2, $2 || '@example.test', 'DEVELOPER')`, [
    buyerId,
    developerId,
  ]);
  await db.query(`INSERT INTO buyers (id, company_name) VALUES ($1, 'Acme Labs')`, [buyerId]);
  await db.query(`INSERT INTO developers (id, app_name, app_url, api_key_hash) VALUES ($1, 'Label App', 'https://app.example.test', $1)`, [developerId]);
});
afterAll(async () => {
  await db.end();
  await ctx.close();
});

async function createAnnotators(label: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${label}-${i}-${randomUUID().slice(0, 8)}`);
  await db.query(`INSERT INTO annotators (id, developer_id, external_id) SELECT id, $2, id FROM unnest($1::text[]) AS id`, [ids, developerId]);
  return ids;
}

/** A project and its label scope (options sorted as label_scope_options sorts them). */
async function createProjectScope(
  options: string[],
  scope: { refitAnswers?: number; ageMinutes?: number; refittedMinutesAgo?: number } = {},
): Promise<{ projectId: string; key: string }> {
  const projectId = `project-${randomUUID()}`;
  await db.query(`INSERT INTO projects (id, buyer_id, name) VALUES ($1, $2, 'Birds')`, [projectId, buyerId]);
  const { rows } = await db.query<{ key: string }>(
    `INSERT INTO label_scopes (key, buyer_id, project_id, options, refit_answers, refitted_at, created_at)
     VALUES (label_scope_key($1, $2, $3), $2, $1, label_scope_options($3), $4,
             now() - make_interval(mins => $5::int), now() - make_interval(mins => $6::int))
     RETURNING key`,
    [projectId, buyerId, options, scope.refitAnswers ?? 0, scope.refittedMinutesAgo ?? null, scope.ageMinutes ?? 0],
  );
  return { projectId, key: rows[0]?.key ?? '' };
}

interface SeedTask {
  options: string[];
  status: 'PENDING' | 'VALIDATING' | 'COMPLETED' | 'FAILED';
  answers: Array<[annotatorId: string, answer: string]>;
  /** A COMPLETED task's result. */
  result?: string;
}

/** Tasks of a project with their answers, inserted in the given order. */
async function insertTasks(projectId: string, tasks: SeedTask[]): Promise<void> {
  const rows = tasks.map((task, n) => ({
    id: `task-${randomUUID()}`,
    n,
    options: task.options,
    status: task.status,
    total: task.answers.length,
    result: task.result ?? null,
  }));
  await db.query(
    `INSERT INTO tasks (id, buyer_id, project_id, type, content, options, max_cents, cost_cents, validations_needed, max_responses, status, total_responses, result)
     SELECT t.id, $2, $3, 'IMAGE_CLASSIFICATION', 'Which bird?', t.options, 2, 2, 3, 50, t.status::"TaskStatus", t.total, t.result
     FROM jsonb_to_recordset($1::jsonb) AS t(id text, n int, options text[], status text, total int, result text) ORDER BY t.n`,
    [JSON.stringify(rows), buyerId, projectId],
  );
  const answers = tasks.flatMap((task, i) =>
    task.answers.map(([annotatorId, answer]) => ({ id: `response-${randomUUID()}`, taskId: rows[i]?.id, annotatorId, answer })),
  );
  await db.query(
    `INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms)
     SELECT r.id, r."taskId", r."annotatorId", r.answer, 1500 FROM jsonb_to_recordset($1::jsonb) AS r(id text, "taskId" text, "annotatorId" text, answer text)`,
    [JSON.stringify(answers)],
  );
}

interface Counts {
  matrix: number[];
  correct: number;
  answered: number;
}

async function insertCounts(key: string, rows: Record<string, Counts>): Promise<void> {
  for (const [annotatorId, counts] of Object.entries(rows)) {
    await db.query(`INSERT INTO annotator_scope_counts (scope_key, annotator_id, matrix, correct, answered) VALUES ($1, $2, $3, $4, $5)`, [
      key,
      annotatorId,
      counts.matrix,
      counts.correct,
      counts.answered,
    ]);
  }
}

async function readCounts(key: string): Promise<Map<string, Counts>> {
  const { rows } = await db.query<Counts & { annotator_id: string }>(
    `SELECT annotator_id, matrix, correct, answered FROM annotator_scope_counts WHERE scope_key = $1`,
    [key],
  );
  return new Map(rows.map((r) => [r.annotator_id, { matrix: r.matrix, correct: r.correct, answered: r.answered }]));
}

async function readScope(key: string) {
  const { rows } = await db.query<{ prior_reliability: number; prior_shape: number[] | null; refit_answers: number; refitted_at: Date | null }>(
    `SELECT prior_reliability, prior_shape, refit_answers, refitted_at FROM label_scopes WHERE key = $1`,
    [key],
  );
  return rows[0];
}

const rowShares = (matrix: number[], K: number) =>
  Array.from({ length: K }, (_, k) => {
    const row = matrix.slice(k * K, (k + 1) * K);
    const total = row.reduce((sum, x) => sum + x, 0);
    return row.map((x) => x / total);
  });

/** How far one answer of this annotator moves a task's log-posterior at most: their weight. */
function answerWeight(counts: Counts, K: number, prior: ScopePrior): number {
  let widest = 0;
  for (let answer = 0; answer < K; answer++) {
    const ll = answerLogLikelihoods(counts, answer, K, prior);
    widest = Math.max(widest, Math.max(...ll) - Math.min(...ll));
  }
  return widest;
}

function expectRefitted(outcome: RefitOutcome): asserts outcome is Extract<RefitOutcome, { kind: 'refitted' }> {
  expect(outcome.kind).toBe('refitted');
}

describe('a re-fit of a seeded scope', () => {
  it('gives a spammer near-uniform matrix rows (near-zero weight) and good annotators a strong diagonal; open tasks inform the fit but are not counted; other option sets move only correct/answered', async () => {
    const options = ['cat', 'dog', 'fox'];
    const K = options.length;
    const { projectId, key } = await createProjectScope(options);
    const good = await createAnnotators('good', 6);
    const [spammer = ''] = await createAnnotators('spammer', 1);
    const random = prng(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
    const answersOf = (taskOptions: string[], truth: string): SeedTask['answers'] => {
      const three = [...good].sort(() => random() - 0.5).slice(0, 3);
      return [
        ...three.map((id): [string, string] => [id, random() < 0.85 ? truth : pick(taskOptions.filter((o) => o !== truth))]),
        [spammer, pick(taskOptions)],
      ];
    };
    const tasks: SeedTask[] = [];
    for (let i = 0; i < 450; i++) tasks.push({ options, status: random() < 0.9 ? 'COMPLETED' : 'FAILED', answers: answersOf(options, pick(options)) });
    for (let i = 0; i < 20; i++) tasks.push({ options, status: 'VALIDATING', answers: answersOf(options, pick(options)) });
    for (let i = 0; i < 10; i++) tasks.push({ options: ['yes', 'no'], status: 'COMPLETED', answers: answersOf(['yes', 'no'], pick(['yes', 'no'])) });
    await insertTasks(projectId, tasks);

    const outcome = await ctx.services.quality.refitScope(key);

    expectRefitted(outcome);
    expect(outcome).toMatchObject({ scope: key, answers: 480 * 4, items: 480, annotators: 7, countedAnswers: 460 * 4 });
    expect(outcome.iterations).toBeGreaterThan(1);
    const counts = await readCounts(key);
    const scope = await readScope(key);
    expect(scope?.refit_answers).toBe(460 * 4);
    expect(scope?.refitted_at).toBeInstanceOf(Date);
    expect(scope?.prior_shape).toHaveLength(K * K);
    const prior: ScopePrior = { reliability: scope?.prior_reliability ?? 0, shape: scope?.prior_shape ?? null };

    const spam = counts.get(spammer);
    // Counted: the 450 decided tasks and the 10 of another option set (one-coin: not in the matrix).
    expect(spam?.answered).toBe(460);
    expect(spam?.matrix.reduce((sum, x) => sum + x, 0)).toBeCloseTo(450, 6);
    for (const share of rowShares(spam?.matrix ?? [], K).flat()) {
      expect(share).toBeGreaterThan(0.25);
      expect(share).toBeLessThan(0.42);
    }
    const spammerWeight = answerWeight(spam ?? { matrix: [], correct: 0, answered: 0 }, K, prior);
    expect(spammerWeight).toBeLessThan(0.5);
    for (const id of good) {
      const counted = counts.get(id);
      expect(counted).toBeDefined();
      rowShares(counted?.matrix ?? [], K).forEach((row, k) => expect(row[k]).toBeGreaterThan(0.7));
      expect(answerWeight(counted ?? { matrix: [], correct: 0, answered: 0 }, K, prior)).toBeGreaterThan(4 * spammerWeight);
      expect((counted?.correct ?? 0) / (counted?.answered ?? 1)).toBeGreaterThan(0.75);
    }
  });

  it('enters golden answers with their truth: whole counts in (truth, answer), and only correct/answered on another option set', async () => {
    const { projectId, key } = await createProjectScope(['yes', 'no']);
    const [checked = '', other = ''] = await createAnnotators('golden', 2);
    // Options sort to [no, yes]: index 0 is "no".
    const golden: Array<{ options: string[]; truth: string; answer: string }> = [
      ...Array.from({ length: 5 }, () => ({ options: ['yes', 'no'], truth: 'yes', answer: 'yes' })),
      { options: ['yes', 'no'], truth: 'yes', answer: 'no' },
      ...Array.from({ length: 3 }, () => ({ options: ['yes', 'no'], truth: 'no', answer: 'no' })),
      { options: ['yes', 'no'], truth: 'no', answer: 'yes' },
      { options: ['red', 'green', 'blue'], truth: 'red', answer: 'red' },
      { options: ['red', 'green', 'blue'], truth: 'red', answer: 'blue' },
    ];
    for (const g of golden) {
      const id = `golden-${randomUUID()}`;
      await db.query(
        `INSERT INTO golden_tasks (id, buyer_id, project_id, type, content, options, golden_answer) VALUES ($1, $2, $3, 'BINARY_CHOICE', 'Golden?', $4, $5)`,
        [id, buyerId, projectId, g.options, g.truth],
      );
      await db.query(
        `INSERT INTO golden_responses (id, golden_task_id, annotator_id, answer, time_spent_ms, correct) VALUES ($1, $2, $3, $4, 1500, $5), ($6, $2, $7, $8, 1500, true)`,
        [`gr-${randomUUID()}`, id, checked, g.answer, g.answer === g.truth, `gr-${randomUUID()}`, other, g.truth],
      );
    }

    expectRefitted(await ctx.services.quality.refitScope(key));

    const counts = await readCounts(key);
    // Rows: truth no, yes; columns: answer no, yes.
    expect(counts.get(checked)).toEqual({ matrix: [3, 1, 1, 5], correct: 8 + 1, answered: 12 });
    expect(counts.get(other)).toEqual({ matrix: [4, 0, 0, 6], correct: 12, answered: 12 });
  });
});

describe("the scope's decisions", () => {
  // refitScope refits from the decisions when a fit overturns most of them (a label swap; unit-tested
  // with refit.ts): the job must hand it every COMPLETED task's result, as an option index.
  it("reach the fit: COMPLETED tasks' results, whose agreement with the fit the outcome reports", async () => {
    const options = ['a', 'b'];
    const annotators = await createAnnotators('decided', 3);
    const unanimous = (answer: string): SeedTask['answers'] => annotators.map((id): [string, string] => [id, answer]);
    const agreeing = await createProjectScope(options);
    await insertTasks(agreeing.projectId, [
      ...Array.from({ length: 6 }, (_, i) => ({ options, status: 'COMPLETED' as const, result: i % 2 ? 'a' : 'b', answers: unanimous(i % 2 ? 'a' : 'b') })),
      // Neither a FAILED task nor an open one is a decision.
      { options, status: 'FAILED', answers: unanimous('a') },
      { options, status: 'VALIDATING', answers: unanimous('b') },
    ]);
    const contradicted = await createProjectScope(options);
    await insertTasks(
      contradicted.projectId,
      Array.from({ length: 6 }, () => ({ options, status: 'COMPLETED' as const, result: 'b', answers: unanimous('a') })),
    );

    expect(await ctx.services.quality.refitScope(agreeing.key)).toMatchObject({ kind: 'refitted', start: 'majority', decidedAgreement: 1 });
    // Every answer says "a" where the service decided "b": the fit from majority vote agrees with none, so
    // the guard fits again from the decisions and keeps whichever agrees more (refit.ts decides which).
    const outcome = await ctx.services.quality.refitScope(contradicted.key);
    expectRefitted(outcome);
    expect(outcome.decidedAgreement).toEqual(expect.any(Number));
    if (outcome.start === 'majority') expect(outcome.decidedAgreement).toBe(0);
  });
});

describe('answers given while a re-fit runs', () => {
  /** The same scope twice: two projects with identical tasks, answers and stored counts. */
  async function twinScopes() {
    const options = ['a', 'b'];
    const first = await createProjectScope(options);
    const second = await createProjectScope(options);
    const annotators = await createAnnotators('twin', 4);
    const random = prng(11);
    const tasks: SeedTask[] = Array.from({ length: 60 }, () => {
      const truth = random() < 0.5 ? 'a' : 'b';
      return {
        options,
        status: 'COMPLETED',
        answers: annotators.map((id, i): [string, string] => [id, random() < (i === 3 ? 0.5 : 0.85) ? truth : truth === 'a' ? 'b' : 'a']),
      };
    });
    const stored = Object.fromEntries(annotators.map((id) => [id, { matrix: [20, 5, 5, 30], correct: 50, answered: 60 }]));
    for (const scope of [first, second]) {
      await insertTasks(scope.projectId, tasks);
      await insertCounts(scope.key, stored);
    }
    return { first, second, annotators };
  }

  it('keeps the counts added between the snapshot and the write: stored = fitted + (current − snapshot)', async () => {
    const { first, second, annotators } = await twinScopes();
    const [late = ''] = await createAnnotators('late', 1);
    const [decided = ''] = annotators;

    expectRefitted(await ctx.services.quality.refitScope(first.key));
    const outcome = await ctx.services.quality.refitScope(second.key, {
      // The answer path meanwhile: a task decided (its answerer's row moves by the posterior) and a first
      // golden answer by a new annotator (a new row). A lock held by the re-fit would time them out.
      beforeWrite: async () => {
        const client = await db.connect();
        try {
          await client.query('BEGIN');
          await client.query(`SET LOCAL lock_timeout = '1s'`);
          await client.query(
            `UPDATE annotator_scope_counts SET matrix = label_counts_add(matrix, '{0.25,0,0.75,0}'), correct = correct + 0.75, answered = answered + 1
             WHERE scope_key = $1 AND annotator_id = $2`,
            [second.key, decided],
          );
          await client.query(`INSERT INTO annotator_scope_counts (scope_key, annotator_id, matrix, correct, answered) VALUES ($1, $2, '{0,0,0,1}', 1, 1)`, [
            second.key,
            late,
          ]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      },
    });
    expectRefitted(outcome);

    const fitted = await readCounts(first.key);
    const kept = await readCounts(second.key);
    expect(kept.get(late)).toEqual({ matrix: [0, 0, 0, 1], correct: 1, answered: 1 });
    for (const id of annotators) {
      const expected = fitted.get(id) ?? { matrix: [], correct: 0, answered: 0 };
      const increment = id === decided ? { matrix: [0.25, 0, 0.75, 0], correct: 0.75, answered: 1 } : { matrix: [0, 0, 0, 0], correct: 0, answered: 0 };
      const actual = kept.get(id);
      actual?.matrix.forEach((cell, c) => expect(cell).toBeCloseTo((expected.matrix[c] ?? 0) + (increment.matrix[c] ?? 0), 9));
      expect(actual?.correct).toBeCloseTo(expected.correct + increment.correct, 9);
      expect(actual?.answered).toBeCloseTo(expected.answered + increment.answered, 9);
    }
    // The fit replaced the stored rows (60 answers each, 60 counted): the snapshot's made-up counts are gone.
    expect(fitted.get(decided)?.answered).toBe(60);
    // The scope's re-fit mark is the snapshot's: the answer after it is growth for the next due check.
    expect((await readScope(second.key))?.refit_answers).toBe(240);
  });

  it('lets one process re-fit a scope at a time: a second re-fit of the same scope, from this or another pool, skips it', async () => {
    const { first } = await twinScopes();
    const otherPool = new pg.Pool({ connectionString: ctx.databaseUrl, max: 2 });
    const otherProcess = new QualityService(new QualityRepository(otherPool), ctx.services.clock, createLogger('silent'));
    try {
      const concurrent: RefitOutcome[] = [];
      const outcome = await ctx.services.quality.refitScope(first.key, {
        beforeWrite: async () => {
          concurrent.push(await ctx.services.quality.refitScope(first.key), await otherProcess.refitScope(first.key));
        },
      });
      expectRefitted(outcome);
      expect(concurrent).toEqual([
        { kind: 'busy', scope: first.key },
        { kind: 'busy', scope: first.key },
      ]);
      // Released afterwards: the next re-fit runs.
      expectRefitted(await otherProcess.refitScope(first.key));
    } finally {
      await otherPool.end();
    }
  });
});

describe('due scopes', () => {
  const oneRow = async (key: string, answered: number) => {
    const [annotatorId = ''] = await createAnnotators('due', 1);
    await insertCounts(key, { [annotatorId]: { matrix: [0, 0, 0, 0], correct: answered, answered } });
  };

  it('are those whose counted answers grew by 5 % and by 20 since the last re-fit, or grew at all in an hour', async () => {
    const cases: Array<{ name: string; refitAnswers: number; answered: number; refittedMinutesAgo?: number; ageMinutes?: number; due: boolean }> = [
      { name: 'new scope, 19 answers', refitAnswers: 0, answered: 19, due: false },
      { name: 'new scope, 20 answers', refitAnswers: 0, answered: 20, due: true },
      { name: '+4 % of 1000', refitAnswers: 1000, answered: 1049, refittedMinutesAgo: 5, due: false },
      { name: '+5 % of 1000', refitAnswers: 1000, answered: 1050, refittedMinutesAgo: 5, due: true },
      { name: '+5 % of 100 but only 5 more', refitAnswers: 100, answered: 105, refittedMinutesAgo: 5, due: false },
      { name: '+20 of 100', refitAnswers: 100, answered: 120, refittedMinutesAgo: 5, due: true },
      { name: '+1 after 59 minutes', refitAnswers: 100, answered: 101, refittedMinutesAgo: 59, due: false },
      { name: '+1 after 61 minutes', refitAnswers: 100, answered: 101, refittedMinutesAgo: 61, due: true },
      { name: 'no growth after two hours', refitAnswers: 100, answered: 100, refittedMinutesAgo: 120, due: false },
      { name: 'never re-fitted, created 61 minutes ago, 1 answer', refitAnswers: 0, answered: 1, ageMinutes: 61, due: true },
      { name: 'never re-fitted, created 59 minutes ago, 1 answer', refitAnswers: 0, answered: 1, ageMinutes: 59, due: false },
    ];
    const keys = new Map<string, string>();
    for (const c of cases) {
      const { key } = await createProjectScope(['a', 'b'], {
        refitAnswers: c.refitAnswers,
        refittedMinutesAgo: c.refittedMinutesAgo,
        ageMinutes: c.ageMinutes,
      });
      await oneRow(key, c.answered);
      keys.set(key, c.name);
    }
    const due = (await ctx.services.quality.dueScopes()).map((s) => keys.get(s.key)).filter((name) => name !== undefined);
    expect(due.sort()).toEqual(
      cases
        .filter((c) => c.due)
        .map((c) => c.name)
        .sort(),
    );
  });

  it('are re-fitted by refitDue, after which they are no longer due', async () => {
    const options = ['a', 'b'];
    const { projectId, key } = await createProjectScope(options);
    const annotators = await createAnnotators('loop', 3);
    await insertTasks(
      projectId,
      Array.from({ length: 10 }, (_, i) => ({
        options,
        status: 'COMPLETED' as const,
        answers: annotators.map((id): [string, string] => [id, i % 3 === 0 ? 'b' : 'a']),
      })),
    );
    await oneRow(key, 30);
    expect((await ctx.services.quality.dueScopes()).map((s) => s.key)).toContain(key);

    const outcomes = await ctx.services.quality.refitDue();

    expect(outcomes.find((o) => o.scope === key)).toMatchObject({ kind: 'refitted', answers: 30, countedAnswers: 30 });
    expect((await ctx.services.quality.dueScopes()).map((s) => s.key)).not.toContain(key);
  });
});
