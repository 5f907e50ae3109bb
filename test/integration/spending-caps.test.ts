// Spending caps (docs/organisations.md; README, "Spending caps"): a project's budget cap and the
// organisation's monthly cap refuse, with 402 BUDGET_CAP_REACHED and nothing written, any creation or budget
// raise that would pass them; what counts is what tasks commit (budgets reserved while open, prices charged
// once decided); hundreds of concurrent creations cannot pass a cap by a cent; budget.cap_reached and an
// e-mail go out once per crossing.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { bearer, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const world = useAnnotationWorld({});

const api = (token: string) => ({
  get: (path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(token)),
  post: (path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(token)).send(body),
  put: (path: string, body: object) => request(world.ctx.app).put(`/api/v1${path}`).set(bearer(token)).send(body),
  patch: (path: string, body: object) => request(world.ctx.app).patch(`/api/v1${path}`).set(bearer(token)).send(body),
  delete: (path: string) => request(world.ctx.app).delete(`/api/v1${path}`).set(bearer(token)),
});

const task = (extra: object = {}) => ({ type: 'BINARY_CHOICE', content: 'Is this spam?', options: ['yes', 'no'], ...extra });

async function fundedBuyer(cents = 1_000_000): Promise<TestBuyer> {
  const buyer = await createBuyer(world.ctx, 'Capped Co');
  await fundBuyer(world.ctx, world.adminToken, buyer.id, cents);
  return buyer;
}

async function cappedProject(buyer: TestBuyer, capCents: number, capAction: 'refuse' | 'hold' = 'refuse'): Promise<string> {
  const project = await api(buyer.token).post('/projects', { name: `Capped ${capCents}` });
  expect(project.status).toBe(201);
  const capped = await api(buyer.token).put(`/projects/${project.body.id}/budget-cap`, { capCents, capAction });
  expect(capped.status).toBe(200);
  return project.body.id;
}

const reserved = async (buyerId: string) => Number((await world.ctx.prisma.buyer.findUniqueOrThrow({ where: { id: buyerId } })).reservedCents);
const taskCount = (buyerId: string) => world.ctx.prisma.task.count({ where: { buyerId } });
const capEvents = (buyerId: string) => world.ctx.prisma.event.findMany({ where: { buyerId, type: 'budget.cap_reached' }, orderBy: { createdAt: 'asc' } });

