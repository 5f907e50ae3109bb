import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
let developerKey: string;
beforeAll(async () => {
  // Its own database: completed tasks written here would move other files' completion estimates.
  ctx = await createIsolatedTestContext();
  adminToken = (await createAdmin(ctx)).token;
  developerKey = (await createDeveloper(ctx, adminToken)).apiKey;
});
afterAll(() => ctx.close());

const get = (buyer: TestBuyer, path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token));
const post = (buyer: TestBuyer, path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);

async function createProject(buyer: TestBuyer, name = 'Cats'): Promise<string> {
  const res = await post(buyer, '/projects', { name });
  expect(res.status).toBe(201);
  return res.body.id;
}

type Status = 'PENDING' | 'VALIDATING' | 'COMPLETED' | 'FAILED';

/** A task in its final state, written directly (the annotation loop that gets it there is tested elsewhere). */
async function insertTask(
  buyer: TestBuyer,
  fields: { status: Status; projectId?: string; type?: 'BINARY_CHOICE' | 'SENTIMENT_ANALYSIS'; locale?: string; result?: string; confidence?: number },
) {
  const { status, result, confidence, ...rest } = fields;
  await ctx.prisma.task.create({
    data: {
      id: newId(),
      buyerId: buyer.id,
      type: 'BINARY_CHOICE',
      content: 'Cat?',
      options: ['yes', 'no', 'maybe'],
      maxCents: 20,
      costCents: 20,
      validationsNeeded: 3,
      maxResponses: 10,
      status,
      totalResponses: 3,
      ...rest,
      ...(status === 'COMPLETED' ? { result: result ?? 'yes', confidence: confidence ?? 0.95, validatedAt: new Date() } : {}),
    },
  });
}

