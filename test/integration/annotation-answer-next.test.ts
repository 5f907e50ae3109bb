// POST /sdk/tasks/:id/complete with `next` (contract §5): the answer and the annotator's next assignment
// in one request. The assignment is exactly what GET /sdk/tasks/next would hand out right after the
// answer; a refused answer hands out nothing; without `next` nothing changes.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { sdk } from '../helpers/sdk.ts';
import { shape } from '../helpers/json-shape.ts';

// GOLDEN_RATE 0: golden tasks only as an annotator's first, so the test knows when one comes.
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0' } });

const annotator = (label = 'ann') => `${label}-${randomUUID().slice(0, 8)}`;
const app = () => sdk(world.ctx, world.developer.apiKey);

const fundedBuyer = (cents = 10_000) => createFundedBuyer(world.ctx, world.adminToken, cents);

async function createTask(buyer: TestBuyer, body: Record<string, unknown> = {}): Promise<string> {
  const res = await request(world.ctx.app)
    .post('/api/v1/tasks')
    .set(bearer(buyer.token))
    .send({ type: 'BINARY_CHOICE', content: 'Is this a cat?', options: ['A', 'B'], validationsNeeded: 3, ...body });
  expect(res.status).toBe(201);
  return res.body.taskId;
}

/** The answer with `next` in the body. */
const answerNext = (taskId: string, annotatorId: string, answer: string, next: object = {}) =>
  app().post(`/tasks/${taskId}/complete`, { annotatorId, answer, timeSpentMs: 800, next });

const answersOf = (taskId: string) => world.ctx.prisma.taskResponse.count({ where: { taskId } });