describe("a project's budget cap", () => {
  it('refuses the task that would pass it with 402 BUDGET_CAP_REACHED naming the cap, and writes nothing', async () => {
    const buyer = await fundedBuyer();
    const projectId = await cappedProject(buyer, 100);
    for (let i = 0; i < 5; i++) expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(201);
    const before = { tasks: await taskCount(buyer.id), reserved: await reserved(buyer.id) };
    const refused = await api(buyer.token).post('/tasks', task({ projectId }));
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      code: 'BUDGET_CAP_REACHED',
      details: { scope: 'project', projectId, capCents: 100, committedCents: 100, requiredCents: 20 },
    });
    // All or nothing: a batch and a CSV import that would pass it create none of their tasks.
    const batch = await api(buyer.token).post('/tasks/batch', { tasks: [task(), task({ projectId })] });
    expect(batch.body.code).toBe('BUDGET_CAP_REACHED');
    const csv = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach('file', Buffer.from(`type,content,options,projectId\nBINARY_CHOICE,Spam?,yes|no,${projectId}\n`), {
        filename: 'tasks.csv',
        contentType: 'text/csv',
      });
    expect(csv.status).toBe(402);
    expect(csv.body.code).toBe('BUDGET_CAP_REACHED');
    expect({ tasks: await taskCount(buyer.id), reserved: await reserved(buyer.id) }).toEqual(before);
    // Tasks outside the project are not held back by its cap.
    expect((await api(buyer.token).post('/tasks', task())).status).toBe(201);
  });

  it('counts budgets while open and prices once decided: a deleted task frees its budget, a completed one keeps its price', async () => {
    const buyer = await fundedBuyer();
    const projectId = await cappedProject(buyer, 100);
    const dear = await api(buyer.token).post('/tasks', task({ projectId, maxCents: 100, validationsNeeded: 3 }));
    expect(dear.status).toBe(201);
    expect((await api(buyer.token).post('/tasks', task({ projectId }))).body.code).toBe('BUDGET_CAP_REACHED');
    // Decided at its price (20 cents), the task leaves 80 cents of the cap free.
    const app = sdk(world.ctx, world.developer.apiKey);
    const status = async () => (await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: dear.body.taskId } })).status;
    for (let i = 0; i < 10 && (await status()) !== 'COMPLETED'; i++) await app.answerNext(`cap-${i}`, 'yes');
    expect(await status()).toBe('COMPLETED');
    for (let i = 0; i < 4; i++) expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(201);
    const full = await api(buyer.token).post('/tasks', task({ projectId }));
    expect(full.body.details).toMatchObject({ committedCents: 100, requiredCents: 20 });
    const pending = (await world.ctx.prisma.task.findFirstOrThrow({ where: { projectId, status: 'PENDING' } })).id;
    expect((await api(buyer.token).delete(`/tasks/${pending}`)).status).toBe(204);
    expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(201);
  });

  it('refuses a budget raise, or a move into the project, that would pass it', async () => {
    const buyer = await fundedBuyer();
    const projectId = await cappedProject(buyer, 50);
    const inside = (await api(buyer.token).post('/tasks', task({ projectId }))).body.taskId;
    const raise = await api(buyer.token).patch(`/tasks/${inside}`, { maxCents: 60 });
    expect(raise.body).toMatchObject({ code: 'BUDGET_CAP_REACHED', details: { committedCents: 20, requiredCents: 40 } });
    expect((await api(buyer.token).patch(`/tasks/${inside}`, { maxCents: 50 })).status).toBe(200);
    const outside = (await api(buyer.token).post('/tasks', task())).body.taskId;
    const move = await api(buyer.token).patch(`/tasks/${outside}`, { projectId });
    expect(move.body).toMatchObject({ code: 'BUDGET_CAP_REACHED', details: { committedCents: 50, requiredCents: 20 } });
    expect((await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: outside } })).projectId).toBeNull();
    expect(await reserved(buyer.id)).toBe(70);
  });

  it('lets 200 concurrent creations commit exactly up to the cap, never a cent past it', { timeout: 60_000 }, async () => {
    const buyer = await fundedBuyer();
    const projectId = await cappedProject(buyer, 50 * 20);
    const answers = await Promise.all(Array.from({ length: 200 }, () => api(buyer.token).post('/tasks', task({ projectId }))));
    const statuses = answers.map((res) => (res.status === 201 ? 'created' : res.body.code));
    expect(statuses.filter((s) => s === 'created')).toHaveLength(50);
    expect(statuses.filter((s) => s === 'BUDGET_CAP_REACHED')).toHaveLength(150);
    const caps = await api(buyer.token).get('/billing/caps');
    expect(caps.body.projects).toEqual([{ projectId, name: 'Capped 1000', capCents: 1000, capAction: 'refuse', committedCents: 1000, heldTasks: 0 }]);
    expect(await reserved(buyer.id)).toBe(1000);
  });
});

