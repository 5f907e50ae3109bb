import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

/** A task.failed payload as settlement records it. */
const failedPayload = (taskId: string) => ({
  taskId,
  type: 'BINARY_CHOICE' as const,
  reason: 'NO_CONSENSUS',
  totalResponses: 10,
  failedAt: new Date().toISOString(),
});

const DAY_MS = 86_400_000;

let ctx: TestContext;
let adminToken: string;
let developer: TestDeveloper;
beforeAll(async () => {
  // Its own database: the SDK hands out the oldest open task of the whole platform. At 0.9, three agreeing
  // answers (0.9270) complete a task.
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9' } });
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
});
afterAll(() => ctx.close());

const get = (buyer: TestBuyer, path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token));

async function subscribe(buyer: TestBuyer, events: string[]): Promise<string> {
  const res = await request(ctx.app)
    .post('/api/v1/webhooks/configs')
    .set(bearer(buyer.token))
    .send({ url: 'http://127.0.0.1:9/hook', events, secret: 'events-test-secret-0123' });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A task completed through the SDK: settlement writes task.completed to the outbox. */
async function completeTask(buyer: TestBuyer): Promise<string> {
  const created = await request(ctx.app)
    .post('/api/v1/tasks')
    .set(bearer(buyer.token))
    .send({ type: 'BINARY_CHOICE', content: 'Cat?', options: ['yes', 'no'] });
  expect(created.status).toBe(201);
  for (let i = 0; i < 3; i++) await sdk(ctx, developer.apiKey).answerNext(`ev-${newId()}`, 'yes');
  return created.body.taskId;
}

/** An admin debit of 600 cents, from 980 (1 000 less one task's charge) to 380: budget.low. */
async function dropBelowThreshold(buyer: TestBuyer): Promise<void> {
  const res = await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents: -600, reason: 'test' });
  expect(res.status).toBe(201);
}

const moveEvent = (id: string, createdAt: Date) => ctx.prisma.event.update({ where: { id }, data: { createdAt } });

