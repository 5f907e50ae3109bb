// Deadlines and priority (docs/organisations.md, README "Deadlines and priority"): a task's deadline (its
// own or its project's defaultDeadlineHours) ends it FAILED with failureReason EXPIRED once passed, its
// reservation released and nothing charged, with a task.failed event; answers past it are 409 TASK_CLOSED
// and next no longer serves it. A priority orders the buyer's own tasks in next, never another buyer's
// turn. GET /tasks/at-risk lists open tasks whose deadline is nearer than their project's median
// completion time.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { taskFailedPayload } from '@concord/contract';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { bearer, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

/** The services' clock runs `offsetMs` ahead of the system's: moving it is how a deadline passes. */
let offsetMs = 0;
const world = useAnnotationWorld({ clock: { now: () => new Date(Date.now() + offsetMs) } });

const api = (token: string) => ({
  get: (path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(token)),
  post: (path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(token)).send(body),
  put: (path: string, body: object) => request(world.ctx.app).put(`/api/v1${path}`).set(bearer(token)).send(body),
  patch: (path: string, body: object) => request(world.ctx.app).patch(`/api/v1${path}`).set(bearer(token)).send(body),
});

const task = (extra: object = {}) => ({ type: 'BINARY_CHOICE', content: 'Is this spam?', options: ['yes', 'no'], ...extra });
const inMinutes = (minutes: number) => new Date(Date.now() + offsetMs + minutes * 60_000).toISOString();

async function fundedBuyer(cents = 100_000): Promise<TestBuyer> {
  const buyer = await createBuyer(world.ctx, 'Deadline Co');
  await fundBuyer(world.ctx, world.adminToken, buyer.id, cents);
  return buyer;
}

const buyerRow = (id: string) => world.ctx.prisma.buyer.findUniqueOrThrow({ where: { id } });
const taskRow = (id: string) => world.ctx.prisma.task.findUniqueOrThrow({ where: { id } });
const issuesOf = (body: { details?: { issues?: Array<{ path: string }> } }) => body.details?.issues?.map((issue) => issue.path);

