// Result review (docs/organisations.md, README "Result review"): POST /tasks/:id/reject reopens a completed
// task at a higher target, refunds its charge and reserves its budget again, takes back the earnings of the
// answerers who gave the rejected result, and lets the crowd decide again: the same result is charged again
// (kept), another one once, and the annotators' counts and earnings follow the final result. Every step is
// an event; every refusal changes nothing.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { taskCompletedPayload, taskRejectedPayload } from '@concord/contract';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { bearer, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const world = useAnnotationWorld({});

const api = (token: string) => ({
  get: (path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(token)),
  post: (path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(token)).send(body),
  put: (path: string, body: object) => request(world.ctx.app).put(`/api/v1${path}`).set(bearer(token)).send(body),
});

let annotators = 0;
const annotator = (prefix: string) => `${prefix}-${++annotators}`;
const task = (extra: object = {}) => ({ type: 'BINARY_CHOICE', content: 'Is this spam?', options: ['yes', 'no'], ...extra });

async function fundedBuyer(cents: number): Promise<TestBuyer> {
  const buyer = await createBuyer(world.ctx, 'Review Co');
  await fundBuyer(world.ctx, world.adminToken, buyer.id, cents);
  return buyer;
}

const taskRow = (id: string) => world.ctx.prisma.task.findUniqueOrThrow({ where: { id } });
const money = async (buyerId: string) => {
  await world.ctx.services.settlementEffects.settled();
  const row = await world.ctx.prisma.buyer.findUniqueOrThrow({ where: { id: buyerId } });
  return { credit: Number(row.creditBalance), reserved: Number(row.reservedCents) };
};
const earned = async (externalId: string) => Number((await world.ctx.prisma.annotator.findFirstOrThrow({ where: { externalId } })).earnedCents);
const ledgerTypes = async (taskId: string) =>
  (await world.ctx.prisma.ledgerEntry.findMany({ where: { taskId, buyerId: { not: null } }, orderBy: { seq: 'asc' } })).map((row) => [
    row.type,
    Number(row.amountCents),
  ]);

/** Annotators answer `answer` until the task is decided; returns who answered. */
async function answerUntilDecided(taskId: string, answer: string, prefix: string): Promise<string[]> {
  const app = sdk(world.ctx, world.developer.apiKey);
  const answered: string[] = [];
  for (let i = 0; i < 15; i++) {
    const row = await taskRow(taskId);
    if (row.status === 'COMPLETED' || row.status === 'FAILED') return answered;
    const who = annotator(prefix);
    const next = await app.next(who);
    expect(next.body.task.id).toBe(taskId);
    expect((await app.complete(taskId, who, answer)).status).toBe(201);
    answered.push(who);
  }
  throw new Error('the task was never decided');
}

async function completedTask(buyer: TestBuyer, extra: object = {}): Promise<{ taskId: string; answerers: string[] }> {
  const taskId = (await api(buyer.token).post('/tasks', task({ maxCents: 40, ...extra }))).body.taskId as string;
  const answerers = await answerUntilDecided(taskId, 'yes', 'first');
  expect((await taskRow(taskId)).status).toBe('COMPLETED');
  await world.ctx.services.settlementEffects.settled();
  return { taskId, answerers };
}

