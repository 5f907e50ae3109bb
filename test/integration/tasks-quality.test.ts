// contract §5: a task takes its project's quality settings (targetConfidence, maxResponses) when it is
// created — or the defaults, CONSENSUS_THRESHOLD and max(10, 2 × validationsNeeded) — through every
// creation route, keeps them when the project changes later, and recomputes them when a PATCH moves it
// to another project or changes its validationsNeeded.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';

// Not the 0.95 default, so a task showing it took the configuration, not the column's default.
const CONFIGURED_TARGET = 0.9;

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext({ env: { CONSENSUS_THRESHOLD: String(CONFIGURED_TARGET) } });
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const fundedBuyer = () => createFundedBuyer(ctx, adminToken, 100_000);

const api = (buyer: TestBuyer) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  upload: (csv: string) =>
    request(ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach('file', Buffer.from(csv), { filename: 'tasks.csv', contentType: 'text/csv' }),
});

const task = (overrides: Record<string, unknown> = {}) => ({ type: 'BINARY_CHOICE', content: 'Is it a cat?', options: ['yes', 'no'], ...overrides });

async function createProject(buyer: TestBuyer, settings: { targetConfidence?: number | null; maxResponses?: number | null } = {}): Promise<string> {
  const res = await api(buyer).post('/projects', { name: 'Quality', ...settings });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function qualityOf(buyer: TestBuyer, taskId: string): Promise<{ targetConfidence: number; maxResponses: number }> {
  const res = await api(buyer).get(`/tasks/${taskId}`);
  expect(res.status).toBe(200);
  return { targetConfidence: res.body.targetConfidence, maxResponses: res.body.maxResponses };
}

async function createOne(buyer: TestBuyer, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await api(buyer).post('/tasks', task(overrides));
  expect(res.status).toBe(201);
  return res.body.taskId as string;
}

describe('a new task takes its quality settings', () => {
  it('from its project, through POST /tasks, POST /tasks/batch and the CSV import', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer, { targetConfidence: 0.99, maxResponses: 20 });
    const single = await createOne(buyer, { projectId });
    const batch = await api(buyer).post('/tasks/batch', { tasks: [task({ projectId }), task({ projectId, validationsNeeded: 7 })] });
    expect(batch.status).toBe(201);
    const csv = await api(buyer).upload(
      `type,content,options,projectId,validationsNeeded\nBINARY_CHOICE,a,yes|no,${projectId},\nBINARY_CHOICE,b,yes|no,${projectId},7\n`,
    );
    expect(csv.status).toBe(201);
    expect(csv.body.created).toBe(2);
    const ids = [single, ...batch.body.tasks.map((t: { taskId: string }) => t.taskId), ...csv.body.tasks.map((t: { taskId: string }) => t.taskId)];
    for (const id of ids) expect(await qualityOf(buyer, id)).toEqual({ targetConfidence: 0.99, maxResponses: 20 });
  });

  it('never below its validationsNeeded: 25 answers needed in a project of maxResponses 10 gives maxResponses 25', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer, { maxResponses: 10 });
    const single = await createOne(buyer, { projectId, validationsNeeded: 25 });
    const batch = await api(buyer).post('/tasks/batch', { tasks: [task({ projectId, validationsNeeded: 25 }), task({ projectId, validationsNeeded: 4 })] });
    const csv = await api(buyer).upload(`type,content,options,projectId,validationsNeeded\nBINARY_CHOICE,a,yes|no,${projectId},25\n`);
    const [batch25, batch4] = batch.body.tasks.map((t: { taskId: string }) => t.taskId);
    for (const id of [single, batch25, csv.body.tasks[0].taskId]) {
      expect(await qualityOf(buyer, id)).toEqual({ targetConfidence: CONFIGURED_TARGET, maxResponses: 25 });
    }
    expect(await qualityOf(buyer, batch4)).toEqual({ targetConfidence: CONFIGURED_TARGET, maxResponses: 10 });
  });

  it('from the defaults without a project, or in a project that sets none: CONSENSUS_THRESHOLD and max(10, 2 × validationsNeeded)', async () => {
    const buyer = await fundedBuyer();
    const plain = await createProject(buyer);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{}, 10],
      [{ validationsNeeded: 5 }, 10],
      [{ validationsNeeded: 6 }, 12],
      [{ validationsNeeded: 25 }, 50],
      [{ projectId: plain, validationsNeeded: 8 }, 16],
    ];
    for (const [overrides, maxResponses] of cases) {
      expect(await qualityOf(buyer, await createOne(buyer, overrides))).toEqual({ targetConfidence: CONFIGURED_TARGET, maxResponses });
    }
    const batch = await api(buyer).post('/tasks/batch', { tasks: [task(), task({ validationsNeeded: 9 })] });
    const csv = await api(buyer).upload('type,content,options,validationsNeeded\nBINARY_CHOICE,a,yes|no,\nBINARY_CHOICE,b,yes|no,9\n');
    const [b3, b9] = batch.body.tasks.map((t: { taskId: string }) => t.taskId);
    const [c3, c9] = csv.body.tasks.map((t: { taskId: string }) => t.taskId);
    for (const id of [b3, c3]) expect(await qualityOf(buyer, id)).toEqual({ targetConfidence: CONFIGURED_TARGET, maxResponses: 10 });
    for (const id of [b9, c9]) expect(await qualityOf(buyer, id)).toEqual({ targetConfidence: CONFIGURED_TARGET, maxResponses: 18 });
  });

  it('per project within one batch and one CSV file', async () => {
    const buyer = await fundedBuyer();
    const strict = await createProject(buyer, { targetConfidence: 0.99, maxResponses: 30 });
    const loose = await createProject(buyer, { targetConfidence: 0.6 });
    const batch = await api(buyer).post('/tasks/batch', { tasks: [task({ projectId: strict }), task({ projectId: loose }), task()] });
    const csv = await api(buyer).upload(
      `type,content,options,projectId\nBINARY_CHOICE,a,yes|no,${strict}\nBINARY_CHOICE,b,yes|no,${loose}\nBINARY_CHOICE,c,yes|no,\n`,
    );
    const expected = [
      { targetConfidence: 0.99, maxResponses: 30 },
      { targetConfidence: 0.6, maxResponses: 10 },
      { targetConfidence: CONFIGURED_TARGET, maxResponses: 10 },
    ];
    for (const created of [batch.body.tasks, csv.body.tasks] as Array<Array<{ taskId: string }>>) {
      expect(await Promise.all(created.map((t) => qualityOf(buyer, t.taskId)))).toEqual(expected);
    }
  });
});

