import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearer, createDeveloper, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { sdk } from '../helpers/sdk.ts';
import { decisionUpdates } from '../../src/modules/settlement/plan.ts';

// GOLDEN_RATE 0: after an annotator's first golden task, none is served by chance.
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0' } });

const annotator = (label = 'ann') => `${label}-${randomUUID().slice(0, 8)}`;

const fundedBuyer = (cents = 10_000) => createFundedBuyer(world.ctx, world.adminToken, cents);

async function createTask(buyer: TestBuyer, body: Record<string, unknown> = {}): Promise<string> {
  const res = await request(world.ctx.app)
    .post('/api/v1/tasks')
    .set(bearer(buyer.token))
    .send({ type: 'BINARY_CHOICE', content: 'Is this a cat?', options: ['A', 'B'], ...body });
  expect(res.status).toBe(201);
  return res.body.taskId;
}

/** Each answer by a new annotator: next (must hand out this task), then complete. */
async function answerAll(taskId: string, answers: string[]): Promise<string[]> {
  const client = sdk(world.ctx, world.developer.apiKey);
  const annotators: string[] = [];
  for (const answer of answers) {
    const id = annotator();
    const next = await client.next(id);
    expect(next.status).toBe(200);
    expect(next.body.task.id).toBe(taskId);
    const done = await client.complete(taskId, id, answer);
    expect(done.status).toBe(201);
    expect(done.body).toEqual({ accepted: true });
    annotators.push(id);
  }
  return annotators;
}

/** A task's quality settings set directly, for tests of the queue and the checks rather than of the model. */
const tune = (ids: string[], data: { maxResponses?: number; targetConfidence?: number }) =>
  world.ctx.prisma.task.updateMany({ where: { id: { in: ids } }, data });

const readTask = async (buyer: TestBuyer, id: string) => (await request(world.ctx.app).get(`/api/v1/tasks/${id}`).set(bearer(buyer.token))).body;
const balanceOf = (buyer: TestBuyer) => world.ctx.services.db.repos.billing.getBalance(buyer.id);

