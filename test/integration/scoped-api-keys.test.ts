// Scoped buyer API keys (docs/organisations.md): read or write, limited to projects, with an expiry and the
// member who made it. A project-scoped key sees and creates its projects' tasks only, its lists are
// filtered, and routes that reach the whole organisation answer it 403.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const api = (credential: string) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(credential)),
  post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(credential)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(credential)).send(body),
  delete: (path: string) => request(ctx.app).delete(`/api/v1${path}`).set(bearer(credential)),
});

const task = (content: string, projectId?: string) => ({ type: 'BINARY_CHOICE', content, options: ['yes', 'no'], ...(projectId ? { projectId } : {}) });

async function createKey(founder: TestBuyer, body: object): Promise<{ id: string; secret: string } & Record<string, unknown>> {
  const res = await api(founder.token).post('/api-keys', { name: 'scoped', ...body });
  expect(res.status).toBe(201);
  return res.body.apiKey;
}

/** An organisation with two projects and a task in each and one without a project. */
async function organisation() {
  const founder = await createBuyer(ctx, 'Northwind Vision');
  await fundBuyer(ctx, adminToken, founder.id, 10_000);
  const [inside, outside] = await Promise.all(['Birds', 'Cars'].map(async (name) => (await api(founder.token).post('/projects', { name })).body.id as string));
  const ids = {} as Record<'inside' | 'outside' | 'none', string>;
  ids.inside = (await api(founder.token).post('/tasks', task('a bird', inside))).body.taskId;
  ids.outside = (await api(founder.token).post('/tasks', task('a car', outside))).body.taskId;
  ids.none = (await api(founder.token).post('/tasks', task('anything'))).body.taskId;
  return { founder, inside: inside as string, outside: outside as string, tasks: ids };
}

describe('creating and listing scoped keys', () => {
  it('keeps access, projects, expiry and creator, and shows them in the list; refuses foreign projects and a past expiry', async () => {
    const { founder, inside, outside } = await organisation();
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    const key = await createKey(founder, { access: 'read', projectIds: [inside, inside], expiresAt });
    expect(key).toMatchObject({ access: 'read', projectIds: [inside], expiresAt, createdBy: founder.email, lastUsedAt: null });
    const plain = await createKey(founder, {});
    expect(plain).toMatchObject({ access: 'write', projectIds: null, expiresAt: null, createdBy: founder.email });
    const listed = (await api(founder.token).get('/api-keys')).body.apiKeys;
    expect(listed.map((k: { id: string; access: string; projectIds: string[] | null }) => [k.id, k.access, k.projectIds])).toEqual([
      [plain.id, 'write', null],
      [key.id, 'read', [inside]],
    ]);

    const other = await createBuyer(ctx);
    const otherProject = (await api(other.token).post('/projects', { name: 'Theirs' })).body.id as string;
    const foreign = await api(founder.token).post('/api-keys', { name: 'x', projectIds: [outside, otherProject] });
    expect([foreign.status, foreign.body.code, foreign.body.error]).toEqual([
      400,
      'INVALID_PROJECT',
      `projectIds: ${otherProject} is not one of your projects`,
    ]);
    const past = await api(founder.token).post('/api-keys', { name: 'x', expiresAt: new Date(Date.now() + 1_000).toISOString() });
    expect([past.status, past.body.code, past.body.details]).toEqual([
      400,
      'VALIDATION_ERROR',
      { issues: [{ path: 'expiresAt', message: 'must be at least a minute ahead' }] },
    ]);
    expect(await ctx.prisma.buyerApiKey.count({ where: { buyerId: founder.id } })).toBe(2);
  });

  it('stops an expired key with 401 saying when it expired', async () => {
    const { founder } = await organisation();
    const key = await createKey(founder, { expiresAt: new Date(Date.now() + 120_000).toISOString() });
    expect((await api(key.secret).get('/tasks')).status).toBe(200);
    const expiredAt = new Date(Date.now() - 1_000);
    await ctx.prisma.buyerApiKey.update({ where: { id: key.id }, data: { expiresAt: expiredAt } });
    const res = await api(key.secret).get('/tasks');
    expect([res.status, res.body.code, res.body.error]).toEqual([401, 'UNAUTHORIZED', `This API key expired on ${expiredAt.toISOString()}`]);
  });
});

