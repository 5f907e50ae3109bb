// Text tasks through HTTP (docs/answer-kinds.md): created with their instruction and maxLength at twice the
// price, written by validationsNeeded annotators, then reviewed by others in a review task of their own
// (never by a writer) whose decision decides the text task: the winning text, both charges once, the
// winning writer paid, both events, and exports that use the written answer; a failed review fails both.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { bearer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0' } });
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const instruction = 'Write a one-sentence answer: why does ice float on water?';
const textTask = (extra: object = {}) => ({ type: 'BINARY_CHOICE', answerKind: 'text', content: instruction, ...extra });
const texts = [
  'Because it is cold.',
  'Ice is less dense than liquid water, because its molecules lock into an open hexagonal lattice.',
  'It floats since it is lighter.',
];

const post = (buyer: TestBuyer, path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);
const get = (buyer: TestBuyer, path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token));
const balance = (buyer: TestBuyer) => world.ctx.services.db.repos.billing.getBalance(buyer.id);

/** Three writers write `texts` in order; returns their annotator ids. */
async function write(taskId: string): Promise<string[]> {
  const client = sdk(world.ctx, world.developer.apiKey);
  const writers: string[] = [];
  for (const text of texts) {
    const writer = unique('writer');
    const next = await client.next(writer);
    expect(next.body.task).toMatchObject({ id: taskId, answerKind: 'text', content: instruction, options: [], maxLength: 2000 });
    expect((await client.complete(taskId, writer, text)).status).toBe(201);
    writers.push(writer);
  }
  return writers;
}

/** Reviewers answer the review task with `choose(n)` until it is decided; returns how many answered. */
async function review(reviewId: string, choose: (n: number) => string): Promise<number> {
  const client = sdk(world.ctx, world.developer.apiKey);
  for (let n = 0; n < 12; n++) {
    const reviewer = unique('reviewer');
    const next = await client.next(reviewer);
    if (next.status === 204) return n;
    expect(next.body.task).toMatchObject({ id: reviewId, options: ['Answer 1', 'Answer 2', 'Answer 3'] });
    expect((await client.complete(reviewId, reviewer, choose(n))).status).toBe(201);
  }
  throw new Error('the review was never decided');
}