describe('a deadline', () => {
  it('is a minute to a year ahead, with a zone; priority is a whole number from −10 to 10', async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    for (const deadline of [inMinutes(0.5), inMinutes(-5), inMinutes(367 * 24 * 60), '2030-01-01T10:00:00', 'tomorrow']) {
      const refused = await as.post('/tasks', task({ deadline }));
      expect(refused.status, deadline).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(issuesOf(refused.body)).toEqual(['deadline']);
    }
    for (const priority of [11, -11, 1.5, '3']) {
      const refused = await as.post('/tasks', task({ priority }));
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(issuesOf(refused.body)).toEqual(['priority']);
    }
    const batch = await as.post('/tasks/batch', { tasks: [task(), task({ deadline: inMinutes(0) })] });
    expect(batch.body).toMatchObject({ code: 'INVALID_TASK', error: expect.stringContaining('Task 2 is invalid'), details: { code: 'VALIDATION_ERROR' } });
    expect(await world.ctx.prisma.task.count({ where: { buyerId: buyer.id } })).toBe(0);

    const deadline = inMinutes(90).replace('Z', '+00:00');
    const created = await as.post('/tasks', task({ deadline, priority: -3 }));
    expect(created.status).toBe(201);
    expect((await as.get(`/tasks/${created.body.taskId}`)).body).toMatchObject({ deadline: new Date(deadline).toISOString(), priority: -3 });

    const csv = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach(
        'file',
        Buffer.from(`type,content,options,deadline,priority\nBINARY_CHOICE,A?,yes|no,${inMinutes(30)},4\nBINARY_CHOICE,B?,yes|no,${inMinutes(0)},\n`),
        {
          filename: 'tasks.csv',
          contentType: 'text/csv',
        },
      );
    expect(csv.status).toBe(201);
    expect(csv.body.created).toBe(1);
    expect(csv.body.errors).toEqual([{ row: 2, code: 'VALIDATION_ERROR', error: expect.stringContaining('deadline: must be at least a minute ahead') }]);
    expect((await taskRow(csv.body.tasks[0].taskId)).priority).toBe(4);
  });

  it("comes from the project's defaultDeadlineHours when the task names none", async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    expect((await as.post('/projects', { name: 'Bad', defaultDeadlineHours: 0 })).body.code).toBe('VALIDATION_ERROR');
    expect((await as.post('/projects', { name: 'Bad', defaultDeadlineHours: 8_761 })).body.code).toBe('VALIDATION_ERROR');
    const project = await as.post('/projects', { name: 'Two hours', defaultDeadlineHours: 2 });
    expect(project.body.defaultDeadlineHours).toBe(2);
    const before = Date.now() + offsetMs;
    const defaulted = (await as.post('/tasks', task({ projectId: project.body.id }))).body.taskId;
    const deadline = (await taskRow(defaulted)).deadline?.getTime() ?? 0;
    expect(deadline).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + offsetMs + 2 * 3_600_000);
    const own = inMinutes(10);
    const named = (await as.post('/tasks', task({ projectId: project.body.id, deadline: own }))).body.taskId;
    expect((await taskRow(named)).deadline?.toISOString()).toBe(own);
    expect((await as.patch(`/projects/${project.body.id}`, { defaultDeadlineHours: null })).body.defaultDeadlineHours).toBeNull();
    expect((await taskRow((await as.post('/tasks', task({ projectId: project.body.id }))).body.taskId)).deadline).toBeNull();
  });

  it('ends an open task FAILED with EXPIRED: refused answers, not served, reservation released, nothing charged or earned, one task.failed event', async () => {
    const buyer = await fundedBuyer(1_000);
    const as = api(buyer.token);
    const taskId = (await as.post('/tasks', task({ maxCents: 40, deadline: inMinutes(2) }))).body.taskId;
    const app = sdk(world.ctx, world.developer.apiKey);
    expect(await app.answerNext('late-1', 'yes')).toBe(taskId);
    expect((await app.next('late-2')).body.task.id).toBe(taskId);
    expect((await buyerRow(buyer.id)).reservedCents).toBe(40n);

    offsetMs += 3 * 60_000;
    // Past the deadline before the job has run: the assignment's answer is refused, and next serves nothing.
    const late = await app.complete(taskId, 'late-2', 'yes');
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('TASK_CLOSED');
    expect((await app.next('late-3')).status).toBe(204);

    expect(await world.ctx.services.deadlines.expireDue()).toBe(1);
    expect(await world.ctx.services.deadlines.expireDue()).toBe(0);
    await world.ctx.services.settlementEffects.settled();
    const read = (await as.get(`/tasks/${taskId}`)).body;
    expect(read).toMatchObject({ status: 'FAILED', failureReason: 'EXPIRED', result: null, totalResponses: 1 });
    expect(await buyerRow(buyer.id)).toMatchObject({ creditBalance: 1_000n, reservedCents: 0n });
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } })).toBe(0);
    const answerer = await world.ctx.prisma.annotator.findFirstOrThrow({ where: { externalId: 'late-1' } });
    expect(answerer.earnedCents).toBe(0n);
    const events = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'task.failed' } });
    expect(events).toHaveLength(1);
    const payload = taskFailedPayload.strict().parse(JSON.parse(events[0]?.payload ?? '{}'));
    expect(payload).toEqual({ event: 'task.failed', taskId, type: 'BINARY_CHOICE', reason: 'EXPIRED', totalResponses: 1, failedAt: expect.any(String) });
    expect(Date.parse(payload.failedAt)).toBeGreaterThan(Date.parse(inMinutes(-1)) - 60_000);
    // Closed: no change, no delete.
    expect((await as.patch(`/tasks/${taskId}`, { deadline: inMinutes(30) })).body.code).toBe('TASK_NOT_PENDING');
  });

  it('ends a held task too, releasing nothing it had not reserved, and a text task with its review', async () => {
    const buyer = await fundedBuyer(10_000);
    const as = api(buyer.token);
    const project = await as.post('/projects', { name: 'Held' });
    expect((await as.put(`/projects/${project.body.id}/budget-cap`, { capCents: 20, capAction: 'hold' })).status).toBe(200);
    const batch = await as.post('/tasks/batch', {
      tasks: [1, 2].map((n) => task({ projectId: project.body.id, content: `Spam ${n}?`, deadline: inMinutes(2) })),
    });
    expect(batch.body.tasks.map((t: { held?: true }) => t.held ?? false)).toEqual([false, true]);

    const text = (
      await as.post('/tasks', {
        type: 'BINARY_CHOICE',
        answerKind: 'text',
        content: 'Describe a cat',
        validationsNeeded: 2,
        deadline: inMinutes(2),
        priority: 2,
      })
    ).body.taskId;
    const app = sdk(world.ctx, world.developer.apiKey);
    for (const writer of ['writer-1', 'writer-2']) {
      const next = await app.next(writer, { types: 'BINARY_CHOICE' });
      const id = next.body.task.id as string;
      expect((await app.complete(id, writer, id === text ? `A cat, by ${writer}` : 'yes')).status).toBe(201);
    }
    for (let i = 0; i < 3 && (await taskRow(text)).totalResponses < 2; i++) {
      const writer = `writer-extra-${i}`;
      const next = await app.next(writer);
      if (next.status === 200) await app.complete(next.body.task.id, writer, next.body.task.id === text ? `A cat, by ${writer}` : 'yes');
    }
    const review = await world.ctx.prisma.task.findFirstOrThrow({ where: { reviewOf: text } });
    expect(review).toMatchObject({ deadline: (await taskRow(text)).deadline, priority: 2 });
    // The review belongs to its text task: its schedule changes with it.
    expect((await as.patch(`/tasks/${review.id}`, { priority: 5 })).body.code).toBe('TASK_IS_REVIEW');
    expect((await as.patch(`/tasks/${text}`, { priority: 5 })).status).toBe(200);
    expect((await taskRow(review.id)).priority).toBe(5);

    offsetMs += 3 * 60_000;
    expect(await world.ctx.services.deadlines.expireDue()).toBe(4);
    await world.ctx.services.settlementEffects.settled();
    const rows = await world.ctx.prisma.task.findMany({ where: { buyerId: buyer.id } });
    expect(rows.map((row) => [row.status, row.failureReason, row.heldAt])).toEqual(rows.map(() => ['FAILED', 'EXPIRED', null]));
    expect(await buyerRow(buyer.id)).toMatchObject({ creditBalance: 10_000n, reservedCents: 0n });
    const failed = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'task.failed' } });
    const payloads = failed.map((event) => taskFailedPayload.strict().parse(JSON.parse(event.payload)));
    expect(payloads.find((p) => p.taskId === text)).toMatchObject({ reason: 'EXPIRED', reviewTaskId: review.id, totalResponses: 2 });
    expect(payloads.find((p) => p.taskId === review.id)).toMatchObject({ reason: 'EXPIRED', reviewOf: text });
  });

  it('can be changed, or removed, while the task is open; other fields only while it is PENDING', async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    const taskId = (await as.post('/tasks', task({ deadline: inMinutes(5) }))).body.taskId;
    await sdk(world.ctx, world.developer.apiKey).answerNext('changer', 'yes');
    expect((await taskRow(taskId)).status).toBe('VALIDATING');
    expect((await as.patch(`/tasks/${taskId}`, { maxCents: 60 })).body.code).toBe('TASK_NOT_PENDING');
    expect(issuesOf((await as.patch(`/tasks/${taskId}`, { deadline: inMinutes(0.5) })).body)).toEqual(['deadline']);
    const later = inMinutes(120);
    const changed = await as.patch(`/tasks/${taskId}`, { deadline: later, priority: 7 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'VALIDATING', deadline: later, priority: 7 });
    expect((await as.patch(`/tasks/${taskId}`, { deadline: null })).body.deadline).toBeNull();
    const entries = await as.get(`/audit-log?action=updateTask&target=${taskId}`);
    expect(entries.body.entries[1]).toMatchObject({ before: { deadline: expect.any(String), priority: 0 }, after: { deadline: later, priority: 7 } });
  });
});