describe('a read key', () => {
  it('reads what a viewer reads and writes nothing', async () => {
    const { founder, tasks } = await organisation();
    const key = await createKey(founder, { access: 'read' });
    expect((await api(key.secret).get(`/tasks/${tasks.none}`)).status).toBe(200);
    expect((await api(key.secret).get('/billing/ledger')).status).toBe(200);
    const write = await api(key.secret).post('/projects', { name: 'Nope' });
    expect([write.status, write.body.code, write.body.details]).toEqual([403, 'FORBIDDEN', { permission: 'tasks:write', role: 'read key' }]);
    expect((await api(key.secret).delete(`/tasks/${tasks.none}`)).status).toBe(403);
    expect(await ctx.prisma.task.count({ where: { id: tasks.none } })).toBe(1);
  });
});

describe('what no key reaches', () => {
  it('a write key manages no members, invitations or keys, and lists no organisations of its founder', async () => {
    const { founder } = await organisation();
    const key = (await createKey(founder, {})).secret;
    for (const path of ['/members', '/invitations']) {
      const res = await api(key).get(path);
      expect([res.status, res.body.details], path).toEqual([403, { permission: 'members:write', role: 'write key' }]);
    }
    for (const path of ['/organisations', '/api-keys']) expect((await api(key).get(path)).status, path).toBe(403);
  });

  it('a project-scoped key reads not the organisation’s account, and is not answered what another made outside its projects', async () => {
    const { founder, inside, outside } = await organisation();
    const key = await createKey(founder, { projectIds: [inside] });
    const me = await api(key.secret).get('/auth/me');
    expect([me.status, me.body.details]).toEqual([403, { projectIds: [inside] }]);
    // The owner created a task outside the key's projects with an Idempotency-Key; the key sends the same key and body.
    const body = task('owner made this', outside);
    const made = await api(founder.token).post('/tasks', body).set('idempotency-key', 'shared-key-1');
    expect(made.status).toBe(201);
    const replay = await api(key.secret).post('/tasks', body).set('idempotency-key', 'shared-key-1');
    expect([replay.status, replay.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(replay.headers['idempotent-replayed']).toBeUndefined();
  });

  it("gives each member their own Idempotency-Keys on key creation: another admin's repeat makes a key of its own, never shows the first secret", async () => {
    const { founder } = await organisation();
    const admin = await createBuyer(ctx);
    await ctx.prisma.membership.create({ data: { accountId: admin.id, buyerId: founder.id, role: 'admin' } });
    const first = await api(founder.token).post('/api-keys', { name: 'ci' }).set('idempotency-key', 'key-creation-1');
    const second = await request(ctx.app)
      .post('/api/v1/api-keys')
      .set({ ...bearer(admin.token), 'x-concord-organisation': founder.id, 'idempotency-key': 'key-creation-1' })
      .send({ name: 'ci' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.apiKey.secret).not.toBe(first.body.apiKey.secret);
    expect(second.body.apiKey.createdBy).toBe(admin.email);
  });
});

describe('a project-scoped key', () => {
  it('creates tasks in its projects only, by every route', async () => {
    const { founder, inside, outside } = await organisation();
    const key = await createKey(founder, { projectIds: [inside] });
    const scoped = api(key.secret);
    expect((await scoped.post('/tasks', task('in', inside))).status).toBe(201);
    const elsewhere = await scoped.post('/tasks', task('out', outside));
    expect([elsewhere.status, elsewhere.body.code, elsewhere.body.error]).toEqual([400, 'INVALID_PROJECT', "projectId is not one of this API key's projects"]);
    const none = await scoped.post('/tasks', task('no project'));
    expect([none.status, none.body.code, none.body.error]).toEqual([
      400,
      'INVALID_PROJECT',
      'This API key is limited to projects: name one of them in projectId',
    ]);
    const batch = await scoped.post('/tasks/batch', { tasks: [task('in', inside), task('out', outside)] });
    expect([batch.status, batch.body.code, batch.body.taskIndex, batch.body.details?.code]).toEqual([400, 'INVALID_TASK', 1, 'INVALID_PROJECT']);
    const csv = await request(ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(key.secret))
      .attach(
        'file',
        Buffer.from(`type,content,options,projectId\nBINARY_CHOICE,in,yes|no,${inside}\nBINARY_CHOICE,out,yes|no,${outside}\nBINARY_CHOICE,none,yes|no,\n`),
        'tasks.csv',
      );
    expect(csv.status).toBe(201);
    expect(csv.body.created).toBe(1);
    expect(csv.body.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
      [2, 'INVALID_PROJECT'],
      [3, 'INVALID_PROJECT'],
    ]);
    expect(await ctx.prisma.task.count({ where: { buyerId: founder.id, projectId: inside } })).toBe(3);
    expect(await ctx.prisma.task.count({ where: { buyerId: founder.id } })).toBe(5);
  });

  it('sees, changes and deletes its projects’ tasks only; lists and counts are filtered', async () => {
    const { founder, inside, outside, tasks } = await organisation();
    const scoped = api((await createKey(founder, { projectIds: [inside] })).secret);
    expect((await scoped.get('/tasks')).body.tasks.map((t: { id: string }) => t.id)).toEqual([tasks.inside]);
    expect((await scoped.get('/tasks/counts')).body.total).toBe(1);
    expect((await scoped.get(`/tasks?projectId=${outside}`)).body.tasks).toEqual([]);
    for (const id of [tasks.outside, tasks.none]) {
      expect((await scoped.get(`/tasks/${id}`)).body.code).toBe('TASK_NOT_FOUND');
      expect((await scoped.patch(`/tasks/${id}`, { maxCents: 30 })).body.code).toBe('TASK_NOT_FOUND');
      expect((await scoped.delete(`/tasks/${id}`)).body.code).toBe('TASK_NOT_FOUND');
    }
    const moved = await scoped.patch(`/tasks/${tasks.inside}`, { projectId: outside });
    expect([moved.status, moved.body.code]).toEqual([400, 'INVALID_PROJECT']);
    expect((await scoped.patch(`/tasks/${tasks.inside}`, { maxCents: 30 })).body.maxCents).toBe(30);
    expect((await scoped.delete(`/tasks/${tasks.inside}`)).status).toBe(204);
    expect(await ctx.prisma.task.count({ where: { id: { in: [tasks.outside, tasks.none] } } })).toBe(2);
  });

  it('sees its projects only, exports them by name, and is refused every route that reaches the whole organisation', async () => {
    const { founder, inside, outside } = await organisation();
    const scoped = api((await createKey(founder, { projectIds: [inside] })).secret);
    expect((await scoped.get('/projects')).body.projects.map((p: { id: string }) => p.id)).toEqual([inside]);
    expect((await scoped.get(`/projects/${inside}`)).status).toBe(200);
    expect((await scoped.get(`/projects/${inside}/distribution`)).status).toBe(200);
    for (const path of [`/projects/${outside}`, `/projects/${outside}/distribution`, `/projects/${outside}/quality`, `/projects/${outside}/pairwise`]) {
      expect((await scoped.get(path)).body.code, path).toBe('PROJECT_NOT_FOUND');
    }
    expect((await scoped.patch(`/projects/${outside}`, { name: 'Renamed' })).body.code).toBe('PROJECT_NOT_FOUND');
    expect((await scoped.delete(`/projects/${outside}`)).body.code).toBe('PROJECT_NOT_FOUND');

    expect((await scoped.get(`/exports?format=jsonl&projectId=${inside}`)).status).toBe(200);
    for (const query of ['format=jsonl', `format=jsonl&projectId=${outside}`]) {
      const res = await scoped.get(`/exports?${query}`);
      expect([res.status, res.body.code], query).toEqual([400, 'INVALID_PROJECT']);
    }

    for (const [method, path] of [
      ['get', '/events'],
      ['get', '/webhooks/configs'],
      ['get', '/golden-tasks'],
      ['get', '/billing/ledger'],
      ['get', '/quality/option-sets'],
      ['post', '/projects'],
    ] as const) {
      const res = method === 'get' ? await scoped.get(path) : await scoped.post(path, { name: 'x' });
      expect([res.status, res.body.code, res.body.details], path).toEqual([403, 'FORBIDDEN', { projectIds: [inside] }]);
    }
  });
});