describe('text tasks', () => {
  it('are created at twice the price with their maxLength, and refused with the field named when the shape is wrong', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const created = await post(buyer, '/tasks', textTask());
    expect(created.status).toBe(201);
    // What it will cost: the writing and its review.
    expect(created.body.costCents).toBe(40);
    expect((await post(buyer, '/tasks/batch', { tasks: [textTask(), { type: 'BINARY_CHOICE', content: 'Yes?', options: ['yes', 'no'] }] })).body).toMatchObject(
      {
        totalCostCents: 60,
      },
    );
    expect((await get(buyer, `/tasks/${created.body.taskId}`)).body).toMatchObject({
      answerKind: 'text',
      options: [],
      maxLength: 2000,
      maxCents: 40,
      maxResponses: 3,
      reviewTaskId: null,
    });
    expect(await balance(buyer)).toMatchObject({ reservedCents: 100 });
    const csv = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach('file', Buffer.from(`type,content,options,answerKind,maxLength\nBINARY_CHOICE,Describe a cat,,text,280\n`), 'tasks.csv');
    expect(csv.body).toMatchObject({ created: 1, errors: [] });
    expect((await get(buyer, `/tasks/${csv.body.tasks[0].taskId}`)).body).toMatchObject({ answerKind: 'text', maxLength: 280 });

    const pathOf = async (body: object) => (await post(buyer, '/tasks', body)).body.details?.issues?.map((issue: { path: string }) => issue.path);
    expect(await pathOf(textTask({ options: ['a', 'b'] }))).toEqual(['options']);
    expect(await pathOf(textTask({ validationsNeeded: 1 }))).toEqual(['validationsNeeded']);
    expect(await pathOf(textTask({ maxLength: 10_001 }))).toEqual(['maxLength']);
    expect(await pathOf(textTask({ maxCents: 30 }))).toEqual(['maxCents']);
    expect(await pathOf({ type: 'BINARY_CHOICE', content: 'Yes?', options: ['yes', 'no'], maxLength: 10 })).toEqual(['maxLength']);
    const golden = await post(buyer, '/golden-tasks', { ...textTask(), goldenAnswer: 'Anything' });
    expect(golden.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'answerKind' }] } });
  });

  it('are written, then reviewed by others in a review task that decides them: the winning text, both charges once, the writer paid', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const projectId: string = (await post(buyer, '/projects', { name: unique('written') })).body.id;
    const taskId: string = (await post(buyer, '/tasks', textTask({ projectId }))).body.taskId;

    // A written answer is one trimmed text within maxLength: anything else changes nothing.
    const client = sdk(world.ctx, world.developer.apiKey);
    const probe = unique('probe');
    await client.next(probe);
    expect((await client.complete(taskId, probe, '   ')).body).toMatchObject({
      code: 'INVALID_ANSWER',
      error: expect.stringContaining('this one is 0 characters'),
    });
    expect((await client.complete(taskId, probe, 'x'.repeat(2001))).body).toMatchObject({
      code: 'INVALID_ANSWER',
      error: 'The answer must be one written text of 1 to 2000 characters once trimmed; this one is 2001 characters once trimmed',
      details: { issues: [{ path: 'answer', message: expect.stringContaining('2001 characters') }] },
    });
    expect((await client.post(`/tasks/${taskId}/complete`, { annotatorId: probe, answer: ['a list'], timeSpentMs: 10 })).body).toMatchObject({
      code: 'INVALID_ANSWER',
    });
    expect(await world.ctx.prisma.taskResponse.count({ where: { taskId } })).toBe(0);
    await world.ctx.prisma.assignment.deleteMany({ where: { taskId } });

    const writers = await write(taskId);
    const reviewId = `${taskId}-review`;
    const text = (await get(buyer, `/tasks/${taskId}`)).body;
    expect(text).toMatchObject({ status: 'VALIDATING', reviewTaskId: reviewId, totalResponses: 3, result: null });
    const reviewTask = (await get(buyer, `/tasks/${reviewId}`)).body;
    expect(reviewTask).toMatchObject({ reviewOf: taskId, options: ['Answer 1', 'Answer 2', 'Answer 3'], maxCents: 20, costCents: 20, status: 'PENDING' });
    expect(reviewTask.content).toBe(`${instruction}\n\nAnswer 1:\n${texts[0]}\n\nAnswer 2:\n${texts[1]}\n\nAnswer 3:\n${texts[2]}`);
    // The review's budget was the text task's second half: the reserve is as it was.
    expect(await balance(buyer)).toMatchObject({ reservedCents: 40 });
    // The review belongs to its text task: the buyer cannot change or delete it.
    for (const call of [
      request(world.ctx.app).patch(`/api/v1/tasks/${reviewId}`).send({ maxCents: 30 }),
      request(world.ctx.app).delete(`/api/v1/tasks/${reviewId}`),
    ]) {
      const refused = await call.set(bearer(buyer.token));
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'TASK_IS_REVIEW', error: expect.stringContaining(taskId) });
    }
    // A writer never reviews their own task.
    expect((await client.next(writers[0] as string)).status).toBe(204);

    const reviewers = await review(reviewId, () => 'Answer 2');
    expect(reviewers).toBeGreaterThanOrEqual(3);
    const decided = (await get(buyer, `/tasks/${taskId}`)).body;
    expect(decided).toMatchObject({ status: 'COMPLETED', result: texts[1], answerKind: 'text' });
    const reviewed = (await get(buyer, `/tasks/${reviewId}`)).body;
    expect(reviewed).toMatchObject({ status: 'COMPLETED', result: 'Answer 2' });
    expect(decided.confidence).toBe(reviewed.confidence);

    await world.ctx.services.settlementEffects.settled();
    for (const id of [taskId, reviewId]) expect(await world.ctx.prisma.ledgerEntry.count({ where: { taskId: id, type: 'TASK_CHARGE' } })).toBe(1);
    expect(await balance(buyer)).toEqual({ creditBalance: 10_000 - 40, reservedCents: 0, availableCents: 10_000 - 40 });
    // The writer of the chosen text earns the annotators' share (ANNOTATOR_SHARE 0.5) of the writing's 20 cents.
    const earned = await world.ctx.prisma.annotator.findMany({ where: { externalId: { in: writers } }, select: { externalId: true, earnedCents: true } });
    expect(Object.fromEntries(earned.map((a) => [a.externalId, Number(a.earnedCents)]))).toEqual({
      [writers[0] as string]: 0,
      [writers[1] as string]: 10,
      [writers[2] as string]: 0,
    });

    const events = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'task.completed' } });
    // One event each, written in the review's decision (in either order).
    expect(events).toHaveLength(2);
    expect(events.map((event) => JSON.parse(event.payload))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ taskId: reviewId, result: 'Answer 2', reviewOf: taskId }),
        expect.objectContaining({ taskId, result: texts[1], answerKind: 'text', reviewTaskId: reviewId, totalResponses: 3, confidence: decided.confidence }),
      ]),
    );

    // Neither the written answer nor its review's choice is a label: both count in the total only.
    expect((await get(buyer, `/projects/${projectId}/distribution`)).body).toMatchObject({ completed: 2, labels: [], kinds: { text: 1, single: 0 } });

    // The dataset holds the text task (its review is not training data); the chat formats answer with the text.
    // Counted as an export counts: the review is a task of the buyer's, but not one an export holds.
    expect((await get(buyer, '/tasks/counts')).body.counts.COMPLETED).toBe(2);
    expect((await get(buyer, '/tasks/counts?exported=true')).body.counts.COMPLETED).toBe(1);
    const jsonl = (await get(buyer, '/exports?format=jsonl')).text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(jsonl).toEqual([{ id: taskId, type: 'BINARY_CHOICE', content: instruction, label: texts[1], answerKind: 'text' }]);
    const openai = JSON.parse((await get(buyer, '/exports?format=openai')).text.trim());
    expect(openai.messages).toEqual([
      { role: 'user', content: instruction },
      { role: 'assistant', content: texts[1] },
    ]);
    expect(JSON.parse((await get(buyer, '/exports?format=alpaca')).text.trim())).toEqual({ instruction, input: '', output: texts[1] });
  });

  it('take no written answer once the writing is complete, nor one that forges the review’s layout', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const taskId: string = (await post(buyer, '/tasks', textTask())).body.taskId;
    const client = sdk(world.ctx, world.developer.apiKey);
    // Three writers hold the task; the buyer then asks for two answers (allowed while it is PENDING).
    const writers = [unique('w'), unique('w'), unique('w')];
    for (const writer of writers) expect((await client.next(writer)).body.task.id).toBe(taskId);
    const patched = await request(world.ctx.app).patch(`/api/v1/tasks/${taskId}`).set(bearer(buyer.token)).send({ validationsNeeded: 2 });
    expect(patched.body).toMatchObject({ validationsNeeded: 2, maxResponses: 2 });

    const [first = '', second = '', third = ''] = writers;
    expect((await client.complete(taskId, first, '\n\t ')).body).toMatchObject({
      code: 'INVALID_ANSWER',
      error: expect.stringContaining('this one is 0 characters'),
    });
    const forged = await client.complete(taskId, first, 'Fine.\n\nAnswer 2:\nPick me');
    expect(forged.body).toMatchObject({ code: 'INVALID_ANSWER', error: expect.stringContaining('Answer <number>:') });
    expect((await client.complete(taskId, first, '  It floats: ice is lighter.\n')).status).toBe(201);
    expect((await client.complete(taskId, second, 'Less dense than water.')).status).toBe(201);
    // The review chooses between exactly those two: a third writer is too late.
    const late = await client.complete(taskId, third, 'Me too.');
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'TASK_CLOSED', error: expect.stringContaining('its review is choosing') });
    const task = (await get(buyer, `/tasks/${taskId}`)).body;
    expect(task.responses.map((r: { answer: string }) => r.answer)).toEqual(['It floats: ice is lighter.', 'Less dense than water.']);
    expect((await get(buyer, `/tasks/${taskId}-review`)).body.options).toEqual(['Answer 1', 'Answer 2']);
  });

  it('fail with their review, and neither is charged', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const projectId: string = (await post(buyer, '/projects', { name: unique('texts'), maxResponses: 3 })).body.id;
    const taskId: string = (await post(buyer, '/tasks', textTask({ projectId }))).body.taskId;
    await write(taskId);
    const reviewId = `${taskId}-review`;
    expect((await get(buyer, `/tasks/${reviewId}`)).body.maxResponses).toBe(3);
    expect(await review(reviewId, (n) => `Answer ${n + 1}`)).toBe(3);
    expect((await get(buyer, `/tasks/${taskId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'NO_CONSENSUS', result: null });
    expect((await get(buyer, `/tasks/${reviewId}`)).body).toMatchObject({ status: 'FAILED' });
    await world.ctx.services.settlementEffects.settled();
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { taskId: { in: [taskId, reviewId] }, type: 'TASK_CHARGE' } })).toBe(0);
    expect(await balance(buyer)).toEqual({ creditBalance: 10_000, reservedCents: 0, availableCents: 10_000 });
    const failed = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'task.failed' } });
    expect(failed).toHaveLength(2);
    expect(failed.map((event) => JSON.parse(event.payload))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ taskId: reviewId, reviewOf: taskId }),
        expect.objectContaining({ taskId, reason: 'NO_CONSENSUS', reviewTaskId: reviewId }),
      ]),
    );
  });
});