describe('priority', () => {
  const older = (id: string, minutes: number) => world.ctx.prisma.task.update({ where: { id }, data: { createdAt: new Date(Date.now() - minutes * 60_000) } });

  it("orders the buyer's own tasks: ten minutes of age per point, so nothing waits longer than that behind newer work", async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    const low = (await as.post('/tasks', task({ content: 'low', priority: -1 }))).body.taskId;
    const high = (await as.post('/tasks', task({ content: 'high', priority: 3 }))).body.taskId;
    const plain = (await as.post('/tasks', task({ content: 'plain' }))).body.taskId;
    await older(low, 20);
    await older(high, 5);
    await older(plain, 15);
    // Places in the buyer's queue: high −35 min, low −10 min, plain −15 min → high, plain, low.
    const app = sdk(world.ctx, world.developer.apiKey);
    const served: string[] = [];
    for (let i = 0; i < 9; i++) {
      const next = await app.next(`prio-${i}`);
      served.push(next.body.task.id);
    }
    // Each task takes its validationsNeeded (3) assignees before the next one in order is served.
    expect(served).toEqual([high, high, high, plain, plain, plain, low, low, low]);
  });

  it("never takes another buyer's turn: the oldest task says whose turn it is", async () => {
    const first = await fundedBuyer();
    const second = await fundedBuyer();
    const theirs = (await api(first.token).post('/tasks', task({ content: 'first buyer' }))).body.taskId;
    const urgent = (await api(second.token).post('/tasks', task({ content: 'second buyer', priority: 10 }))).body.taskId;
    await older(theirs, 2);
    const app = sdk(world.ctx, world.developer.apiKey);
    expect((await app.next('turn-1')).body.task.id).toBe(theirs);
    // Once the first buyer's task is out of the queue, the second buyer's turn comes.
    await world.ctx.prisma.task.update({ where: { id: theirs }, data: { status: 'FAILED' } });
    expect((await app.next('turn-2')).body.task.id).toBe(urgent);
  });
});

