// The label model through HTTP (CONTRACT §5 "Consensus"): what a buyer gets from
// a project answered by a mixed crowd before and after a re-fit, answers that keep flowing while a re-fit
// of their scope runs, golden answers entering the counts, and which tasks share a scope.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { AnnotatorCounts, ScopePrior } from '../../src/consensus/label-model.ts';
import { applyIncrement } from '../../src/consensus/soft-counts.ts';
import { decideWithModel } from '../../src/consensus/task-decision.ts';
import type { RefitOutcome } from '../../src/modules/quality/quality.service.ts';
import { bearer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { sdk } from '../helpers/sdk.ts';
import { prng } from '../../bench/quality/random.ts';

// A database of its own: the work queue is global. GOLDEN_RATE 0: no golden task is served by chance.
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0' } });

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

const fundedBuyer = () => createFundedBuyer(world.ctx, world.adminToken, 100_000);

async function createProject(buyer: TestBuyer): Promise<string> {
  const res = await request(world.ctx.app)
    .post('/api/v1/projects')
    .set(bearer(buyer.token))
    .send({ name: unique('Birds') });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** One task through the batch route (tasks of one batch share a creation time: one at a time keeps the queue's order known). */
async function createTask(buyer: TestBuyer, task: { content: string; options: string[]; projectId?: string; validationsNeeded?: number }): Promise<string> {
  const res = await request(world.ctx.app)
    .post('/api/v1/tasks/batch')
    .set(bearer(buyer.token))
    .send({ tasks: [{ type: 'BINARY_CHOICE', ...task }] });
  expect(res.status).toBe(201);
  return res.body.tasks[0].taskId;
}

/** Wraps each HTTP call (the re-fit test bounds them); identity by default. */
type Send = <T>(label: string, call: PromiseLike<T>) => Promise<T>;
const plain: Send = async (_label, call) => call;

/**
 * The only open task answered by `annotators` in order, each after `next` handed it to them, until `next`
 * finds nothing (the task is decided) or the list ends. Returns those who answered.
 */
async function answerUntilDecided(
  taskId: string,
  annotators: readonly string[],
  answerOf: (annotatorId: string, content: string) => string,
  send: Send = plain,
): Promise<string[]> {
  const client = sdk(world.ctx, world.developer.apiKey);
  const answered: string[] = [];
  for (const annotatorId of annotators) {
    const next = await send(`next for ${annotatorId}`, client.next(annotatorId));
    if (next.status === 204) break;
    expect(next.status).toBe(200);
    expect(next.body.task.id).toBe(taskId);
    const done = await send(`answer of ${annotatorId}`, client.complete(taskId, annotatorId, answerOf(annotatorId, next.body.task.content)));
    expect(done.status).toBe(201);
    answered.push(annotatorId);
  }
  return answered;
}

/** The service's id of an annotator the developer app names `externalId`. */
async function internalId(externalId: string): Promise<string> {
  return (await world.ctx.prisma.annotator.findFirstOrThrow({ where: { developerId: world.developer.id, externalId }, select: { id: true } })).id;
}

/** The stored counts, once every decision made so far has been applied (SettlementEffects). */
async function readCounts(scopeKey: string): Promise<Map<string, AnnotatorCounts>> {
  await world.ctx.services.settlementEffects.settled();
  const rows = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey } });
  return new Map(rows.map((row) => [row.annotatorId, { matrix: row.matrix, correct: row.correct, answered: row.answered }]));
}

async function readPrior(scopeKey: string): Promise<ScopePrior> {
  const scope = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scopeKey } });
  return { reliability: scope.priorReliability, shape: scope.priorShape.length > 0 ? scope.priorShape : null };
}

function expectRefitted(outcome: RefitOutcome): asserts outcome is Extract<RefitOutcome, { kind: 'refitted' }> {
  expect(outcome.kind).toBe('refitted');
}

const other = (answer: string) => (answer === 'yes' ? 'no' : 'yes');

