import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const as = (buyer: TestBuyer) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  delete: (path: string) => request(ctx.app).delete(`/api/v1${path}`).set(bearer(buyer.token)),
});

/** A task row written directly: the task routes arrive with the tasks issue. */
async function insertTask(buyerId: string, projectId: string, status: 'PENDING' | 'COMPLETED', costCents = 20) {
  await ctx.prisma.task.create({
    data: {
      id: newId(),
      buyerId,
      projectId,
      type: 'BINARY_CHOICE',
      content: 'Is it a cat?',
      options: ['yes', 'no'],
      maxCents: 20,
      costCents,
      validationsNeeded: 3,
      maxResponses: 10,
      status,
    },
  });
}

describe('projects', () => {
  it('creates, lists, reads, renames and deletes a project', async () => {
    const buyer = await createBuyer(ctx);
    const api = as(buyer);
    const created = await api.post('/projects', { name: '  Cats  ', description: 'cat pictures' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Cats',
      description: 'cat pictures',
      targetConfidence: null,
      maxResponses: null,
      defaultAnswerKind: null,
      defaultDeadlineHours: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    expect((await api.get('/projects')).body.projects.map((p: { id: string }) => p.id)).toEqual([id]);
    const read = await api.get(`/projects/${id}`);
    expect(read.body.stats).toEqual({ tasks: { PENDING: 0, VALIDATING: 0, COMPLETED: 0, FAILED: 0 }, spentCents: 0 });
    const renamed = await api.patch(`/projects/${id}`, { name: 'Dogs', description: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Dogs', description: null });
    expect((await api.delete(`/projects/${id}`)).status).toBe(204);
    expect((await api.get(`/projects/${id}`)).status).toBe(404);
  });

  it('counts tasks by status and what completed tasks cost', async () => {
    const buyer = await createBuyer(ctx);
    const { body: project } = await as(buyer).post('/projects', { name: 'Stats' });
    await insertTask(buyer.id, project.id, 'PENDING');
    await insertTask(buyer.id, project.id, 'COMPLETED');
    await insertTask(buyer.id, project.id, 'COMPLETED');
    const res = await as(buyer).get(`/projects/${project.id}`);
    expect(res.body.stats).toEqual({ tasks: { PENDING: 1, VALIDATING: 0, COMPLETED: 2, FAILED: 0 }, spentCents: 40 });
  });

  it('returns 409 PROJECT_HAS_TASKS when the project still has tasks', async () => {
    const buyer = await createBuyer(ctx);
    const { body: project } = await as(buyer).post('/projects', { name: 'Busy' });
    await insertTask(buyer.id, project.id, 'PENDING');
    const res = await as(buyer).delete(`/projects/${project.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PROJECT_HAS_TASKS');
    expect((await as(buyer).get(`/projects/${project.id}`)).status).toBe(200);
  });

  it("returns 404 PROJECT_NOT_FOUND for an unknown, malformed or another buyer's project", async () => {
    const owner = await createBuyer(ctx);
    const other = await createBuyer(ctx);
    const { body: project } = await as(owner).post('/projects', { name: 'Private' });
    for (const id of [project.id, newId(), 'not-an-id']) {
      for (const res of [
        await as(other).get(`/projects/${id}`),
        await as(other).patch(`/projects/${id}`, { name: 'mine now' }),
        await as(other).delete(`/projects/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('PROJECT_NOT_FOUND');
      }
    }
    expect((await as(other).get('/projects')).body.projects).toEqual([]);
    expect((await as(owner).get(`/projects/${project.id}`)).body.name).toBe('Private');
  });

  it('validates names and rejects unknown fields', async () => {
    const buyer = await createBuyer(ctx);
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(201) }, { name: 'ok', owner: 'me' }]) {
      const res = await as(buyer).post('/projects', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('project quality settings', () => {
  const settingsOf = (body: Record<string, unknown>) => ({ targetConfidence: body.targetConfidence, maxResponses: body.maxResponses });

  it('creates a project with its settings and shows them on create, list, get and patch', async () => {
    const buyer = await createBuyer(ctx);
    const api = as(buyer);
    const created = await api.post('/projects', { name: 'Strict', targetConfidence: 0.99, maxResponses: 20 });
    expect(created.status).toBe(201);
    expect(settingsOf(created.body)).toEqual({ targetConfidence: 0.99, maxResponses: 20 });
    const id = created.body.id;
    expect((await api.get('/projects')).body.projects.map(settingsOf)).toEqual([{ targetConfidence: 0.99, maxResponses: 20 }]);
    const read = await api.get(`/projects/${id}`);
    expect(settingsOf(read.body)).toEqual({ targetConfidence: 0.99, maxResponses: 20 });
    expect(read.body.stats.spentCents).toBe(0);
    // A rename leaves the settings alone.
    expect(settingsOf((await api.patch(`/projects/${id}`, { name: 'Renamed' })).body)).toEqual({ targetConfidence: 0.99, maxResponses: 20 });
  });

  it('takes null or nothing as the service defaults, and PATCH sets, changes and clears each setting', async () => {
    const buyer = await createBuyer(ctx);
    const api = as(buyer);
    const explicit = await api.post('/projects', { name: 'Nulls', targetConfidence: null, maxResponses: null });
    expect(explicit.status).toBe(201);
    expect(settingsOf(explicit.body)).toEqual({ targetConfidence: null, maxResponses: null });
    const id = explicit.body.id;
    const set = await api.patch(`/projects/${id}`, { targetConfidence: 0.5, maxResponses: 2 });
    expect(set.status).toBe(200);
    expect(settingsOf(set.body)).toEqual({ targetConfidence: 0.5, maxResponses: 2 });
    expect(settingsOf((await api.patch(`/projects/${id}`, { targetConfidence: 0.999, maxResponses: 50 })).body)).toEqual({
      targetConfidence: 0.999,
      maxResponses: 50,
    });
    expect(settingsOf((await api.patch(`/projects/${id}`, { maxResponses: null })).body)).toEqual({ targetConfidence: 0.999, maxResponses: null });
    expect(settingsOf((await api.patch(`/projects/${id}`, { targetConfidence: null })).body)).toEqual({ targetConfidence: null, maxResponses: null });
    expect(settingsOf((await api.get(`/projects/${id}`)).body)).toEqual({ targetConfidence: null, maxResponses: null });
  });

  it.each([
    ['targetConfidence below 0.5', { targetConfidence: 0.49 }],
    ['targetConfidence above 0.999', { targetConfidence: 0.9991 }],
    ['targetConfidence 1', { targetConfidence: 1 }],
    ['targetConfidence as text', { targetConfidence: '0.9' }],
    ['maxResponses below 2', { maxResponses: 1 }],
    ['maxResponses above 50', { maxResponses: 51 }],
    ['a fractional maxResponses', { maxResponses: 10.5 }],
    ['maxResponses as text', { maxResponses: '10' }],
  ])('refuses %s with VALIDATION_ERROR naming the field, on create and patch, and writes nothing', async (_name, settings) => {
    const buyer = await createBuyer(ctx);
    const api = as(buyer);
    const field = Object.keys(settings)[0];
    const created = await api.post('/projects', { name: 'Refused', ...settings });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(created.body.details)).toContain(field);
    expect(await ctx.prisma.project.count({ where: { buyerId: buyer.id } })).toBe(0);

    const { body: project } = await api.post('/projects', { name: 'Kept', targetConfidence: 0.9, maxResponses: 12 });
    const patched = await api.patch(`/projects/${project.id}`, { name: 'Changed', ...settings });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('VALIDATION_ERROR');
    expect((await api.get(`/projects/${project.id}`)).body).toMatchObject({ name: 'Kept', targetConfidence: 0.9, maxResponses: 12 });
  });
});
