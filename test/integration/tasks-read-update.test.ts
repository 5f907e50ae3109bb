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

async function fundedBuyer(cents = 100_000): Promise<TestBuyer> {
  const buyer = await createBuyer(ctx);
  await fundBuyer(ctx, adminToken, buyer.id, cents);
  return buyer;
}

const api = (buyer: TestBuyer) => ({
  get: (path: string, query: Record<string, string | number> = {}) => request(ctx.app).get(`/api/v1${path}`).query(query).set(bearer(buyer.token)),
  post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  delete: (path: string) => request(ctx.app).delete(`/api/v1${path}`).set(bearer(buyer.token)),
});

async function createTasks(buyer: TestBuyer, count: number, overrides: Record<string, unknown> = {}): Promise<string[]> {
  const res = await api(buyer).post('/tasks/batch', {
    tasks: Array.from({ length: count }, (_, i) => ({ type: 'BINARY_CHOICE', content: `item ${i}`, options: ['yes', 'no'], ...overrides })),
  });
  expect(res.status).toBe(201);
  return res.body.tasks.map((t: { taskId: string }) => t.taskId);
}

async function walk(buyer: TestBuyer, query: Record<string, string | number>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await api(buyer).get('/tasks', cursor ? { ...query, cursor } : query);
    expect(res.status).toBe(200);
    ids.push(...res.body.tasks.map((t: { id: string }) => t.id));
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    if (!res.body.nextCursor) return ids;
    cursor = res.body.nextCursor;
  }
}