describe('a re-fit of a project answered by a mixed crowd', () => {
  // Measured with these settings, projects seeded 1, 2, 3 (phase 1 → phase 2, correct/COMPLETED of 25,
  // answers): 23/23 in 141 → 24/25 in 104; 19/19 in 181 → 25/25 in 94; 20/20 in 144 → 25/25 in 84: 62 → 74
  // correct results. Seeds 4–15 gave 58 → 74, 69 → 75, 70 → 74 and 64 → 75. The same decisions replayed
  // offline (decideWithModel and the re-fit, which gave exactly these figures for seeds 1–15) over 1 000
  // seeds: 18.9 → 24.4 correct results per project on average, phase 1 losing mostly to NO_CONSENSUS while
  // the crowd is unknown (80 % COMPLETED, 5.5 % of them wrong; after the re-fit 99 %, 1.6 %). One project
  // in 15 gains nothing (its phase 1 was already right), hence three projects; 5 in 1 000 got a re-fit
  // that mirrored the labels (phase 2 all wrong; seed 252: 18/18 → 0/25) — see the commit message.
  const SEED = 1;
  const PROJECTS = 3;
  const TASKS_PER_PHASE = 25;
  const MAX_RESPONSES = 10;

  interface PhaseResult {
    completed: number;
    correct: number;
    answers: number;
  }

  /** Scope options sort to [no, yes]: cell (true k, answer l) is k·2 + l. */
  const diagonal = (m: readonly number[]) => (m[0] ?? 0) + (m[3] ?? 0);
  const antiDiagonal = (m: readonly number[]) => (m[1] ?? 0) + (m[2] ?? 0);

  /**
   * One project answered by its own crowd: N tasks with no re-fit, the re-fit, N more tasks. Each task is
   * answered by the crowd in a fresh seeded order until it is decided; the test keeps each task's truth.
   */
  async function runProject(seed: number) {
    const random = prng(seed);
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer);
    const scopeKey = `project:${projectId}`;
    // Right 90 %, 60 % and 10 % of the time (the adversarial answer the other option 90 % of the time);
    // more annotators than maxResponses, so a task can always reach its cap.
    const crowd = [
      ...Array.from({ length: 6 }, (_, i) => ({ id: unique(`good-${i}`), accuracy: 0.9 })),
      ...Array.from({ length: 3 }, (_, i) => ({ id: unique(`weak-${i}`), accuracy: 0.6 })),
      ...Array.from({ length: 4 }, (_, i) => ({ id: unique(`adversarial-${i}`), accuracy: 0.1 })),
    ];
    expect(crowd.length).toBeGreaterThan(MAX_RESPONSES);
    const accuracyOf = new Map(crowd.map((a) => [a.id, a.accuracy]));
    const truthOf = new Map<string, string>();
    const answerOf = (annotatorId: string, content: string) => {
      const truth = truthOf.get(content) ?? '';
      return random() < (accuracyOf.get(annotatorId) ?? 0) ? truth : other(truth);
    };

    async function runPhase(phase: number): Promise<PhaseResult> {
      const taskIds: string[] = [];
      let answers = 0;
      for (let t = 0; t < TASKS_PER_PHASE; t++) {
        const content = `Is item ${phase}.${t} a bird?`;
        truthOf.set(content, random() < 0.5 ? 'yes' : 'no');
        const taskId = await createTask(buyer, { content, options: ['yes', 'no'], projectId });
        const order = crowd
          .map((a) => ({ id: a.id, key: random() }))
          .sort((x, y) => x.key - y.key)
          .map((a) => a.id);
        answers += (await answerUntilDecided(taskId, order, answerOf)).length;
        taskIds.push(taskId);
      }
      const tasks = await world.ctx.prisma.task.findMany({
        where: { id: { in: taskIds } },
        select: { content: true, status: true, result: true, maxResponses: true },
      });
      expect(tasks.every((task) => (task.status === 'COMPLETED' || task.status === 'FAILED') && task.maxResponses === MAX_RESPONSES)).toBe(true);
      const completed = tasks.filter((task) => task.status === 'COMPLETED');
      return { completed: completed.length, correct: completed.filter((task) => task.result === truthOf.get(task.content)).length, answers };
    }

    const before = await runPhase(1);
    expectRefitted(await world.ctx.services.quality.refitScope(scopeKey));
    // The fit tells the crowd apart: the most active good annotator's matrix is diagonal-dominant, the
    // most active adversarial one's anti-diagonal-dominant.
    const counts = await readCounts(scopeKey);
    const mostActive = async (accuracy: number) => {
      const rows = await Promise.all(crowd.filter((a) => a.accuracy === accuracy).map(async (a) => counts.get(await internalId(a.id))));
      return rows.reduce((best, row) => ((row?.answered ?? 0) > (best?.answered ?? 0) ? row : best));
    };
    const good = Array.from((await mostActive(0.9))?.matrix ?? []);
    const adversarial = Array.from((await mostActive(0.1))?.matrix ?? []);
    const after = await runPhase(2);
    return { before, after, good, adversarial };
  }

  it(
    "a project's tasks answered by a mix of good, weak and adversarial simulated annotators end with more correct results after a re-fit than before it",
    { timeout: 180_000 },
    async () => {
      const runs: Array<Awaited<ReturnType<typeof runProject>>> = [];
      // One after another: each phase answers the only open task of the queue.
      for (let p = 0; p < PROJECTS; p++) runs.push(await runProject(SEED + p));
      for (const run of runs) {
        expect(run.good).toHaveLength(4);
        expect(diagonal(run.good)).toBeGreaterThan(antiDiagonal(run.good));
        expect(antiDiagonal(run.adversarial)).toBeGreaterThan(diagonal(run.adversarial));
      }
      const total = (phase: 'before' | 'after') => runs.reduce((sum, run) => sum + run[phase].correct, 0);
      expect(total('after')).toBeGreaterThan(total('before'));
    },
  );
});