// CONTRACT §5's worked examples: new annotators in a new scope (each test's buyer is new, and tasks
// without a project form a scope per buyer and option set), defaults target 0.95, maxResponses 10.
describe('the contract worked examples, through HTTP', () => {
  it('two options, 3 of 3 agree → 0.9270 keeps collecting; the 4th → COMPLETED with 0.9674; billed once; half the cost split among the four', async () => {
    const buyer = await fundedBuyer(1_000);
    const taskId = await createTask(buyer);
    const annotators = await answerAll(taskId, ['A', 'A', 'A']);
    expect(await readTask(buyer, taskId)).toMatchObject({ status: 'VALIDATING', result: null, confidence: null, totalResponses: 3, maxResponses: 10 });
    annotators.push(...(await answerAll(taskId, ['A'])));
    const task = await readTask(buyer, taskId);
    expect(task).toMatchObject({ status: 'COMPLETED', result: 'A', confidence: 0.9674, totalResponses: 4, validatedAt: expect.any(String) });
    expect(task.responses).toEqual(Array.from({ length: 4 }, () => ({ answer: 'A', timeSpentMs: 1500 })));
    expect(await balanceOf(buyer)).toEqual({ creditBalance: 980, reservedCents: 0, availableCents: 980 });
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE', taskId } })).toBe(1);
    for (const id of annotators) {
      const earnings = await sdk(world.ctx, world.developer.apiKey).get(`/annotators/${id}/earnings`);
      expect(earnings.body).toEqual({ annotatorId: id, totalEarnedCents: 2, paidOutCents: 0, pendingPayoutCents: 0, availableCents: 2 });
    }
    const event = await world.ctx.prisma.event.findFirstOrThrow({ where: { buyerId: buyer.id, type: 'task.completed' } });
    expect(JSON.parse(event.payload)).toEqual({
      event: 'task.completed',
      taskId,
      type: 'BINARY_CHOICE',
      result: 'A',
      confidence: 0.9674,
      totalResponses: 4,
      costCents: 20,
      validatedAt: task.validatedAt,
    });
    // The decision gave each of the four answerers one count at (result A, answer A) in the scope.
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scope: { buyerId: buyer.id } } });
    expect(counts).toHaveLength(4);
    for (const row of counts) expect(row).toMatchObject({ answered: 1, correct: 1, matrix: [1, 0, 0, 0] });
  });

  it('two options, 2–1 then agreeing answers → COMPLETED at 5–1 with 0.9674', async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer);
    await answerAll(taskId, ['A', 'B', 'A']);
    expect(await readTask(buyer, taskId)).toMatchObject({ status: 'VALIDATING', result: null, totalResponses: 3 });
    expect((await balanceOf(buyer))?.reservedCents).toBe(20);
    await answerAll(taskId, ['A', 'A']);
    expect(await readTask(buyer, taskId)).toMatchObject({ status: 'VALIDATING', totalResponses: 5 });
    await answerAll(taskId, ['A']);
    expect(await readTask(buyer, taskId)).toMatchObject({ status: 'COMPLETED', result: 'A', confidence: 0.9674, totalResponses: 6 });
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } })).toBe(1);
  });

  it('alternating A,B,A,B,… → FAILED NO_CONSENSUS at the 10th; nothing billed, reservation released', async () => {
    const buyer = await fundedBuyer(1_000);
    const taskId = await createTask(buyer);
    for (let i = 0; i < 10; i++) {
      await answerAll(taskId, [i % 2 === 0 ? 'A' : 'B']);
      const task = await readTask(buyer, taskId);
      expect(task.status).toBe(i < 9 ? 'VALIDATING' : 'FAILED');
    }
    const task = await readTask(buyer, taskId);
    expect(task).toMatchObject({ status: 'FAILED', failureReason: 'NO_CONSENSUS', result: null, totalResponses: 10 });
    expect(await balanceOf(buyer)).toEqual({ creditBalance: 1_000, reservedCents: 0, availableCents: 1_000 });
    const event = await world.ctx.prisma.event.findFirstOrThrow({ where: { buyerId: buyer.id, type: 'task.failed' } });
    expect(JSON.parse(event.payload)).toEqual({
      event: 'task.failed',
      taskId,
      type: 'BINARY_CHOICE',
      reason: 'NO_CONSENSUS',
      totalResponses: 10,
      failedAt: expect.stringMatching(/Z$/),
    });
    // An eleventh annotator finds nothing to do.
    expect((await sdk(world.ctx, world.developer.apiKey).next(annotator())).status).toBe(204);
  });

  it('three options: 2–1–0 → 0.7935 keeps collecting; 3 of 3 → COMPLETED with 0.9807, the agreeing get 3 cents each', async () => {
    const buyer = await fundedBuyer();
    const agreed = await createTask(buyer, { type: 'SENTIMENT_ANALYSIS', options: ['A', 'B', 'C'] });
    const trio = await answerAll(agreed, ['C', 'C', 'C']);
    expect(await readTask(buyer, agreed)).toMatchObject({ status: 'COMPLETED', result: 'C', confidence: 0.9807 });
    const earned = async (id: string | undefined) => (await sdk(world.ctx, world.developer.apiKey).get(`/annotators/${id}/earnings`)).body.totalEarnedCents;
    expect(await Promise.all(trio.map(earned))).toEqual([3, 3, 3]);
    const split = await createTask(buyer, { type: 'SENTIMENT_ANALYSIS', options: ['A', 'B', 'C'] });
    const [, second] = await answerAll(split, ['A', 'B', 'A']);
    expect(await readTask(buyer, split)).toMatchObject({ status: 'VALIDATING', result: null, totalResponses: 3 });
    // The public reliability keeps the contract's formula: an answer on an undecided task changes nothing.
    const reputation = await sdk(world.ctx, world.developer.apiKey).get(`/annotators/${second}/reputation`);
    expect(reputation.body).toEqual({
      annotatorId: second,
      level: 'NOVICE',
      reliability: 0.7,
      goldenAnswered: 0,
      goldenAccuracy: null,
      totalResponses: 1,
      resolvedResponses: 0,
      agreementRate: null,
      suspended: false,
      asOf: expect.any(String),
    });
  });
});