describe('GET /tasks/counts', () => {
  let buyer: TestBuyer;
  let projectId: string;
  beforeAll(async () => {
    buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 10_000);
    projectId = await createProject(buyer);
    // Created through the API (PENDING), plus rows in the other states.
    const created = await post(buyer, '/tasks/batch', {
      tasks: [
        { type: 'BINARY_CHOICE', content: 'a', options: ['yes', 'no'], projectId },
        { type: 'SENTIMENT_ANALYSIS', content: 'b', options: ['good', 'bad'], locale: 'fr' },
      ],
    });
    expect(created.status).toBe(201);
    await insertTask(buyer, { status: 'VALIDATING', projectId });
    await insertTask(buyer, { status: 'COMPLETED', projectId, locale: 'fr' });
    await insertTask(buyer, { status: 'COMPLETED', type: 'SENTIMENT_ANALYSIS' });
    await insertTask(buyer, { status: 'FAILED', projectId });
    // Golden tasks never count, nor do another buyer's tasks.
    expect((await post(buyer, '/golden-tasks', { type: 'BINARY_CHOICE', content: 'g', options: ['yes', 'no'], goldenAnswer: 'yes', projectId })).status).toBe(
      201,
    );
    await insertTask(await createBuyer(ctx), { status: 'PENDING' });
  });

  it("counts the buyer's tasks by status, golden tasks never included", async () => {
    const res = await get(buyer, '/tasks/counts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ counts: { PENDING: 2, VALIDATING: 1, COMPLETED: 2, FAILED: 1 }, total: 6 });
  });

  it('takes the filters of GET /tasks, alone and together', async () => {
    const counts = async (query: string) => (await get(buyer, `/tasks/counts?${query}`)).body;
    expect(await counts(`projectId=${projectId}`)).toEqual({ counts: { PENDING: 1, VALIDATING: 1, COMPLETED: 1, FAILED: 1 }, total: 4 });
    expect(await counts('type=SENTIMENT_ANALYSIS')).toEqual({ counts: { PENDING: 1, VALIDATING: 0, COMPLETED: 1, FAILED: 0 }, total: 2 });
    expect(await counts('locale=fr')).toEqual({ counts: { PENDING: 1, VALIDATING: 0, COMPLETED: 1, FAILED: 0 }, total: 2 });
    expect(await counts(`projectId=${projectId}&locale=fr&type=BINARY_CHOICE`)).toEqual({
      counts: { PENDING: 0, VALIDATING: 0, COMPLETED: 1, FAILED: 0 },
      total: 1,
    });
  });

  it('matches nothing for an unknown or foreign projectId', async () => {
    const zero = { counts: { PENDING: 0, VALIDATING: 0, COMPLETED: 0, FAILED: 0 }, total: 0 };
    const stranger = await createBuyer(ctx);
    expect((await get(stranger, `/tasks/counts?projectId=${projectId}`)).body).toEqual(zero);
    expect((await get(buyer, `/tasks/counts?projectId=${newId()}`)).body).toEqual(zero);
  });

  it('is not read as a task id by GET /tasks/:id', async () => {
    const res = await get(buyer, '/tasks/counts');
    expect(res.body.code).toBeUndefined();
    expect(res.body.total).toBe(6);
  });

  it.each(['type=NOPE', 'locale=xx', 'status=PENDING', 'limit=5', 'projectId=' + 'x'.repeat(65), 'projectid=x'])(
    'returns 400 VALIDATION_ERROR for %s',
    async (query) => {
      const res = await get(buyer, `/tasks/counts?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );
});

describe('GET /projects/:id/distribution', () => {
  let buyer: TestBuyer;
  let projectId: string;
  beforeAll(async () => {
    buyer = await createBuyer(ctx);
    projectId = await createProject(buyer);
    const completed: Array<[string, number]> = [
      ['yes', 0],
      ['yes', 0.05],
      ['no', 0.1],
      ['yes', 0.35],
      ['maybe', 0.3999],
      ['no', 0.9],
      ['yes', 0.95],
      ['no', 0.9999],
      ['yes', 1],
    ];
    for (const [result, confidence] of completed) await insertTask(buyer, { status: 'COMPLETED', projectId, result, confidence });
    // Open and failed tasks, and completed tasks of another project, are left out.
    await insertTask(buyer, { status: 'PENDING', projectId });
    await insertTask(buyer, { status: 'FAILED', projectId });
    await insertTask(buyer, { status: 'COMPLETED', projectId: await createProject(buyer, 'Dogs'), result: 'maybe', confidence: 0.5 });
  });

  it("gives the completed tasks' results, most frequent first, and their confidence in ten buckets (1.0 in the last)", async () => {
    const res = await get(buyer, `/projects/${projectId}/distribution`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      labels: [
        { label: 'yes', count: 5 },
        { label: 'no', count: 3 },
        { label: 'maybe', count: 1 },
      ],
      confidence: [
        { from: 0, to: 0.1, count: 2 },
        { from: 0.1, to: 0.2, count: 1 },
        { from: 0.2, to: 0.3, count: 0 },
        { from: 0.3, to: 0.4, count: 2 },
        { from: 0.4, to: 0.5, count: 0 },
        { from: 0.5, to: 0.6, count: 0 },
        { from: 0.6, to: 0.7, count: 0 },
        { from: 0.7, to: 0.8, count: 0 },
        { from: 0.8, to: 0.9, count: 0 },
        { from: 0.9, to: 1, count: 4 },
      ],
      completed: 9,
      kinds: { single: 9, rating: 0, multi: 0, pairwise: 0, text: 0 },
      ratingScales: [],
      multiOptions: [],
    });
  });

  it('gives the 50 most frequent results when a project mixes option sets, and still counts every task', async () => {
    const mixed = await createProject(buyer, 'Mixed');
    for (let i = 0; i < 51; i++) await insertTask(buyer, { status: 'COMPLETED', projectId: mixed, result: `label-${String(i).padStart(2, '0')}` });
    await insertTask(buyer, { status: 'COMPLETED', projectId: mixed, result: 'label-50' });
    const res = await get(buyer, `/projects/${mixed}/distribution`);
    expect(res.body.labels).toHaveLength(50);
    expect(res.body.labels[0]).toEqual({ label: 'label-50', count: 2 });
    expect(res.body.completed).toBe(52);
  });

  it('is empty, with ten zero buckets, for a project without completed tasks', async () => {
    const res = await get(buyer, `/projects/${await createProject(buyer, 'Empty')}/distribution`);
    expect(res.status).toBe(200);
    expect(res.body.labels).toEqual([]);
    expect(res.body.completed).toBe(0);
    expect(res.body.confidence.map((bucket: { count: number }) => bucket.count)).toEqual(new Array(10).fill(0));
  });

  it('returns 404 PROJECT_NOT_FOUND for an unknown, malformed or foreign project', async () => {
    const stranger = await createBuyer(ctx);
    for (const [who, id] of [
      [buyer, newId()],
      [buyer, '%FF'],
      [buyer, 'x'.repeat(300)],
      [stranger, projectId],
    ] as const) {
      const res = await get(who, `/projects/${id}/distribution`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('PROJECT_NOT_FOUND');
    }
  });

  it('refuses query parameters with 400 VALIDATION_ERROR', async () => {
    const res = await get(buyer, `/projects/${projectId}/distribution?status=COMPLETED`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('access', () => {
  it.each(['/tasks/counts', `/projects/${newId()}/distribution`])(
    '%s: 401 without a credential, 403 for an admin or a developer, 405 for POST',
    async (path) => {
      expect((await request(ctx.app).get(`/api/v1${path}`)).body.code).toBe('UNAUTHORIZED');
      for (const token of [adminToken, developerKey]) {
        const res = await request(ctx.app).get(`/api/v1${path}`).set(bearer(token));
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('FORBIDDEN');
      }
      const buyer = await createBuyer(ctx);
      const posted = await request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send({});
      expect(posted.status).toBe(405);
      expect(posted.body.code).toBe('METHOD_NOT_ALLOWED');
    },
  );
});