describe('GET /tasks', () => {
  it('lists newest first without responses or validationsNeeded, 20 by default', async () => {
    const buyer = await fundedBuyer();
    await createTasks(buyer, 25);
    const res = await api(buyer).get('/tasks');
    expect(res.body.tasks).toHaveLength(20);
    expect(res.body.hasMore).toBe(true);
    const item = res.body.tasks[0];
    expect(Object.keys(item).sort()).toEqual(
      [
        'confidence',
        'content',
        'costCents',
        'createdAt',
        'deadline',
        'id',
        'locale',
        'maxCents',
        'options',
        'priority',
        'projectId',
        'rejection',
        'result',
        'revision',
        'status',
        'totalResponses',
        'type',
        'validatedAt',
      ].sort(),
    );
    const created = res.body.tasks.map((t: { createdAt: string; id: string }) => [t.createdAt, t.id]);
    const sorted = [...created].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1));
    expect(created).toEqual(sorted);
  });

  it('clamps limit at 100 and rejects non-numeric or < 1 limits', async () => {
    const buyer = await fundedBuyer();
    await createTasks(buyer, 101);
    expect((await api(buyer).get('/tasks', { limit: 1000 })).body.tasks).toHaveLength(100);
    for (const limit of ['0', 'ten', '-5', '1.5']) {
      const res = await api(buyer).get('/tasks', { limit });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('walks every task exactly once while new tasks are inserted concurrently', async () => {
    const buyer = await fundedBuyer();
    const before = await createTasks(buyer, 60);
    const inserting = (async () => {
      const late: string[] = [];
      for (let i = 0; i < 6; i++) late.push(...(await createTasks(buyer, 5)));
      return late;
    })();
    const seen = await walk(buyer, { limit: 7 });
    const late = await inserting;
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    for (const id of seen) expect([...before, ...late]).toContain(id);
  });

  it('filters by status, type, projectId and locale; a foreign or unknown projectId matches nothing', async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    const { body: project } = await api(buyer).post('/projects', { name: 'Filtered' });
    const { body: foreignProject } = await api(other).post('/projects', { name: 'Foreign' });
    const inProject = await createTasks(buyer, 2, { projectId: project.id, locale: 'de' });
    const images = await createTasks(buyer, 3, { type: 'IMAGE_CLASSIFICATION', content: 'https://img.test/1.png' });
    await ctx.prisma.task.update({ where: { id: images[0] }, data: { status: 'COMPLETED' } });
    expect(await walk(buyer, { projectId: project.id })).toEqual(expect.arrayContaining(inProject));
    expect(await walk(buyer, { projectId: project.id })).toHaveLength(2);
    expect(await walk(buyer, { locale: 'de' })).toHaveLength(2);
    expect(await walk(buyer, { type: 'IMAGE_CLASSIFICATION' })).toHaveLength(3);
    expect(await walk(buyer, { status: 'COMPLETED' })).toEqual([images[0]]);
    expect(await walk(buyer, { status: 'PENDING', type: 'IMAGE_CLASSIFICATION' })).toHaveLength(2);
    expect(await walk(buyer, { projectId: foreignProject.id })).toEqual([]);
    expect(await walk(buyer, { projectId: newId() })).toEqual([]);
  });

  it('rejects invalid filter values and a cursor it did not produce', async () => {
    const buyer = await fundedBuyer();
    const queries: Array<Record<string, string>> = [{ status: 'DONE' }, { type: 'NOPE' }, { locale: 'xx' }, { sort: 'asc' }];
    for (const query of queries) {
      const res = await api(buyer).get('/tasks', query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    for (const cursor of ['garbage', Buffer.from('["2020-01-01T00:00:00.000Z","x"]').toString('base64url')]) {
      const res = await api(buyer).get('/tasks', { cursor });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_CURSOR');
    }
  });

  it("never shows another buyer's tasks", async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    const theirs = await createTasks(other, 3);
    const mine = await walk(buyer, {});
    for (const id of theirs) expect(mine).not.toContain(id);
  });
});

describe('GET /tasks/:id', () => {
  it("returns TASK_NOT_FOUND for an unknown, malformed or another buyer's task", async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    const [id] = await createTasks(other, 1);
    for (const path of [`/tasks/${id}`, `/tasks/${newId()}`, '/tasks/not-an-id']) {
      for (const res of [await api(buyer).get(path), await api(buyer).patch(path, { maxCents: 30 }), await api(buyer).delete(path)]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('TASK_NOT_FOUND');
      }
    }
    expect((await api(other).get(`/tasks/${id}`)).body.maxCents).toBe(20);
  });

  it('shows answers in arrival order without annotator identities', async () => {
    const buyer = await fundedBuyer();
    const [id] = await createTasks(buyer, 1);
    const developer = await ctx.prisma.account.create({
      data: {
        id: newId(),
        email: `${newId()}@dev.test`,
        role: 'DEVELOPER',
        developer: { create: { appName: 'a', appUrl: 'https://a.test', apiKeyHash: newId() } },
      },
    });
    const annotators = await Promise.all(
      ['ann-1', 'ann-2'].map((externalId) => ctx.prisma.annotator.create({ data: { id: newId(), developerId: developer.id, externalId } })),
    );
    await ctx.prisma.taskResponse.create({
      data: {
        id: newId(),
        taskId: id as string,
        annotatorId: annotators[0]?.id as string,
        answer: 'yes',
        timeSpentMs: 1200,
        createdAt: new Date(Date.now() - 1000),
      },
    });
    await ctx.prisma.taskResponse.create({
      data: { id: newId(), taskId: id as string, annotatorId: annotators[1]?.id as string, answer: 'no', timeSpentMs: 800 },
    });
    const res = await api(buyer).get(`/tasks/${id}`);
    expect(res.body.responses).toEqual([
      { answer: 'yes', timeSpentMs: 1200 },
      { answer: 'no', timeSpentMs: 800 },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/ann-1|ann-2|annotator/);
  });
});

describe('PATCH /tasks/:id', () => {
  it('changes maxCents, validationsNeeded, locale and projectId of a PENDING task and returns it', async () => {
    const buyer = await fundedBuyer(1_000);
    const { body: project } = await api(buyer).post('/projects', { name: 'Moved' });
    const [id] = await createTasks(buyer, 1);
    const res = await api(buyer).patch(`/tasks/${id}`, { maxCents: 50, validationsNeeded: 5, locale: 'es', projectId: project.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, maxCents: 50, validationsNeeded: 5, maxResponses: 10, locale: 'es', projectId: project.id, status: 'PENDING' });
    expect((await api(buyer).get('/auth/me')).body.buyer).toMatchObject({ reservedCents: 50, availableCents: 950 });
    const detached = await api(buyer).patch(`/tasks/${id}`, { projectId: null, maxCents: 30 });
    expect(detached.body).toMatchObject({ projectId: null, maxCents: 30 });
    expect((await api(buyer).get('/auth/me')).body.buyer).toMatchObject({ reservedCents: 30, availableCents: 970 });
  });

  it('returns 402 when a higher maxCents is not available, and changes nothing', async () => {
    const buyer = await fundedBuyer(100);
    const [id] = await createTasks(buyer, 1);
    const res = await api(buyer).patch(`/tasks/${id}`, { maxCents: 101, locale: 'fr' });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 81, availableCents: 80 } });
    expect((await api(buyer).get(`/tasks/${id}`)).body).toMatchObject({ maxCents: 20, locale: 'en' });
    expect((await api(buyer).get('/auth/me')).body.buyer.reservedCents).toBe(20);
  });

  it.each(['VALIDATING', 'COMPLETED', 'FAILED'] as const)('returns 400 TASK_NOT_PENDING for a %s task, for update and delete', async (status) => {
    const buyer = await fundedBuyer();
    const [id] = await createTasks(buyer, 1);
    await ctx.prisma.task.update({ where: { id }, data: { status } });
    const update = await api(buyer).patch(`/tasks/${id}`, { maxCents: 30 });
    expect(update.status).toBe(400);
    expect(update.body.code).toBe('TASK_NOT_PENDING');
    const remove = await api(buyer).delete(`/tasks/${id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.code).toBe('TASK_NOT_PENDING');
  });

  it('rejects forbidden or unknown fields, out-of-range values and a foreign project', async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    const { body: foreign } = await api(other).post('/projects', { name: 'x' });
    const [id] = await createTasks(buyer, 1);
    for (const body of [{ status: 'COMPLETED' }, { content: 'new' }, { maxCents: 10 }, { validationsNeeded: 30 }, { locale: 'it' }]) {
      const res = await api(buyer).patch(`/tasks/${id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const res = await api(buyer).patch(`/tasks/${id}`, { projectId: foreign.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_PROJECT');
  });
});

describe('DELETE /tasks/:id', () => {
  it('deletes a PENDING task and releases its reservation', async () => {
    const buyer = await fundedBuyer(1_000);
    const [id] = await createTasks(buyer, 1, { maxCents: 75 });
    expect((await api(buyer).get('/auth/me')).body.buyer.reservedCents).toBe(75);
    expect((await api(buyer).delete(`/tasks/${id}`)).status).toBe(204);
    expect((await api(buyer).get(`/tasks/${id}`)).status).toBe(404);
    expect((await api(buyer).get('/auth/me')).body.buyer).toMatchObject({ creditBalance: 1_000, reservedCents: 0, availableCents: 1_000 });
  });
});