describe('a task keeps its settings', () => {
  it('when its project changes them later: only tasks created afterwards take the new ones', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer, { targetConfidence: 0.8, maxResponses: 12 });
    const before = await createOne(buyer, { projectId });
    expect((await api(buyer).patch(`/projects/${projectId}`, { targetConfidence: 0.99, maxResponses: 40 })).status).toBe(200);
    const after = await createOne(buyer, { projectId });
    expect(await qualityOf(buyer, before)).toEqual({ targetConfidence: 0.8, maxResponses: 12 });
    expect(await qualityOf(buyer, after)).toEqual({ targetConfidence: 0.99, maxResponses: 40 });
    expect((await api(buyer).patch(`/projects/${projectId}`, { targetConfidence: null, maxResponses: null })).status).toBe(200);
    expect(await qualityOf(buyer, before)).toEqual({ targetConfidence: 0.8, maxResponses: 12 });
    expect(await qualityOf(buyer, after)).toEqual({ targetConfidence: 0.99, maxResponses: 40 });
  });

  it('when a PATCH changes only its budget or locale', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer, { targetConfidence: 0.8, maxResponses: 12 });
    const id = await createOne(buyer, { projectId });
    await api(buyer).patch(`/projects/${projectId}`, { targetConfidence: 0.99, maxResponses: 40 });
    const res = await api(buyer).patch(`/tasks/${id}`, { maxCents: 30, locale: 'fr' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ maxCents: 30, locale: 'fr', targetConfidence: 0.8, maxResponses: 12 });
  });
});

describe('PATCH /tasks/:id recomputes the settings of a PENDING task as if it were created now', () => {
  it('from the project it moves to, or the defaults when it leaves its project', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer, { targetConfidence: 0.97, maxResponses: 15 });
    const id = await createOne(buyer);
    const moved = await api(buyer).patch(`/tasks/${id}`, { projectId });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ projectId, targetConfidence: 0.97, maxResponses: 15 });
    const detached = await api(buyer).patch(`/tasks/${id}`, { projectId: null });
    expect(detached.body).toMatchObject({ projectId: null, targetConfidence: CONFIGURED_TARGET, maxResponses: 10 });
  });

  it('from its own project as it is now when validationsNeeded changes', async () => {
    const buyer = await fundedBuyer();
    const projectId = await createProject(buyer, { targetConfidence: 0.8, maxResponses: 12 });
    const id = await createOne(buyer, { projectId });
    await api(buyer).patch(`/projects/${projectId}`, { targetConfidence: 0.99, maxResponses: null });
    const res = await api(buyer).patch(`/tasks/${id}`, { validationsNeeded: 7 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ validationsNeeded: 7, targetConfidence: 0.99, maxResponses: 14 });
    await api(buyer).patch(`/projects/${projectId}`, { maxResponses: 10 });
    expect((await api(buyer).patch(`/tasks/${id}`, { validationsNeeded: 20 })).body).toMatchObject({ validationsNeeded: 20, maxResponses: 20 });
  });

  it('from the defaults for a task without project', async () => {
    const buyer = await fundedBuyer();
    const id = await createOne(buyer, { validationsNeeded: 3 });
    expect((await api(buyer).patch(`/tasks/${id}`, { validationsNeeded: 8 })).body).toMatchObject({ targetConfidence: CONFIGURED_TARGET, maxResponses: 16 });
    expect((await api(buyer).patch(`/tasks/${id}`, { validationsNeeded: 2 })).body).toMatchObject({ targetConfidence: CONFIGURED_TARGET, maxResponses: 10 });
  });

  it("refuses another buyer's project with INVALID_PROJECT and changes nothing", async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    const foreign = await createProject(other, { targetConfidence: 0.99, maxResponses: 40 });
    const id = await createOne(buyer);
    const res = await api(buyer).patch(`/tasks/${id}`, { projectId: foreign, validationsNeeded: 9 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_PROJECT');
    expect((await api(buyer).get(`/tasks/${id}`)).body).toMatchObject({
      projectId: null,
      validationsNeeded: 3,
      targetConfidence: CONFIGURED_TARGET,
      maxResponses: 10,
    });
  });
});