describe('complete with next', () => {
  it('answers 201 with the next assignment, which is live: GET next returns the same one and its answer is accepted', async () => {
    const buyer = await fundedBuyer();
    const first = await createTask(buyer, { content: 'first' });
    const second = await createTask(buyer, { content: 'second', type: 'SENTIMENT_ANALYSIS', options: ['pos', 'neg', 'neu'], locale: 'fr' });
    const id = annotator();
    expect((await app().next(id)).body.task.id).toBe(first);

    const done = await answerNext(first, id, 'A');
    expect(done.status).toBe(201);
    expect(done.body).toEqual({
      accepted: true,
      next: {
        assignmentId: expect.any(String),
        expiresAt: expect.any(String),
        task: { id: second, type: 'SENTIMENT_ANALYSIS', content: 'second', options: ['pos', 'neg', 'neu'], locale: 'fr' },
      },
    });
    expect(Object.keys(done.body.next)).toEqual(['assignmentId', 'expiresAt', 'task']);
    expect(new Date(done.body.next.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    // The answer itself was taken.
    expect(await answersOf(first)).toBe(1);

    // GET next now returns the very same assignment (same body), as it does for any live assignment.
    const again = await app().next(id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body.next);

    // And the assignment's answer is accepted, here with next once more: nothing left for this annotator.
    const last = await answerNext(second, id, 'neg');
    expect([last.status, last.body]).toEqual([201, { accepted: true, next: null }]);
    expect(await answersOf(second)).toBe(1);
  });

  it('returns next: null where GET next would answer 204, and GET next then answers 204', async () => {
    const buyer = await fundedBuyer();
    const only = await createTask(buyer);
    const id = annotator();
    expect((await app().next(id)).body.task.id).toBe(only);
    const done = await answerNext(only, id, 'B');
    expect([done.status, done.body]).toEqual([201, { accepted: true, next: null }]);
    expect((await app().next(id)).status).toBe(204);
    expect(await world.ctx.prisma.assignment.count({ where: { taskId: only } })).toBe(0);
  });

  it('honours the locale and types filters exactly as GET next does (an empty object or list filters nothing)', async () => {
    const buyer = await fundedBuyer();
    const start = await createTask(buyer, { content: 'start', validationsNeeded: 10 });
    const english = await createTask(buyer, { content: 'english' });
    const french = await createTask(buyer, { content: 'french', locale: 'fr' });
    const image = await createTask(buyer, { type: 'IMAGE_CLASSIFICATION', content: 'https://img.test/cat.png' });
    const served = async (next: object) => {
      const id = annotator();
      expect((await app().next(id)).body.task.id).toBe(start);
      const done = await answerNext(start, id, 'A', next);
      expect(done.status).toBe(201);
      return done.body.next === null ? null : (done.body.next.task.id as string);
    };
    expect(await served({})).toBe(english);
    expect(await served({ types: [] })).toBe(english);
    expect(await served({ locale: 'fr' })).toBe(french);
    expect(await served({ types: ['IMAGE_CLASSIFICATION', 'RELEVANCE_RATING'] })).toBe(image);
    expect(await served({ locale: 'fr', types: ['BINARY_CHOICE'] })).toBe(french);
    expect(await served({ locale: 'zh' })).toBeNull();
    expect(await served({ locale: 'en', types: ['RELEVANCE_RATING'] })).toBeNull();
  });

  it('without next the body stays exactly {accepted: true}', async () => {
    const buyer = await fundedBuyer();
    const [first] = [await createTask(buyer), await createTask(buyer)];
    const id = annotator();
    expect((await app().next(id)).body.task.id).toBe(first);
    const done = await app().complete(first as string, id, 'A');
    expect(done.status).toBe(201);
    expect(done.body).toStrictEqual({ accepted: true });
    expect(Object.keys(done.body)).toEqual(['accepted']);
    // Nothing was claimed for the annotator behind its back.
    expect(await world.ctx.prisma.assignment.count({ where: { annotator: { externalId: id } } })).toBe(0);
  });

  it('a refused answer hands out nothing: no assignment, no annotator, the held assignment unchanged', async () => {
    const buyer = await fundedBuyer();
    const [held, other] = [await createTask(buyer), await createTask(buyer)];
    const assignmentsOf = (externalId: string) => world.ctx.prisma.assignment.findMany({ where: { annotator: { externalId } } });

    // No assignment: refused, and the stranger is not even created.
    const stranger = annotator('stranger');
    const refused = await answerNext(other, stranger, 'A');
    expect([refused.status, refused.body.code, refused.body.next]).toEqual([409, 'NO_ASSIGNMENT', undefined]);
    expect(await world.ctx.prisma.annotator.count({ where: { externalId: stranger } })).toBe(0);

    // An annotator holding an assignment: an invalid answer keeps the one held, and claims nothing else.
    const id = annotator();
    const served = await app().next(id);
    expect(served.body.task.id).toBe(held);
    const invalid = await answerNext(held, id, 'C');
    expect([invalid.status, invalid.body.code]).toEqual([400, 'INVALID_ANSWER']);
    expect((await assignmentsOf(id)).map((a) => a.id)).toEqual([served.body.assignmentId]);

    // Another annotator answers, and the task closes (whatever the consensus rule): the holder's answer is TASK_CLOSED.
    const decider = annotator();
    expect((await app().next(decider)).body.task.id).toBe(held);
    expect((await app().complete(held, decider, 'A')).status).toBe(201);
    await world.ctx.prisma.task.update({ where: { id: held }, data: { status: 'FAILED' } });
    const closed = await answerNext(held, id, 'A');
    expect([closed.status, closed.body.code]).toEqual([409, 'TASK_CLOSED']);
    expect((await assignmentsOf(id)).map((a) => a.id)).toEqual([served.body.assignmentId]);

    // Answering twice: ALREADY_ANSWERED, and the answerer holds nothing.
    const twice = await answerNext(held, decider, 'A');
    expect([twice.status, twice.body.code]).toEqual([409, 'ALREADY_ANSWERED']);
    expect(await assignmentsOf(decider)).toEqual([]);
    expect(await answersOf(other)).toBe(0);
  });

  it("validates next like GET next's query: known locale and types only, no unknown keys; nothing is stored", async () => {
    const buyer = await fundedBuyer();
    const taskId = await createTask(buyer);
    const id = annotator();
    expect((await app().next(id)).body.task.id).toBe(taskId);
    for (const next of [{ locale: 'xx' }, { types: ['NOPE'] }, { types: 'BINARY_CHOICE' }, { annotatorId: id }, null, 'yes']) {
      const res = await answerNext(taskId, id, 'A', next as object);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(await answersOf(taskId)).toBe(0);
    // The assignment is still held, and the answer goes through afterwards.
    expect((await answerNext(taskId, id, 'A')).status).toBe(201);
  });

  it('a golden task handed out as next looks exactly like a regular one, and is answered the same way', async () => {
    // The plain buyer's task is the oldest; the other buyer has a regular task and a golden one of the same type.
    const plain = await fundedBuyer();
    const first = await createTask(plain, { content: 'Is this sentence positive?' });
    const owner = await fundedBuyer();
    const golden = await request(world.ctx.app)
      .post('/api/v1/golden-tasks')
      .set(bearer(owner.token))
      .send({ type: 'BINARY_CHOICE', content: 'Is this sentence positive?', options: ['A', 'B'], goldenAnswer: 'A' });
    expect(golden.status).toBe(201);
    const regular = await createTask(owner, { content: 'Is this sentence positive?' });
    const extra = await createTask(plain, { content: 'Is this sentence positive?' });

    // Alice answers the plain task; her next is the owner's regular task, served as the golden one
    // (she has answered no golden task yet).
    const alice = annotator('alice');
    expect((await app().next(alice)).body.task.id).toBe(first);
    const goldenServed = await answerNext(first, alice, 'A');
    expect(goldenServed.status).toBe(201);
    expect(goldenServed.body.next.task.id).toBe(golden.body.id);

    // Bob is served the golden task after the plain one too; once he has answered it, his next is the regular task.
    const bob = annotator('bob');
    expect((await app().next(bob)).body.task.id).toBe(first);
    expect((await answerNext(first, bob, 'A')).body.next.task.id).toBe(golden.body.id);
    const regularServed = await answerNext(golden.body.id, bob, 'A');
    expect(regularServed.status).toBe(201);
    expect(regularServed.body.next.task.id).toBe(regular);

    // Same keys, same kinds of values, the same content and options: nothing tells them apart.
    expect(shape(goldenServed.body)).toEqual(shape(regularServed.body));
    expect(Object.keys(goldenServed.body.next.task)).toEqual(Object.keys(regularServed.body.next.task));
    const { id: _g, ...goldenTask } = goldenServed.body.next.task;
    const { id: _r, ...regularTask } = regularServed.body.next.task;
    expect(goldenTask).toEqual(regularTask);
    // GET next returns the golden assignment too, as for any live one.
    expect((await app().next(alice)).body).toEqual(goldenServed.body.next);

    // Answering either (wrongly) with next looks the same as well: each is handed the following task.
    const [goldenAnswer, regularAnswer] = [await answerNext(golden.body.id, alice, 'B'), await answerNext(regular, bob, 'B')];
    expect([goldenAnswer.status, regularAnswer.status]).toEqual([201, 201]);
    expect([goldenAnswer.body.next.task.id, regularAnswer.body.next.task.id]).toEqual([regular, extra]);
    expect(shape(goldenAnswer.body)).toEqual(shape(regularAnswer.body));
  });

  it('an answer that suspends its annotator is still accepted, with next: null; GET next then refuses work with 403', async () => {
    const owner = await fundedBuyer();
    const golden = await request(world.ctx.app)
      .post('/api/v1/golden-tasks')
      .set(bearer(owner.token))
      .send({ type: 'BINARY_CHOICE', content: 'Is the sky green?', options: ['A', 'B'], goldenAnswer: 'B' });
    await createTask(owner, { content: 'Is the sky green?' });
    const id = annotator('spammer');
    expect((await app().next(id)).body.task.id).toBe(golden.body.id);
    // Nine golden answers, all wrong, so far: the tenth wrong one suspends.
    await world.ctx.prisma.annotator.updateMany({ where: { externalId: id }, data: { goldenAnswered: 9, goldenCorrect: 0 } });
    const done = await answerNext(golden.body.id, id, 'A');
    expect([done.status, done.body]).toEqual([201, { accepted: true, next: null }]);
    expect((await app().next(id)).body.code).toBe('ANNOTATOR_SUSPENDED');
  });
});

describe('the one-request loop under concurrency', () => {
  it('30 annotators answering 8 tasks with next: no task over-answered, each decided and billed at most once', { timeout: 120_000 }, async () => {
    const buyer = await fundedBuyer(1_000);
    const created = await request(world.ctx.app)
      .post('/api/v1/tasks/batch')
      .set(bearer(buyer.token))
      .send({ tasks: Array.from({ length: 8 }, (_, i) => ({ type: 'SENTIMENT_ANALYSIS', content: `review ${i}`, options: ['pos', 'neg', 'neu'] })) });
    expect(created.status).toBe(201);
    const taskIds: string[] = created.body.tasks.map((t: { taskId: string }) => t.taskId);
    const unexpected: number[] = [];
    let combined = 0;
    await Promise.all(
      Array.from({ length: 30 }, async (_, n) => {
        const annotatorId = `loop-${n}-${randomUUID().slice(0, 6)}`;
        let next = (await app().next(annotatorId)).body as { task?: { id: string; options: string[] } } | undefined;
        while (next?.task) {
          const { id, options } = next.task;
          const answer = taskIds.indexOf(id) % 2 === 0 ? 'pos' : (options[n % 3] as string);
          const done = await answerNext(id, annotatorId, answer);
          if (done.status === 201) {
            combined += 1;
            next = done.body.next ?? undefined;
            continue;
          }
          // The task was decided meanwhile: nothing was handed out, so ask again.
          if (done.status !== 409 || done.body.code !== 'TASK_CLOSED') unexpected.push(done.status);
          next = (await app().next(annotatorId)).body;
        }
      }),
    );
    expect(unexpected).toEqual([]);
    expect(combined).toBeGreaterThan(8);
    // Charges are applied after the decisions (SettlementEffects): read them once applied.
    await world.ctx.services.settlementEffects.settled();
    const tasks = await world.ctx.prisma.task.findMany({ where: { id: { in: taskIds } } });
    let completed = 0;
    for (const task of tasks) {
      const answers = await answersOf(task.id);
      expect(answers).toBe(task.totalResponses);
      expect(answers).toBeLessThanOrEqual(task.maxResponses);
      expect(['COMPLETED', 'FAILED']).toContain(task.status);
      const charges = await world.ctx.prisma.ledgerEntry.count({ where: { taskId: task.id, type: 'TASK_CHARGE' } });
      expect(charges).toBe(task.status === 'COMPLETED' ? 1 : 0);
      if (task.status === 'COMPLETED') completed += 1;
    }
    const balance = await world.ctx.services.db.repos.billing.getBalance(buyer.id);
    expect(balance).toEqual({ creditBalance: 1_000 - 20 * completed, reservedCents: 0, availableCents: 1_000 - 20 * completed });
  });
});