describe('answers given while a re-fit of their scope runs', () => {
  const OPTIONS = ['yes', 'no'];
  /** Far beyond any answer's time: a request still pending then waits on something the re-fit holds. */
  const PAUSE_BOUND_MS = 20_000;

  /** The decision the answer path takes on these answers (in this order), from the counts they had when given. */
  function replayDecision(answers: Array<{ annotatorId: string; answer: string; counts: AnnotatorCounts | null }>, prior: ScopePrior) {
    for (let n = 3; n <= answers.length; n++) {
      const decision = decideWithModel({
        options: OPTIONS,
        scope: { options: ['no', 'yes'], prior },
        answers: answers.slice(0, n),
        maxResponses: 10,
        targetConfidence: 0.95,
      });
      if (n < answers.length) expect(decision.kind).toBe('continue');
      else if (decision.kind !== 'continue') return decision;
    }
    throw new Error('the replayed answers decide nothing');
  }

  it('lets next and complete on the same project return while the re-fit waits to write, and keeps what their decisions added to the counts', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer);
    const scopeKey = `project:${projectId}`;
    // The scope's history: six tasks decided through HTTP by five regulars (the last one always wrong).
    const regulars = Array.from({ length: 5 }, (_, i) => unique(`regular-${i}`));
    for (let t = 0; t < 6; t++) {
      const truth = t % 2 === 0 ? 'yes' : 'no';
      const taskId = await createTask(buyer, { content: `Before the re-fit ${t}`, options: OPTIONS, projectId });
      const order = [...regulars.slice(t % 5), ...regulars.slice(0, t % 5)];
      await answerUntilDecided(taskId, order, (id) => (id === regulars[4] ? other(truth) : truth));
    }
    expect(await world.ctx.prisma.task.count({ where: { projectId, status: { in: ['PENDING', 'VALIDATING'] } } })).toBe(0);
    expect(await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scopeKey } })).toMatchObject({ refitAnswers: 0, refittedAt: null });
    const answeredBefore = [...(await readCounts(scopeKey)).values()].reduce((sum, row) => sum + row.answered, 0);
    expect(answeredBefore).toBeGreaterThanOrEqual(6 * 3);

    const newcomers = Array.from({ length: 5 }, (_, i) => unique(`newcomer-${i}`));
    const responses: Array<{ label: string; status: number }> = [];
    const bounded: Send = async (label, call) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${label}: no response within ${PAUSE_BOUND_MS} ms while the re-fit waited to write`)), PAUSE_BOUND_MS);
      });
      try {
        const response = await Promise.race([Promise.resolve(call), late]);
        responses.push({ label, status: (response as { status: number }).status });
        return response;
      } finally {
        clearTimeout(timer);
      }
    };
    let concurrentRefit: RefitOutcome | undefined;
    const expected = new Map<string, AnnotatorCounts>();
    const duringPause: string[] = [];
    let answersDuringPause = 0;

    const outcome = await world.ctx.services.quality.refitScope(scopeKey, {
      // Between the re-fit's snapshot and its write, holding the scope's advisory lock.
      beforeWrite: async () => {
        // Inside the re-fit: a second one is refused.
        concurrentRefit = await world.ctx.services.quality.refitScope(scopeKey);
        const prior = await readPrior(scopeKey);
        // A task decided by four newcomers alone, then one a newcomer answers first and regulars after,
        // whose counts the decision reads (and moves). What each decision read, for the replay below.
        const storedBeforeFirst = await readCounts(scopeKey);
        const first = await createTask(buyer, { content: 'During the re-fit 1', options: OPTIONS, projectId });
        const firstAnswerers = await answerUntilDecided(first, newcomers.slice(0, 4), () => 'yes', bounded);
        const storedBeforeSecond = await readCounts(scopeKey);
        const second = await createTask(buyer, { content: 'During the re-fit 2', options: OPTIONS, projectId });
        const secondAnswerers = await answerUntilDecided(second, [newcomers[4] ?? '', ...regulars], () => 'no', bounded);
        duringPause.push(first, second);
        answersDuringPause = firstAnswerers.length + secondAnswerers.length;

        const given = (annotatorIds: string[], answer: string, stored: Map<string, AnnotatorCounts>) =>
          Promise.all(annotatorIds.map(async (id) => ({ annotatorId: await internalId(id), answer, counts: stored.get(await internalId(id)) ?? null })));
        const decisions = [
          replayDecision(await given(firstAnswerers, 'yes', storedBeforeFirst), prior),
          replayDecision(await given(secondAnswerers, 'no', storedBeforeSecond), prior),
        ];
        const newcomerIds = new Set(await Promise.all(newcomers.map(internalId)));
        for (const { annotatorId, increment } of decisions.flatMap((decision) => decision.increments)) {
          if (newcomerIds.has(annotatorId)) expected.set(annotatorId, applyIncrement({ matrix: [0, 0, 0, 0], correct: 0, answered: 0 }, increment));
        }
      },
    });

    expectRefitted(outcome);
    expect(concurrentRefit).toEqual({ kind: 'busy', scope: scopeKey });
    // Every request of the pause returned while the re-fit waited (a lock held across it would have hung them).
    expect(answersDuringPause).toBeGreaterThanOrEqual(4 + 3);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(answersDuringPause);
    expect(responses.filter((r) => r.status !== 200 && r.status !== 201 && r.status !== 204)).toEqual([]);
    const decided = await world.ctx.prisma.task.findMany({ where: { id: { in: duringPause } }, select: { status: true, result: true } });
    expect(decided).toEqual(
      expect.arrayContaining([
        { status: 'COMPLETED', result: 'yes' },
        { status: 'COMPLETED', result: 'no' },
      ]),
    );

    const counts = await readCounts(scopeKey);
    // Those who answered only during the pause: their rows hold exactly what the decisions added.
    expect(expected.size).toBe(5);
    for (const [annotatorId, want] of expected) {
      const row = counts.get(annotatorId);
      expect(row?.answered).toBe(1);
      expect(row?.correct).toBeCloseTo(want.correct, 12);
      Array.from(want.matrix).forEach((cell, c) => expect(row?.matrix[c]).toBeCloseTo(cell, 12));
    }
    // Everyone's answered count is their number of answers on decided tasks: the fit's, plus the pause's.
    for (const id of regulars) {
      const annotatorId = await internalId(id);
      const answers = await world.ctx.prisma.taskResponse.count({ where: { annotatorId, task: { projectId, status: { in: ['COMPLETED', 'FAILED'] } } } });
      expect(counts.get(annotatorId)?.answered).toBeCloseTo(answers, 9);
    }
    // The scope's re-fit mark is the snapshot's: the pause's answers are growth for the next due check.
    const scope = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scopeKey } });
    expect(scope.refitAnswers).toBeCloseTo(answeredBefore, 9);
    expect(outcome.countedAnswers).toBeCloseTo(answeredBefore, 9);
    expect(scope.refittedAt).toBeInstanceOf(Date);
  });
});

describe('golden answers', () => {
  it("enter the answerer's counts in the golden task's project scope: one whole count at (truth, answer)", async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer);
    const golden = await request(world.ctx.app)
      .post('/api/v1/golden-tasks')
      .set(bearer(buyer.token))
      .send({ type: 'BINARY_CHOICE', content: 'Is a sparrow a bird?', options: ['yes', 'no'], goldenAnswer: 'yes', projectId });
    expect(golden.status).toBe(201);
    // next claims the buyer's open task and, to an annotator with no golden answer yet, serves a golden
    // task of the same buyer, type and locale instead (sdk_next), whatever GOLDEN_RATE says.
    await createTask(buyer, { content: 'Is a bat a bird?', options: ['yes', 'no'], projectId });
    const annotatorId = unique('newcomer');
    const client = sdk(world.ctx, world.developer.apiKey);
    const next = await client.next(annotatorId);
    expect(next.status).toBe(200);
    expect(next.body.task.id).toBe(golden.body.id);
    expect((await client.complete(golden.body.id, annotatorId, 'no')).status).toBe(201);

    const scopeKey = `project:${projectId}`;
    expect(await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scopeKey } })).toMatchObject({
      buyerId: buyer.id,
      projectId,
      options: ['no', 'yes'],
    });
    const counts = await readCounts(scopeKey);
    expect(counts.size).toBe(1);
    // Rows: truth no, yes; columns: answer no, yes. Truth "yes", answer "no": cell 1·2 + 0.
    expect(counts.get(await internalId(annotatorId))).toEqual({ matrix: [0, 0, 1, 0], correct: 0, answered: 1 });
  });
});

describe('the floor of answers (sdk_answer asks for a decision only from validationsNeeded answers on)', () => {
  it('decides nothing before validationsNeeded answers, however confident the posterior, and decides on the last of them', async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer, { content: unique('floor'), options: ['yes', 'no'], validationsNeeded: 5 });
    // New annotators in a new scope: four agreeing answers give about 0.97, past the target 0.95, yet the
    // fifth annotator is still handed the task; the fifth answer decides it.
    const answerers = await answerUntilDecided(
      taskId,
      Array.from({ length: 7 }, (_, i) => unique(`floor-${i}`)),
      () => 'yes',
    );
    expect(answerers).toHaveLength(5);
    expect(await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { status: true, result: true, confidence: true } })).toEqual({
      status: 'COMPLETED',
      result: 'yes',
      confidence: 0.9857,
    });
  });
});

describe('the scope of a task without a project', () => {
  async function decide(buyer: TestBuyer, options: string[], answer: string): Promise<string[]> {
    const taskId = await createTask(buyer, { content: `Pick ${answer} of ${options.join('/')}`, options });
    const answerers = await answerUntilDecided(
      taskId,
      Array.from({ length: 5 }, (_, i) => unique(`scoped-${i}`)),
      () => answer,
    );
    expect(answerers).toHaveLength(4);
    expect(await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { status: true, result: true } })).toEqual({
      status: 'COMPLETED',
      result: answer,
    });
    return Promise.all(answerers.map(internalId));
  }

  it("is the buyer's option set: another buyer with the same options has another scope; one buyer's [b, a] and [a, b] share one", async () => {
    const first = await fundedBuyer();
    const second = await fundedBuyer();
    const firstAB = await decide(first, ['a', 'b'], 'a');
    const firstBA = await decide(first, ['b', 'a'], 'b');
    const secondAB = await decide(second, ['a', 'b'], 'a');

    const scopes = await world.ctx.prisma.labelScope.findMany({ where: { buyerId: { in: [first.id, second.id] } } });
    expect(scopes).toHaveLength(2);
    const scopeOf = (buyer: TestBuyer) => scopes.find((scope) => scope.buyerId === buyer.id);
    for (const buyer of [first, second]) {
      expect(scopeOf(buyer)).toMatchObject({ projectId: null, options: ['a', 'b'], key: expect.stringMatching(new RegExp(`^options:${buyer.id}:`)) });
    }
    expect(scopeOf(first)?.key).not.toBe(scopeOf(second)?.key);

    // Both of the first buyer's tasks moved counts in its one scope, in the scope's option order [a, b].
    const firstCounts = await readCounts(scopeOf(first)?.key ?? '');
    expect([...firstCounts.keys()].sort()).toEqual([...firstAB, ...firstBA].sort());
    // Each answerer gained one count at (result, answer): cell 0 for "a" on an "a" task, cell 3 for "b".
    const expectColumn = (annotatorId: string, counts: Map<string, AnnotatorCounts>, answer: number) => {
      const matrix = answer === 0 ? [1, 0, 0, 0] : [0, 0, 0, 1];
      expect(counts.get(annotatorId)).toEqual({ matrix, correct: 1, answered: 1 });
    };
    for (const id of firstAB) expectColumn(id, firstCounts, 0);
    for (const id of firstBA) expectColumn(id, firstCounts, 1);
    const secondCounts = await readCounts(scopeOf(second)?.key ?? '');
    expect([...secondCounts.keys()].sort()).toEqual([...secondAB].sort());

    // The re-fit reads such a scope by buyer and option set (no project): both tasks, all eight answers.
    const refit = await world.ctx.services.quality.refitScope(scopeOf(first)?.key ?? '');
    expect(refit).toMatchObject({ kind: 'refitted', items: 2, answers: 8, countedAnswers: 8 });
  });
});