describe('GET /events and GET /events/:id', () => {
  let buyer: TestBuyer;
  let configId: string;
  let taskId: string;
  let failedTaskId: string;
  let failedEventId: string;
  let oldEventId: string;
  beforeAll(async () => {
    buyer = await createBuyer(ctx);
    configId = await subscribe(buyer, ['task.completed', 'budget.low']);
    await fundBuyer(ctx, adminToken, buyer.id, 1_000);
    taskId = await completeTask(buyer);
    await dropBelowThreshold(buyer);
    // task.failed as the outbox records it; nothing subscribes to it, so it has no delivery.
    failedTaskId = newId();
    failedEventId = await ctx.services.db.repos.events.record(buyer.id, 'task.failed', failedPayload(failedTaskId));
    oldEventId = await ctx.services.db.repos.events.record(buyer.id, 'task.failed', failedPayload(newId()));
    await moveEvent(oldEventId, new Date(Date.now() - 31 * DAY_MS));
    // Another buyer's event is never shown.
    await ctx.services.db.repos.events.record((await createBuyer(ctx)).id, 'task.failed', failedPayload(taskId));
  });

  it('lists the events of the last 30 days, newest first, with the payload that was sent and the deliveries', async () => {
    const res = await get(buyer, '/events');
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.events.map((event: { type: string }) => event.type)).toEqual(['task.failed', 'budget.low', 'task.completed']);
    const [failed, low, completed] = res.body.events;
    expect(completed).toEqual({
      id: expect.any(String),
      type: 'task.completed',
      taskId,
      payload: expect.objectContaining({ event: 'task.completed', taskId, result: 'yes' }),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deliveries: [{ id: expect.any(String), configId, status: 'PENDING', attempts: 0, lastStatusCode: null, deliveredAt: null }],
    });
    expect(low).toMatchObject({ type: 'budget.low', taskId: null, payload: { event: 'budget.low', creditBalance: 380, thresholdCents: 500 } });
    expect(low.deliveries).toHaveLength(1);
    expect(failed).toEqual({
      id: failedEventId,
      type: 'task.failed',
      taskId: failedTaskId,
      payload: { event: 'task.failed', ...failedPayload(failedTaskId), failedAt: expect.any(String) },
      createdAt: expect.any(String),
      deliveries: [],
    });
    // The payload is exactly the stored JSON text that the webhooks sign and send.
    const stored = await ctx.prisma.event.findUniqueOrThrow({ where: { id: completed.id } });
    expect(completed.payload).toEqual(JSON.parse(stored.payload));
  });

  it('reads one event like the list shows it', async () => {
    const listed = (await get(buyer, '/events?type=task.completed')).body.events[0];
    const res = await get(buyer, `/events/${listed.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(listed);
  });

  it('filters by type, by the payload taskId and by since (at or after)', async () => {
    const types = async (query: string) => (await get(buyer, `/events?${query}`)).body.events.map((event: { type: string }) => event.type);
    expect(await types('type=budget.low')).toEqual(['budget.low']);
    expect(await types(`taskId=${taskId}`)).toEqual(['task.completed']);
    expect(await types(`taskId=${newId()}`)).toEqual([]);
    const at = new Date(Date.now() - 2 * DAY_MS);
    await moveEvent(failedEventId, at);
    try {
      expect(await types(`since=${at.toISOString()}`)).toEqual(['budget.low', 'task.completed', 'task.failed']);
      expect(await types(`since=${new Date(at.getTime() + 1).toISOString()}`)).toEqual(['budget.low', 'task.completed']);
      expect(await types(`since=${encodeURIComponent('2000-01-01T01:00:00+01:00')}&type=task.failed`)).toEqual(['task.failed']);
    } finally {
      await moveEvent(failedEventId, new Date());
    }
  });

  it('pages with limit and cursor, like the other lists', async () => {
    const first = await get(buyer, '/events?limit=2');
    expect(first.body.events).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await get(buyer, `/events?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.body.events, ...second.body.events].map((event: { id: string }) => event.id)).toEqual(
      (await get(buyer, '/events')).body.events.map((event: { id: string }) => event.id),
    );
    const bad = await get(buyer, '/events?cursor=not-ours');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CURSOR');
  });

  it('never reaches past 30 days: an older event is neither listed (whatever since says) nor readable', async () => {
    const listed = (await get(buyer, '/events?since=2000-01-01T00:00:00.000Z')).body.events.map((event: { id: string }) => event.id);
    expect(listed).not.toContain(oldEventId);
    const res = await get(buyer, `/events/${oldEventId}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('EVENT_NOT_FOUND');
  });

  it('returns 404 EVENT_NOT_FOUND for an unknown, malformed or foreign id', async () => {
    const stranger = await createBuyer(ctx);
    for (const [who, id] of [
      [buyer, newId()],
      [buyer, 'evt_nope'],
      [buyer, '%FF'],
      [buyer, 'x'.repeat(300)],
      [stranger, failedEventId],
    ] as const) {
      const res = await get(who, `/events/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Event not found', code: 'EVENT_NOT_FOUND' });
    }
  });

  it.each(['type=task.created', 'since=yesterday', 'since=2026-01-01', 'limit=0', 'limit=x', 'taskId=', 'task_id=x'])(
    'GET /events returns 400 VALIDATION_ERROR for %s',
    async (query) => {
      const res = await get(buyer, `/events?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  it('GET /events/:id refuses query parameters with 400 VALIDATION_ERROR', async () => {
    const res = await get(buyer, `/events/${failedEventId}?expand=deliveries`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it.each(['/events', `/events/${newId()}`])('%s: 401 without a credential, 403 for an admin or a developer, 405 for POST', async (path) => {
    expect((await request(ctx.app).get(`/api/v1${path}`)).body.code).toBe('UNAUTHORIZED');
    for (const token of [adminToken, developer.apiKey]) {
      const res = await request(ctx.app).get(`/api/v1${path}`).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    const posted = await request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send({});
    expect(posted.status).toBe(405);
    expect(posted.body.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('GET /events: cursor pages under filters, and the 30-day edge', () => {
  it('pages through a filtered list with limit and cursor, every event once, whatever its id looks like', async () => {
    const buyer = await createBuyer(ctx);
    const recorded: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Ids are opaque: a prefixed one (evt_…) pages like any other.
      const id = i % 2 === 0 ? `evt_${newId()}` : newId();
      await ctx.prisma
        .$executeRaw`SELECT record_event(${id}, ${buyer.id}, 'budget.low', ${JSON.stringify({ event: 'budget.low', creditBalance: i })}, ARRAY[]::text[])`;
      recorded.push(id);
      await ctx.services.db.repos.events.record(buyer.id, 'task.failed', failedPayload(newId()));
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await get(buyer, `/events?type=budget.low&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const events = res.body.events as Array<{ id: string; type: string }>;
      expect(new Set(events.map((event) => event.type))).toEqual(new Set(['budget.low']));
      seen.push(...events.map((event) => event.id));
      if (!res.body.hasMore) break;
      cursor = res.body.nextCursor;
    }
    // Newest first by (created_at, id): two events in one millisecond are ordered by id, not by recording.
    const expected = await ctx.prisma.$queryRaw<
      Array<{ id: string }>
    >`SELECT id FROM events WHERE buyer_id = ${buyer.id} AND type = 'budget.low' ORDER BY created_at DESC, id DESC`;
    expect(new Set(seen)).toEqual(new Set(recorded));
    expect(seen).toEqual(expected.map((row) => row.id));
  });

  it('reaches back exactly 30 days: an event of 29 days is listed and readable, with since or without', async () => {
    const buyer = await createBuyer(ctx);
    const id = await ctx.services.db.repos.events.record(buyer.id, 'task.failed', failedPayload(newId()));
    await moveEvent(id, new Date(Date.now() - 29 * DAY_MS));
    for (const query of ['', `?since=${new Date(Date.now() - 40 * DAY_MS).toISOString()}`]) {
      expect((await get(buyer, `/events${query}`)).body.events.map((event: { id: string }) => event.id)).toEqual([id]);
    }
    expect((await get(buyer, `/events?since=${new Date(Date.now() - 28 * DAY_MS).toISOString()}`)).body.events).toEqual([]);
    expect((await get(buyer, `/events/${id}`)).status).toBe(200);
  });
});

describe('the event log at scale', () => {
  // With sequential scans priced out, the planner shows which index serves each read: on a million
  // events a missing one is a scan of everything (a 55–450 ms read on every overview refresh).
  async function plan(sql: string, ...params: unknown[]): Promise<string> {
    return ctx.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      const rows = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`, ...params);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it("reads an event's deliveries and filters by task id through indexes", async () => {
    expect(await plan('SELECT * FROM webhook_deliveries WHERE event_id = ANY($1::text[])', ['a', 'b'])).toContain('webhook_deliveries_event_id_idx');
    expect(await plan(`SELECT id FROM events WHERE buyer_id = $1 AND payload::jsonb ->> 'taskId' = $2`, 'b', 't')).toContain('events_buyer_task_idx');
  });
});