describe('a project that holds tasks past its cap', () => {
  it('creates them PENDING and held (not reserved, not served), refuses to change them, and releases them in order when the cap is set again', async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    const projectId = await cappedProject(buyer, 40, 'hold');
    const batch = await as.post('/tasks/batch', { tasks: [1, 2, 3, 4].map((n) => task({ projectId, content: `Spam ${n}?` })) });
    expect(batch.status).toBe(201);
    expect(batch.body.tasks.map((t: { held?: true }) => t.held ?? false)).toEqual([false, false, true, true]);
    const [, , third, fourth] = batch.body.tasks.map((t: { taskId: string }) => t.taskId) as string[];
    expect(await reserved(buyer.id)).toBe(40);
    expect((await as.get(`/tasks/${third}`)).body).toMatchObject({ status: 'PENDING', held: true });
    // budget.cap_reached tells the buyer once, as a refusal does.
    expect(await capEvents(buyer.id)).toHaveLength(1);
    const single = await as.post('/tasks', task({ projectId }));
    expect(single.body).toMatchObject({ status: 'PENDING', held: true });
    // Never served while held: the queue skips them.
    const app = sdk(world.ctx, world.developer.apiKey);
    const served = new Set<string>();
    for (const annotator of ['hold-a', 'hold-b']) {
      for (let i = 0; i < 3; i++) {
        const next = await app.next(annotator);
        if (next.status === 200) served.add(next.body.task.id);
      }
    }
    expect([...served].filter((id) => [third, fourth, single.body.taskId].includes(id))).toEqual([]);
    expect((await as.patch(`/tasks/${third}`, { maxCents: 25 })).body.code).toBe('TASK_HELD');
    // Setting the cap again releases what fits, oldest first (tasks created together in id order), reserving
    // it; the rest stays held — the single task, created after the batch, among them.
    const raised = await as.put(`/projects/${projectId}/budget-cap`, { capCents: 60, capAction: 'hold' });
    expect(raised.body).toMatchObject({ capCents: 60, committedCents: 60, heldTasks: 2 });
    const heldNow = async (id: string) => (await as.get(`/tasks/${id}`)).body.held === true;
    const stillHeld = [third, fourth].find((id) => id !== [third, fourth].sort()[0]) as string;
    expect(await heldNow([third, fourth].sort()[0] as string)).toBe(false);
    expect(await heldNow(stillHeld)).toBe(true);
    expect(await heldNow(single.body.taskId)).toBe(true);
    expect(await reserved(buyer.id)).toBe(60);
    // A held task deleted gives nothing back: it never reserved anything.
    expect((await as.delete(`/tasks/${stillHeld}`)).status).toBe(204);
    expect(await reserved(buyer.id)).toBe(60);
    // Removing the cap releases the rest.
    expect((await as.put(`/projects/${projectId}/budget-cap`, { capCents: null })).body).toMatchObject({ capCents: null, capAction: 'hold', heldTasks: 0 });
    expect(await reserved(buyer.id)).toBe(80);
    const log = await as.get(`/audit-log?target=${projectId}&action=setProjectBudgetCap`);
    expect(log.body.entries[0].after).toEqual({ budgetCapCents: null, capAction: 'hold', releasedTasks: 1 });
  });

  it('keeps new tasks behind held ones even when room opens up, and counts a released task in the month it is released', async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    const projectId = await cappedProject(buyer, 20, 'hold');
    const batch = await as.post('/tasks/batch', { tasks: [task({ projectId }), task({ projectId })] });
    const [first, held] = batch.body.tasks.map((t: { taskId: string }) => t.taskId) as string[];
    expect((await as.delete(`/tasks/${first}`)).status).toBe(204);
    // Room under the cap again, but a held task waits: the new one queues behind it.
    expect((await as.post('/tasks', task({ projectId }))).body.held).toBe(true);
    // Held since last month, the task commits to this month's cap when released.
    const lastMonth = new Date();
    lastMonth.setUTCDate(0);
    await world.ctx.prisma.task.update({ where: { id: held }, data: { createdAt: lastMonth } });
    expect((await as.put('/billing/caps/monthly', { capCents: 20 })).status).toBe(200);
    const raised = await as.put(`/projects/${projectId}/budget-cap`, { capCents: 1_000 });
    expect(raised.body).toMatchObject({ capAction: 'hold', heldTasks: 1, committedCents: 20 });
    expect((await as.get('/billing/caps')).body.monthly).toMatchObject({ capCents: 20, committedCents: 20 });
    expect((await as.get(`/tasks/${held}`)).body.held).toBeUndefined();
  });

  it('releases held tasks only as far as the balance allows', async () => {
    const buyer = await fundedBuyer(50);
    const as = api(buyer.token);
    const projectId = await cappedProject(buyer, 20, 'hold');
    const batch = await as.post('/tasks/batch', { tasks: [task({ projectId }), task({ projectId }), task({ projectId })] });
    expect(batch.body.tasks.filter((t: { held?: true }) => t.held)).toHaveLength(2);
    expect((await as.put(`/projects/${projectId}/budget-cap`, { capCents: 1_000, capAction: 'hold' })).body).toMatchObject({
      heldTasks: 1,
      committedCents: 40,
    });
    expect(await reserved(buyer.id)).toBe(40);
  });
});