describe('POST /tasks/:id/reject', () => {
  it('reopens the task at a higher target, refunds its charge, reserves its budget and takes back what its result earned', async () => {
    const buyer = await fundedBuyer(1_000);
    const { taskId, answerers } = await completedTask(buyer);
    const before = await taskRow(taskId);
    expect(await money(buyer.id)).toEqual({ credit: 980, reserved: 0 });
    const earnedBefore = await Promise.all(answerers.map(earned));
    expect(earnedBefore.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

    const rejected = await api(buyer.token).post(`/tasks/${taskId}/reject`, { reason: '  It is a newsletter, not spam  ' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: 'VALIDATING',
      result: null,
      confidence: null,
      validatedAt: null,
      revision: 2,
      targetConfidence: 0.975,
      maxResponses: before.maxResponses + 3,
      rejection: { result: 'yes', confidence: before.confidence, reason: 'It is a newsletter, not spam', rejectedAt: expect.any(String) },
    });
    expect(await money(buyer.id)).toEqual({ credit: 1_000, reserved: 40 });
    expect(await ledgerTypes(taskId)).toEqual([
      ['TASK_CHARGE', -20],
      ['REFUND', 20],
    ]);
    expect(await Promise.all(answerers.map(earned))).toEqual(answerers.map(() => 0));
    const reversals = await world.ctx.prisma.ledgerEntry.findMany({ where: { taskId, type: 'EARNING_REVERSAL' } });
    expect(reversals.reduce((sum, row) => sum - Number(row.amountCents), 0)).toBe(earnedBefore.reduce((a, b) => a + b, 0));
    const counts = await world.ctx.prisma.annotator.findMany({ where: { externalId: { in: answerers } } });
    expect(counts.map((a) => [a.resolvedResponses, a.agreedResponses])).toEqual(answerers.map(() => [0, 0]));

    const events = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'task.rejected' } });
    expect(events).toHaveLength(1);
    expect(taskRejectedPayload.strict().parse(JSON.parse(events[0]?.payload ?? ''))).toMatchObject({
      taskId,
      reason: 'It is a newsletter, not spam',
      rejectedResult: 'yes',
      refundedCents: 20,
      targetConfidence: 0.975,
    });
    const audit = await api(buyer.token).get(`/audit-log?action=rejectTaskResult&target=${taskId}`);
    expect(audit.body.entries[0]).toMatchObject({ before: { status: 'COMPLETED', revision: 1 }, after: { status: 'VALIDATING', refundedCents: 20 } });
    // Once per task.
    expect((await api(buyer.token).post(`/tasks/${taskId}/reject`, { reason: 'again' })).body.code).toBe('ALREADY_REJECTED');
  });

  it('keeps the price when the crowd confirms the result, and pays whoever agrees with it', async () => {
    const buyer = await fundedBuyer(1_000);
    const { taskId } = await completedTask(buyer);
    expect((await api(buyer.token).post(`/tasks/${taskId}/reject`, { reason: 'Not sure' })).status).toBe(200);
    const more = await answerUntilDecided(taskId, 'yes', 'confirm');
    const decided = await api(buyer.token).get(`/tasks/${taskId}`);
    expect(decided.body).toMatchObject({ status: 'COMPLETED', result: 'yes', revision: 2, rejection: { result: 'yes' } });
    expect(decided.body.confidence).toBeGreaterThanOrEqual(0.975);
    expect(await money(buyer.id)).toEqual({ credit: 980, reserved: 0 });
    expect(await ledgerTypes(taskId)).toEqual([
      ['TASK_CHARGE', -20],
      ['REFUND', 20],
      ['TASK_CHARGE', -20],
    ]);
    expect(await earned(more.at(-1) ?? '')).toBeGreaterThan(0);
    const completed = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'task.completed' }, orderBy: { createdAt: 'asc' } });
    const payloads = completed.map((event) => taskCompletedPayload.strict().parse(JSON.parse(event.payload)));
    expect(payloads.map((p) => p.revision)).toEqual([undefined, 2]);
  });

  it('charges once for a new result when the crowd overturns it: the rejected result’s answerers keep nothing', async () => {
    const buyer = await fundedBuyer(1_000);
    // Decided on one answer at a low target (0.6, raised to 0.8 by the rejection), so that the answers after the
    // rejection can outweigh it; every answer after it decides again, and three agreeing ones against the
    // first make the new result.
    const project = (await api(buyer.token).post('/projects', { name: 'Loose', targetConfidence: 0.6 })).body.id as string;
    const { taskId, answerers } = await completedTask(buyer, { projectId: project, validationsNeeded: 1 });
    expect((await api(buyer.token).post(`/tasks/${taskId}/reject`, { reason: 'Wrong' })).body.targetConfidence).toBe(0.8);
    const overturners = await answerUntilDecided(taskId, 'no', 'overturn');
    expect(await taskRow(taskId)).toMatchObject({ status: 'COMPLETED', result: 'no', rejectedResult: 'yes' });
    expect(await money(buyer.id)).toEqual({ credit: 980, reserved: 0 });
    expect(await Promise.all(answerers.map(earned))).toEqual(answerers.map(() => 0));
    const paid = await Promise.all(overturners.map(earned));
    expect(paid.every((cents) => cents > 0)).toBe(true);
    expect(paid.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10);
    const first = await world.ctx.prisma.annotator.findFirstOrThrow({ where: { externalId: answerers[0] } });
    expect([first.resolvedResponses, first.agreedResponses]).toEqual([1, 0]);
    // The project's quality figures count the rejection.
    expect((await api(buyer.token).get(`/projects/${project}/quality`)).body).toMatchObject({ completed: 1, rejected: 1, delivered: 1, rejectedShare: 1 });
  });

  it('refunds and charges nothing more when the reopened task fails or expires', async () => {
    const buyer = await fundedBuyer(1_000);
    const { taskId } = await completedTask(buyer);
    expect((await api(buyer.token).post(`/tasks/${taskId}/reject`, { reason: 'Wrong' })).status).toBe(200);
    await world.ctx.prisma.task.update({ where: { id: taskId }, data: { deadline: new Date(Date.now() - 1_000) } });
    expect(await world.ctx.services.deadlines.expireDue()).toBe(1);
    expect(await taskRow(taskId)).toMatchObject({ status: 'FAILED', failureReason: 'EXPIRED', revision: 2 });
    expect(await money(buyer.id)).toEqual({ credit: 1_000, reserved: 0 });
  });

  it('refuses what it cannot review, changing nothing', async () => {
    const buyer = await fundedBuyer(1_000);
    const as = api(buyer.token);
    const { taskId } = await completedTask(buyer);
    const pending = (await as.post('/tasks', task())).body.taskId;
    expect(await as.post(`/tasks/${pending}/reject`, { reason: 'x' })).toMatchObject({ status: 409, body: { code: 'TASK_NOT_COMPLETED' } });
    expect(await as.post('/tasks/cm00000000000000000000000/reject', { reason: 'x' })).toMatchObject({ status: 404, body: { code: 'TASK_NOT_FOUND' } });
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(1_001) }, { reason: 'x', extra: 1 }]) {
      expect((await as.post(`/tasks/${pending}/reject`, body)).body.code).toBe('VALIDATION_ERROR');
    }
    const old = new Date(Date.now() - 8 * 86_400_000);
    await world.ctx.prisma.task.update({ where: { id: taskId }, data: { validatedAt: old } });
    expect(await as.post(`/tasks/${taskId}/reject`, { reason: 'late' })).toMatchObject({ status: 409, body: { code: 'REVIEW_WINDOW_CLOSED' } });
    // Another organisation's task is not found.
    expect((await api((await fundedBuyer(100)).token).post(`/tasks/${taskId}/reject`, { reason: 'x' })).body.code).toBe('TASK_NOT_FOUND');
    expect((await taskRow(taskId)).status).toBe('COMPLETED');
  });

  it('refuses with 402 INSUFFICIENT_CREDITS when the budget cannot be reserved again, and writes nothing', async () => {
    const tight = await fundedBuyer(60);
    const { taskId } = await completedTask(tight);
    // 40 left, 20 of them reserved by another task: after the refund 60, 20 reserved, 40 needed → 40 available.
    expect((await api(tight.token).post('/tasks', task({ maxCents: 20 }))).status).toBe(201);
    expect((await api(tight.token).post('/tasks', task({ maxCents: 20 }))).status).toBe(201);
    const short = await api(tight.token).post(`/tasks/${taskId}/reject`, { reason: 'x' });
    expect(short).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 40, availableCents: 20 } } });
    expect(await taskRow(taskId)).toMatchObject({ status: 'COMPLETED', revision: 1 });
    expect(await money(tight.id)).toEqual({ credit: 40, reserved: 40 });
  });

  it('refuses with 402 BUDGET_CAP_REACHED when the reopened budget would pass a cap', async () => {
    const capped = await fundedBuyer(1_000);
    const project = (await api(capped.token).post('/projects', { name: 'Capped' })).body.id as string;
    expect((await api(capped.token).put(`/projects/${project}/budget-cap`, { capCents: 40 })).status).toBe(200);
    const inProject = await completedTask(capped, { projectId: project });
    expect((await api(capped.token).post('/tasks', task({ projectId: project }))).status).toBe(201);
    const over = await api(capped.token).post(`/tasks/${inProject.taskId}/reject`, { reason: 'x' });
    expect(over).toMatchObject({ status: 402, body: { code: 'BUDGET_CAP_REACHED', details: { scope: 'project', committedCents: 40, requiredCents: 20 } } });
    expect(await ledgerTypes(inProject.taskId)).toEqual([['TASK_CHARGE', -20]]);
  });

  it('reopens a text task with its review task; a review task itself is refused', async () => {
    const buyer = await fundedBuyer(1_000);
    const as = api(buyer.token);
    const taskId = (await as.post('/tasks', { type: 'BINARY_CHOICE', answerKind: 'text', content: 'Why does ice float?', validationsNeeded: 2 })).body.taskId;
    const app = sdk(world.ctx, world.developer.apiKey);
    for (const text of ['It is lighter.', 'Ice is less dense than water.']) {
      const writer = annotator('writer');
      expect((await app.next(writer)).body.task.id).toBe(taskId);
      expect((await app.complete(taskId, writer, text)).status).toBe(201);
    }
    const reviewId = `${taskId}-review`;
    await answerUntilDecided(reviewId, 'Answer 2', 'reviewer');
    expect(await taskRow(taskId)).toMatchObject({ status: 'COMPLETED', result: 'Ice is less dense than water.' });
    expect(await money(buyer.id)).toEqual({ credit: 960, reserved: 0 });
    expect((await as.post(`/tasks/${reviewId}/reject`, { reason: 'x' })).body.code).toBe('TASK_IS_REVIEW');

    const rejected = await as.post(`/tasks/${taskId}/reject`, { reason: 'Too short' });
    expect(rejected.body).toMatchObject({ status: 'VALIDATING', revision: 2, rejection: { result: 'Ice is less dense than water.' }, maxResponses: 2 });
    expect(await taskRow(reviewId)).toMatchObject({ status: 'VALIDATING', revision: 2, targetConfidence: 0.975 });
    expect(await money(buyer.id)).toEqual({ credit: 1_000, reserved: 40 });
    expect(await world.ctx.prisma.event.count({ where: { buyerId: buyer.id, type: 'task.rejected' } })).toBe(2);
    // The review decides again, and the text task with it.
    await answerUntilDecided(reviewId, 'Answer 2', 'second-reviewer');
    expect(await taskRow(taskId)).toMatchObject({ status: 'COMPLETED', result: 'Ice is less dense than water.', revision: 2 });
    expect(await money(buyer.id)).toEqual({ credit: 960, reserved: 0 });
  });
});
