import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const task = (overrides: Record<string, unknown> = {}) => ({
  type: 'SENTIMENT_ANALYSIS',
  content: 'I love this product',
  options: ['positive', 'negative', 'neutral'],
  ...overrides,
});

async function fundedBuyer(cents = 10_000): Promise<TestBuyer> {
  const buyer = await createBuyer(ctx);
  await fundBuyer(ctx, adminToken, buyer.id, cents);
  return buyer;
}

const post = (buyer: TestBuyer, path: string, body: unknown) =>
  request(ctx.app)
    .post(`/api/v1${path}`)
    .set(bearer(buyer.token))
    .send(body as object);
const balanceOf = async (buyer: TestBuyer) => (await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token))).body.buyer;

describe('POST /tasks', () => {
  it('creates a PENDING task with the defaults and reserves its maxCents', async () => {
    const buyer = await fundedBuyer(1_000);
    const res = await post(buyer, '/tasks', task());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      taskId: expect.stringMatching(/^c[0-9a-z]{24}$/),
      status: 'PENDING',
      type: 'SENTIMENT_ANALYSIS',
      costCents: 20,
      estimatedCompletionMs: 300_000,
    });
    expect(await balanceOf(buyer)).toMatchObject({ creditBalance: 1_000, reservedCents: 20, availableCents: 980 });
    const read = await request(ctx.app).get(`/api/v1/tasks/${res.body.taskId}`).set(bearer(buyer.token));
    expect(read.body).toEqual({
      id: res.body.taskId,
      type: 'SENTIMENT_ANALYSIS',
      content: 'I love this product',
      options: ['positive', 'negative', 'neutral'],
      status: 'PENDING',
      result: null,
      confidence: null,
      locale: 'en',
      maxCents: 20,
      costCents: 20,
      projectId: null,
      totalResponses: 0,
      deadline: null,
      priority: 0,
      revision: 1,
      rejection: null,
      createdAt: expect.any(String),
      validatedAt: null,
      validationsNeeded: 3,
      maxResponses: 10,
      targetConfidence: 0.95,
      failureReason: null,
      responses: [],
    });
  });

  it('accepts every optional field', async () => {
    const buyer = await fundedBuyer();
    const { body: project } = await post(buyer, '/projects', { name: 'P' });
    const res = await post(buyer, '/tasks', task({ locale: 'fr', maxCents: 25, projectId: project.id, validationsNeeded: 5 }));
    expect(res.status).toBe(201);
    const read = await request(ctx.app).get(`/api/v1/tasks/${res.body.taskId}`).set(bearer(buyer.token));
    expect(read.body).toMatchObject({ locale: 'fr', maxCents: 25, costCents: 20, projectId: project.id, validationsNeeded: 5, maxResponses: 10 });
  });

  it.each([
    ['no type', { content: 'x', options: ['a', 'b'] }, 'MISSING_FIELDS'],
    ['blank content', { type: 'BINARY_CHOICE', content: '   ', options: ['a', 'b'] }, 'MISSING_FIELDS'],
    ['no options', { type: 'BINARY_CHOICE', content: 'x' }, 'MISSING_FIELDS'],
    ['missing fields before an unknown type', { type: 'NOPE' }, 'MISSING_FIELDS'],
    ['an unknown type', { type: 'NOPE', content: 'x', options: ['a'] }, 'INVALID_TYPE'],
    ['a lower-case type', { type: 'binary_choice', content: 'x', options: ['a', 'b'] }, 'INVALID_TYPE'],
    ['one option', { type: 'BINARY_CHOICE', content: 'x', options: ['a'] }, 'OPTIONS_REQUIRED'],
    ['no option', { type: 'BINARY_CHOICE', content: 'x', options: [] }, 'OPTIONS_REQUIRED'],
    ['options that are not a list', { type: 'BINARY_CHOICE', content: 'x', options: 'a|b' }, 'VALIDATION_ERROR'],
    ['duplicate options', { type: 'BINARY_CHOICE', content: 'x', options: ['a', 'a'] }, 'VALIDATION_ERROR'],
    ['a blank option', { type: 'BINARY_CHOICE', content: 'x', options: ['a', ' '] }, 'VALIDATION_ERROR'],
    ['51 options', { type: 'BINARY_CHOICE', content: 'x', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'VALIDATION_ERROR'],
    ['an option over 500 characters', { type: 'BINARY_CHOICE', content: 'x', options: ['a', 'b'.repeat(501)] }, 'VALIDATION_ERROR'],
    ['content over 100 000 characters', { type: 'BINARY_CHOICE', content: 'x'.repeat(100_001), options: ['a', 'b'] }, 'VALIDATION_ERROR'],
    ['maxCents below 20', task({ maxCents: 19 }), 'VALIDATION_ERROR'],
    ['maxCents above 100 000', task({ maxCents: 100_001 }), 'VALIDATION_ERROR'],
    ['a fractional maxCents', task({ maxCents: 20.5 }), 'VALIDATION_ERROR'],
    ['validationsNeeded 0', task({ validationsNeeded: 0 }), 'VALIDATION_ERROR'],
    ['validationsNeeded 26', task({ validationsNeeded: 26 }), 'VALIDATION_ERROR'],
    ['an unknown locale', task({ locale: 'it' }), 'VALIDATION_ERROR'],
    ['a forbidden field', task({ status: 'COMPLETED' }), 'VALIDATION_ERROR'],
    ['a misspelt field', task({ maxcents: 30 }), 'VALIDATION_ERROR'],
  ])('rejects %s with %s and creates nothing', async (_name, body, code) => {
    const buyer = await fundedBuyer();
    const res = await post(buyer, '/tasks', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(await ctx.prisma.task.count({ where: { buyerId: buyer.id } })).toBe(0);
    expect((await balanceOf(buyer)).reservedCents).toBe(0);
  });

  it("returns 400 INVALID_PROJECT for another buyer's project or an unknown one", async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    const { body: foreign } = await post(other, '/projects', { name: 'theirs' });
    for (const projectId of [foreign.id, newId()]) {
      const res = await post(buyer, '/tasks', task({ projectId }));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_PROJECT');
    }
  });

  it('returns 402 INSUFFICIENT_CREDITS naming required and available cents when the balance is short', async () => {
    const buyer = await fundedBuyer(30);
    expect((await post(buyer, '/tasks', task())).status).toBe(201);
    const res = await post(buyer, '/tasks', task());
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 20, availableCents: 10 } });
    expect(await ctx.prisma.task.count({ where: { buyerId: buyer.id } })).toBe(1);
  });

  it('checks validation before the balance: an invalid task with no money gets its validation code', async () => {
    const buyer = await createBuyer(ctx);
    expect((await post(buyer, '/tasks', task({ options: ['only'] }))).body.code).toBe('OPTIONS_REQUIRED');
    expect((await post(buyer, '/tasks', task())).body.code).toBe('INSUFFICIENT_CREDITS');
  });

  it('estimates completion from the median time of completed tasks of the type in the last 24 h', async () => {
    // A clock far ahead of every other test's tasks, so only the tasks written here fall in its window.
    const now = new Date('2099-06-01T12:00:00.000Z');
    const future = createTestContext({ clock: { now: () => now } });
    try {
      const buyer = await fundedBuyer();
      const type = 'RELEVANCE_RATING';
      const ages = [10, 20, 90, 25 * 3600];
      for (const seconds of ages) {
        const { body } = await post(buyer, '/tasks', task({ type }));
        await ctx.prisma.task.update({
          where: { id: body.taskId },
          data: {
            status: 'COMPLETED',
            createdAt: new Date(now.getTime() - seconds * 1000),
            validatedAt: new Date(now.getTime() - (seconds === 25 * 3600 ? 25 * 3600_000 : 0)),
          },
        });
      }
      const token = future.services.tokens.sign({ sub: buyer.id, role: 'BUYER', tv: 0 });
      const res = await request(future.app).post('/api/v1/tasks').set(bearer(token)).send(task({ type }));
      expect(res.body.estimatedCompletionMs).toBe(20_000);
      const other = await request(future.app)
        .post('/api/v1/tasks')
        .set(bearer(token))
        .send(task({ type: 'AI_RESPONSE_RATING' }));
      expect(other.body.estimatedCompletionMs).toBe(300_000);
    } finally {
      await future.close();
    }
  });
});