describe("the organisation's monthly cap", () => {
  it('holds the tasks created this calendar month, in every project and none, under it, also under concurrency', { timeout: 60_000 }, async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    const old = (await as.post('/tasks', task())).body.taskId;
    // A task created last month commits to last month's cap, not this one's.
    const lastMonth = new Date();
    lastMonth.setUTCDate(0);
    await world.ctx.prisma.task.update({ where: { id: old }, data: { createdAt: lastMonth } });
    expect((await as.put('/billing/caps/monthly', { capCents: 60 * 20 })).body).toMatchObject({ capCents: 1200, committedCents: 0 });
    const projects = await Promise.all([0, 1, 2].map(async (i) => (await as.post('/projects', { name: `P${i}` })).body.id as string));
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 4 === 3 ? as.post('/tasks/batch', { tasks: [task(), task()] }) : as.post('/tasks', task({ projectId: projects[i % 3] })),
      ),
    );
    const refused = answers.filter((res) => res.status === 402);
    expect(refused.every((res) => res.body.code === 'BUDGET_CAP_REACHED' && res.body.details.scope === 'organisation')).toBe(true);
    const month = (await as.get('/billing/caps')).body.monthly;
    expect(month).toMatchObject({ capCents: 1200, month: new Date().toISOString().slice(0, 7) });
    expect(month.committedCents).toBeLessThanOrEqual(1200);
    expect(month.committedCents).toBeGreaterThan(1200 - 40);
    expect(await reserved(buyer.id)).toBe(month.committedCents + 20);
  });
});

describe('budget.cap_reached', () => {
  it('is sent once per crossing, with an e-mail to those who may raise the cap; setting the cap again re-arms it', async () => {
    const buyer = await fundedBuyer();
    const projectId = await cappedProject(buyer, 20);
    expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(402);
    const [event] = await capEvents(buyer.id);
    expect(await capEvents(buyer.id)).toHaveLength(1);
    expect(JSON.parse(event?.payload ?? '{}')).toMatchObject({
      event: 'budget.cap_reached',
      scope: 'project',
      projectId,
      capCents: 20,
      committedCents: 20,
      requiredCents: 20,
    });
    const mail = await world.ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: buyer.email, kind: 'BUDGET_CAP_REACHED' } });
    expect(mail.subject).toBe('Project "Capped 20" reached its budget cap');
    expect((await api(buyer.token).put(`/projects/${projectId}/budget-cap`, { capCents: 40 })).body).toMatchObject({ capCents: 40, committedCents: 20 });
    expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(201);
    expect((await api(buyer.token).post('/tasks', task({ projectId }))).status).toBe(402);
    expect(await capEvents(buyer.id)).toHaveLength(2);
  });
});

describe('the cap routes', () => {
  it('shows the caps, removes one with null, and refuses what is not a cap', async () => {
    const buyer = await fundedBuyer();
    const projectId = await cappedProject(buyer, 500);
    expect((await api(buyer.token).get('/billing/caps')).body).toEqual({
      monthly: { capCents: null, committedCents: 0, month: new Date().toISOString().slice(0, 7) },
      projects: [{ projectId, name: 'Capped 500', capCents: 500, capAction: 'refuse', committedCents: 0, heldTasks: 0 }],
    });
    expect((await api(buyer.token).put(`/projects/${projectId}/budget-cap`, { capCents: null })).body.capCents).toBeNull();
    expect((await api(buyer.token).get('/billing/caps')).body.projects).toEqual([]);
    for (const body of [{ capCents: -1 }, { capCents: 1.5 }, { capCents: 10_000_000_001 }, {}, { capCents: 5, extra: true }]) {
      const res = await api(buyer.token).put('/billing/caps/monthly', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await api(buyer.token).put('/projects/nothing-here/budget-cap', { capCents: 5 })).body.code).toBe('PROJECT_NOT_FOUND');
    const other = await fundedBuyer();
    expect((await api(other.token).put(`/projects/${projectId}/budget-cap`, { capCents: 5 })).body.code).toBe('PROJECT_NOT_FOUND');
  });
});