describe('GET /tasks/at-risk', () => {
  it("lists open tasks whose deadline is nearer than their project's median completion time, soonest first", async () => {
    const buyer = await fundedBuyer();
    const as = api(buyer.token);
    const project = (await as.post('/projects', { name: 'Slow' })).body.id as string;
    // The project's completed tasks took an hour each.
    for (let i = 0; i < 3; i++) {
      const id = (await as.post('/tasks', task({ projectId: project }))).body.taskId;
      const validatedAt = new Date(Date.now() + offsetMs - i * 60_000);
      await world.ctx.prisma.task.update({
        where: { id },
        data: { status: 'COMPLETED', result: 'yes', confidence: 0.97, validatedAt, createdAt: new Date(validatedAt.getTime() - 3_600_000) },
      });
    }
    const soon = (await as.post('/tasks', task({ projectId: project, deadline: inMinutes(30) }))).body.taskId;
    await as.post('/tasks', task({ projectId: project, deadline: inMinutes(120) }));
    const loose = (await as.post('/tasks', task({ deadline: inMinutes(2) }))).body.taskId;
    await as.post('/tasks', task({ deadline: inMinutes(10) }));
    await as.post('/tasks', task());

    const res = await as.get('/tasks/at-risk');
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.tasks.map((t: { id: string; medianCompletionMs: number; medianKnown: boolean }) => [t.id, t.medianCompletionMs, t.medianKnown])).toEqual([
      [loose, 300_000, false],
      [soon, 3_600_000, true],
    ]);
    expect((await as.get(`/tasks/at-risk?projectId=${project}`)).body.tasks.map((t: { id: string }) => t.id)).toEqual([soon]);
    const page = await as.get('/tasks/at-risk?limit=1');
    expect(page.body).toMatchObject({ hasMore: true, tasks: [{ id: loose }] });
    const rest = await as.get(`/tasks/at-risk?limit=1&cursor=${page.body.nextCursor}`);
    expect(rest.body).toMatchObject({ hasMore: false, nextCursor: null, tasks: [{ id: soon }] });
    expect((await as.get('/tasks/at-risk?cursor=nonsense')).body.code).toBe('INVALID_CURSOR');
    expect((await as.get('/tasks/at-risk?status=PENDING')).body.code).toBe('VALIDATION_ERROR');
    // Another organisation sees none of them.
    expect((await api((await fundedBuyer()).token).get('/tasks/at-risk')).body.tasks).toEqual([]);
  });
});