describe('assignment', () => {
  it('hands out the oldest open task, the same live assignment on repeat, and never a task already answered', async () => {
    const buyer = await fundedBuyer();
    const first = await createTask(buyer, { content: 'first' });
    const second = await createTask(buyer, { content: 'second' });
    const client = sdk(world.ctx, world.developer.apiKey);
    const id = annotator();
    const a = await client.next(id);
    expect(a.body).toEqual({
      assignmentId: expect.any(String),
      expiresAt: expect.any(String),
      task: { id: first, type: 'BINARY_CHOICE', content: 'first', options: ['A', 'B'], locale: 'en' },
    });
    expect(new Date(a.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    const again = await client.next(id);
    expect(again.body.assignmentId).toBe(a.body.assignmentId);
    await client.complete(first, id, 'A');
    const b = await client.next(id);
    expect(b.body.task.id).toBe(second);
  });

  it('filters by locale and types, and answers 204 when nothing fits', async () => {
    const buyer = await fundedBuyer();
    const french = await createTask(buyer, { locale: 'fr' });
    const image = await createTask(buyer, { type: 'IMAGE_CLASSIFICATION', content: 'https://img.test/cat.png' });
    const client = sdk(world.ctx, world.developer.apiKey);
    expect((await client.next(annotator(), { locale: 'fr' })).body.task.id).toBe(french);
    expect((await client.next(annotator(), { types: 'IMAGE_CLASSIFICATION,RELEVANCE_RATING' })).body.task.id).toBe(image);
    expect((await client.next(annotator(), { locale: 'zh' })).status).toBe(204);
    const bad = await client.next(annotator(), { types: 'NOPE' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  it('never hands out more live assignments plus answers than maxResponses, and frees expired slots', async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer, { validationsNeeded: 1 });
    await tune([taskId], { maxResponses: 2 });
    const client = sdk(world.ctx, world.developer.apiKey);
    const holders = [annotator(), annotator()];
    for (const id of holders) expect((await client.next(id)).body.task.id).toBe(taskId);
    expect((await client.next(annotator())).status).toBe(204);
    await world.ctx.prisma.assignment.updateMany({ where: { taskId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await client.next(annotator())).body.task.id).toBe(taskId);
    // The expired holder's answer is refused.
    const late = await client.complete(taskId, holders[0] as string, 'A');
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('NO_ASSIGNMENT');
  });

  it('among tasks of the same age (one batch), serves one short of assignees before a surplus slot; an older task still comes first', async () => {
    const buyer = await fundedBuyer();
    const batch = await request(world.ctx.app)
      .post('/api/v1/tasks/batch')
      .set(bearer(buyer.token))
      .send({ tasks: ['b1', 'b2'].map((content) => ({ type: 'BINARY_CHOICE', content, options: ['A', 'B'], validationsNeeded: 2 })) });
    expect(batch.status).toBe(201);
    // Same created_at: the queue orders them by id.
    const [b1, b2] = (batch.body.tasks as Array<{ taskId: string }>).map((t) => t.taskId).sort();
    await tune([b1 as string, b2 as string], { maxResponses: 4 });
    const client = sdk(world.ctx, world.developer.apiKey);
    const taskOf = async (id: string) => (await client.next(id)).body.task.id as string;
    // b1 takes two assignees (what validationsNeeded asks), then b2 does; only then the surplus slots.
    const served: string[] = [];
    for (let i = 0; i < 5; i++) served.push(await taskOf(annotator()));
    expect(served).toEqual([b1, b1, b2, b2, b1]);
    // b1 and b2 are older than `later`: their surplus slots (up to maxResponses 4) still come first.
    const later = await createTask(buyer, { content: 'later', validationsNeeded: 2 });
    await tune([later], { maxResponses: 4 });
    expect([await taskOf(annotator()), await taskOf(annotator()), await taskOf(annotator()), await taskOf(annotator())]).toEqual([b1, b2, b2, later]);
  });

  it('claims several annotators in one statement exactly as one at a time (sdk_next_batch)', async () => {
    const buyer = await fundedBuyer();
    const english = await createTask(buyer, { content: 'english', validationsNeeded: 1 });
    const french = await createTask(buyer, { content: 'french', validationsNeeded: 1, locale: 'fr' });
    await tune([english, french], { maxResponses: 2 });
    const [a, b, c] = [annotator(), annotator(), annotator()];
    const request = (externalId: string, filters = {}) => ({ developerId: world.developer.id, externalId, filters, goldenRoll: 0.5, orderRoll: 0.5 });
    const now = new Date();
    const served = await world.ctx.services.db.rawRepos.assignments.nextBatch(
      [request(a), request(b), request(a), request(c), request(annotator(), { locale: 'fr' })],
      now,
      new Date(now.getTime() + 600_000),
      { rate: 0, firstRate: 1 },
    );
    const taskOf = (i: number) => {
      const outcome = served[i];
      return outcome?.outcome === 'SERVED' ? { task: outcome.task.id, assignment: outcome.assignmentId } : outcome?.outcome;
    };
    // maxResponses 2: a and b take the english task's two slots; a asking again gets the same
    // assignment; c, claimed after them in the same statement, finds it full and gets the french task
    // (no locale filter); the last request asks for French only.
    expect(taskOf(0)).toMatchObject({ task: english });
    expect(taskOf(1)).toMatchObject({ task: english });
    expect(taskOf(2)).toEqual(taskOf(0));
    expect(taskOf(3)).toMatchObject({ task: french });
    expect(taskOf(4)).toMatchObject({ task: french });
    expect(await world.ctx.prisma.assignment.count({ where: { taskId: english } })).toBe(2);
  });

  it('rejects a malformed annotatorId', async () => {
    const res = await sdk(world.ctx, world.developer.apiKey).next('has spaces!');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('answers in one statement (sdk_answer_batch)', () => {
  it('are each checked exactly as alone, in task order, and come back in the order asked', async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer, { validationsNeeded: 3 });
    const client = sdk(world.ctx, world.developer.apiKey);
    const [a, b, c] = [annotator(), annotator(), annotator()];
    for (const id of [a, b]) expect((await client.next(id)).body.task.id).toBe(taskId);
    const now = new Date();
    const answer = (externalId: string, value: string) => ({ developerId: world.developer.id, externalId, taskId, answer: value, timeSpentMs: 700, now });
    const other = await createTask(buyer, { validationsNeeded: 3 });
    const outcomes = await world.ctx.services.db.rawRepos.assignments.answerBatch(
      [answer(a, 'A'), answer(c, 'A'), answer(b, 'nope'), answer(a, 'B'), answer(b, 'B')],
      { rate: 0, firstRate: 1 },
    );
    // c holds no assignment; b's first answer is not an option; a's second sees a's first, stored earlier in the statement.
    expect(outcomes.map((o) => o.outcome)).toEqual(['ANSWERED', 'NO_ASSIGNMENT', 'INVALID_ANSWER', 'ALREADY_ANSWERED', 'ANSWERED']);
    expect(outcomes.filter((o) => 'next' in o)).toEqual([]);
    expect(await readTask(buyer, taskId)).toMatchObject({ status: 'VALIDATING', totalResponses: 2 });
    // Without `next` nothing is claimed, though another task is open.
    expect(await world.ctx.prisma.assignment.count({ where: { annotator: { externalId: { in: [a, b, c] } } } })).toBe(0);
    expect((await readTask(buyer, other)).totalResponses).toBe(0);
  });

  it('claim the next assignment in the same statement for an answer with `next` that is stored, and only for it', async () => {
    const buyer = await fundedBuyer();
    const first = await createTask(buyer, { validationsNeeded: 3 });
    const second = await createTask(buyer, { validationsNeeded: 3 });
    const client = sdk(world.ctx, world.developer.apiKey);
    const [a, b, c] = [annotator(), annotator(), annotator()];
    for (const id of [a, b]) expect((await client.next(id)).body.task.id).toBe(first);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 600_000);
    const next = { filters: {}, goldenRoll: 0.5, orderRoll: 0.5, expiresAt };
    const answer = (externalId: string, value: string) => ({
      developerId: world.developer.id,
      externalId,
      taskId: first,
      answer: value,
      timeSpentMs: 700,
      now,
      next,
    });
    const outcomes = await world.ctx.services.db.rawRepos.assignments.answerBatch([answer(a, 'A'), answer(b, 'nope'), answer(c, 'A')], {
      rate: 0,
      firstRate: 1,
    });
    expect(outcomes.map((o) => o.outcome)).toEqual(['ANSWERED', 'INVALID_ANSWER', 'NO_ASSIGNMENT']);
    // a's answer is stored, so a is handed the next open task it has not answered, as GET next would now.
    expect(outcomes[0]).toMatchObject({ outcome: 'ANSWERED', next: { outcome: 'SERVED', expiresAt, task: { id: second } } });
    // The refused answers claimed nothing: b still holds its assignment of the first task, c none.
    expect((await client.next(b)).body.task.id).toBe(first);
    const held = await world.ctx.prisma.assignment.findMany({ where: { annotator: { externalId: { in: [a, c] } } }, select: { taskId: true } });
    expect(held).toEqual([{ taskId: second }]);
  });
});

describe('a deciding answer', () => {
  it('is written only if the task still has the answers its decision counted (STALE otherwise), and the service then decides again', async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer, { validationsNeeded: 2 });
    const client = sdk(world.ctx, world.developer.apiKey);
    await client.answerNext(annotator(), 'A');
    const [x, y] = [annotator(), annotator()];
    for (const id of [x, y]) expect((await client.next(id)).body.task.id).toBe(taskId);
    const assignments = world.ctx.services.db.rawRepos.assignments;
    const now = new Date();
    const input = { answer: 'B', timeSpentMs: 900 };
    // Both answers could decide the task (one answer stored, two needed): both come back DECIDE, nothing written.
    const probeX = await assignments.answer(world.developer.id, x, taskId, input, now);
    const probeY = await assignments.answer(world.developer.id, y, taskId, input, now);
    if (probeX.outcome !== 'DECIDE' || probeY.outcome !== 'DECIDE') throw new Error('expected DECIDE twice');
    expect(probeY.participants.map((p) => p.answer)).toEqual(['A', 'B']);
    const settle = (probe: typeof probeX) => ({
      seenResponses: probe.task.totalResponses,
      plan: { kind: 'continue' as const, updates: decisionUpdates([{ annotatorId: probe.annotatorId, answered: 1, resolved: 0, agreed: 0, earnedCents: 0 }]) },
    });
    expect((await assignments.answer(world.developer.id, x, taskId, input, now, settle(probeX))).outcome).toBe('SETTLED');
    // Y's decision counted one answer; the task has two now.
    expect((await assignments.answer(world.developer.id, y, taskId, input, now, settle(probeY))).outcome).toBe('STALE');
    expect((await readTask(buyer, taskId)).totalResponses).toBe(2);
    // Through the route the service takes Y's answer again from the start: A, B, B is 1–2, 0.7000, still open.
    expect((await client.complete(taskId, y, 'B')).status).toBe(201);
    expect(await readTask(buyer, taskId)).toMatchObject({ status: 'VALIDATING', totalResponses: 3 });
  });
});

describe('SDK error codes', () => {
  it('INVALID_ANSWER, ALREADY_ANSWERED, NO_ASSIGNMENT, TASK_CLOSED and TASK_NOT_FOUND', async () => {
    const buyer = await fundedBuyer();
    // Two agreeing new annotators reach 0.845 ≥ 0.8; four slots.
    const taskId = await createTask(buyer, { validationsNeeded: 2 });
    await tune([taskId], { maxResponses: 4, targetConfidence: 0.8 });
    const client = sdk(world.ctx, world.developer.apiKey);
    const id = annotator();
    const stranger = await client.complete(taskId, annotator(), 'A');
    expect([stranger.status, stranger.body.code]).toEqual([409, 'NO_ASSIGNMENT']);
    await client.next(id);
    const invalid = await client.complete(taskId, id, 'C');
    expect([invalid.status, invalid.body.code]).toEqual([400, 'INVALID_ANSWER']);
    expect((await client.complete(taskId, id, 'A')).status).toBe(201);
    const again = await client.complete(taskId, id, 'A');
    expect([again.status, again.body.code]).toEqual([409, 'ALREADY_ANSWERED']);
    const holder = annotator();
    const other = annotator();
    expect((await client.next(holder)).body.task.id).toBe(taskId);
    expect((await client.next(other)).body.task.id).toBe(taskId);
    expect((await client.complete(taskId, other, 'A')).status).toBe(201);
    expect((await readTask(buyer, taskId)).status).toBe('COMPLETED');
    // The annotator still holding an assignment learns the task closed; anyone else only that they hold
    // none (as for a golden task, which never closes: a closed task must not tell the two apart).
    const closed = await client.complete(taskId, holder, 'A');
    expect([closed.status, closed.body.code]).toEqual([409, 'TASK_CLOSED']);
    const late = await client.complete(taskId, annotator(), 'A');
    expect([late.status, late.body.code]).toEqual([409, 'NO_ASSIGNMENT']);
    const missing = await client.complete('c000000000000000000000000', annotator(), 'A');
    expect([missing.status, missing.body.code]).toEqual([404, 'TASK_NOT_FOUND']);
  });

  it('validates the answer body (timeSpentMs 0–86 400 000, no unknown fields)', async () => {
    const client = sdk(world.ctx, world.developer.apiKey);
    for (const body of [
      { annotatorId: 'a', answer: 'A', timeSpentMs: -1 },
      { annotatorId: 'a', answer: 'A', timeSpentMs: 86_400_001 },
      { annotatorId: 'a', answer: 'A' },
      { annotatorId: 'a', answer: 'A', timeSpentMs: 5, extra: 1 },
    ]) {
      const res = await client.post('/tasks/c000000000000000000000000/complete', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('ANNOTATOR_NOT_FOUND for the reputation, earnings and payouts of an annotator never seen', async () => {
    const client = sdk(world.ctx, world.developer.apiKey);
    for (const path of ['reputation', 'earnings', 'payouts']) {
      const res = await client.get(`/annotators/${annotator()}/${path}`);
      expect([res.status, res.body.code]).toEqual([404, 'ANNOTATOR_NOT_FOUND']);
    }
  });

  it("annotators are per developer: another app's annotator of the same name is someone else", async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer, { validationsNeeded: 1 });
    const other = await createDeveloper(world.ctx, world.adminToken);
    const name = annotator();
    await sdk(world.ctx, world.developer.apiKey).answerNext(name, 'A');
    expect((await sdk(world.ctx, other.apiKey).get(`/annotators/${name}/reputation`)).status).toBe(404);
    expect((await sdk(world.ctx, other.apiKey).next(name)).body.task.id).toBe(taskId);
  });
});
