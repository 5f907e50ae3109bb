// GET /events/stream in one process: the buyer's new events as server-sent events, in
// commit order, exactly once across a reconnect with Last-Event-ID, heartbeats, auth, caps, clean-up.
// Two processes and shutdown: event-stream-processes.test.ts.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createHttpServer } from '../../src/lib/http-server.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { EventStreamClient, openEventStream, openedStream } from '../helpers/event-stream.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, PASSWORD, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const DAY_MS = 86_400_000;
const HEARTBEAT_MS = 150;

interface Served {
  ctx: TestContext;
  url: string;
  close(): Promise<void>;
}

/** The app on a real listening server (supertest cannot read a response that never ends). */
async function serve(env: Record<string, string> = {}, timeouts?: Parameters<typeof createHttpServer>[1]): Promise<Served> {
  // Its own database: the SDK hands out the oldest open task of the whole platform.
  const ctx = await createIsolatedTestContext({
    env: { EVENT_STREAM_POLL_MS: '20', EVENT_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS), GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9', ...env },
  });
  const server: Server = createHttpServer(ctx.app, timeouts);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ctx,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await ctx.services.eventStream.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await ctx.close();
    },
  };
}

let served: Served;
let ctx: TestContext;
let adminToken: string;
let developer: TestDeveloper;
beforeAll(async () => {
  served = await serve();
  ctx = served.ctx;
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
});
afterAll(() => served.close());

let balance = 0;
/** An event in the outbox, as billing writes budget.low; returns its id. */
const record = (buyer: TestBuyer) =>
  ctx.services.db.repos.events.record(buyer.id, 'budget.low', { creditBalance: balance++, thresholdCents: 500, at: new Date().toISOString() });

async function recordMany(buyer: TestBuyer, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await record(buyer));
  return ids;
}

/** The buyer's event ids in the stream's order, as number_events numbered them. */
async function idsInOrder(buyer: TestBuyer): Promise<string[]> {
  const rows = await ctx.prisma.event.findMany({ where: { buyerId: buyer.id }, orderBy: { seq: 'asc' }, select: { id: true } });
  return rows.map((row) => row.id);
}

const ids = (stream: EventStreamClient) => stream.messages.map((message) => message.id);

describe('GET /events/stream', () => {
  it('sends only new events, each as id, event type and the event as GET /events/:id shows it (without deliveries)', async () => {
    const buyer = await createBuyer(ctx);
    await record(buyer); // before the stream: not sent
    const stream = await openedStream(served.url, buyer.token);
    try {
      expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers['cache-control']).toContain('no-cache');
      const created = await recordMany(buyer, 3);
      await record(await createBuyer(ctx)); // another buyer's: never sent
      await stream.received(3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ids(stream)).toEqual(created);
      expect(stream.messages.map((message) => message.event)).toEqual(['budget.low', 'budget.low', 'budget.low']);
      for (const [index, message] of stream.messages.entries()) {
        const shown = await request(ctx.app).get(`/api/v1/events/${created[index]}`).set(bearer(buyer.token));
        const { deliveries: _deliveries, ...withoutDeliveries } = shown.body as Record<string, unknown>;
        expect(JSON.parse(message.data)).toEqual(withoutDeliveries);
      }
    } finally {
      stream.close();
    }
  });

  it('sends task.completed as the answer that completes a task commits it (the settlement in SQL)', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 1_000);
    const stream = await openedStream(served.url, buyer.token);
    try {
      const created = await request(ctx.app)
        .post('/api/v1/tasks')
        .set(bearer(buyer.token))
        .send({ type: 'BINARY_CHOICE', content: 'Cat?', options: ['yes', 'no'] });
      expect(created.status).toBe(201);
      // At 0.9, three agreeing answers complete a task.
      for (let i = 0; i < 3; i++) await sdk(ctx, developer.apiKey).answerNext(`stream-${newId()}`, 'yes');
      await stream.received(1);
      expect(stream.messages[0]?.event).toBe('task.completed');
      expect(stream.events()[0]).toMatchObject({ type: 'task.completed', taskId: created.body.taskId, payload: { event: 'task.completed', result: 'yes' } });
    } finally {
      stream.close();
    }
  });

  it('resumes right after the Last-Event-ID: every event exactly once, in order, across a reconnect', async () => {
    const buyer = await createBuyer(ctx);
    const first = await openedStream(served.url, buyer.token);
    await recordMany(buyer, 3);
    await first.received(3);
    const resumeFrom = first.lastEventId as string;
    first.close();
    await recordMany(buyer, 4); // missed while disconnected
    const second = await openedStream(served.url, buyer.token, { lastEventId: resumeFrom });
    try {
      await recordMany(buyer, 2); // live again
      await second.received(6);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([...ids(first), ...ids(second)]).toEqual(await idsInOrder(buyer));
    } finally {
      second.close();
    }
  });

  it('resumes from ?lastEventId for clients that cannot set headers; the header wins over it', async () => {
    const buyer = await createBuyer(ctx);
    const [a, b, c] = await recordMany(buyer, 3);
    const byQuery = await openedStream(served.url, buyer.token, { query: `?lastEventId=${a}` });
    const both = await openedStream(served.url, buyer.token, { query: `?lastEventId=${a}`, lastEventId: b });
    try {
      await byQuery.received(2);
      await both.received(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ids(byQuery)).toEqual([b, c]);
      expect(ids(both)).toEqual([c]);
    } finally {
      byQuery.close();
      both.close();
    }
  });

  it('resumes from far back, page by page, without a gap (more events than one read takes)', async () => {
    const buyer = await createBuyer(ctx);
    const [from] = await recordMany(buyer, 2);
    // 1 200 events in one statement: past the poller's 500 per read and the 1 000 it keeps.
    await ctx.prisma.$executeRaw`
      INSERT INTO events (id, buyer_id, type, payload)
      SELECT 'evt_bulk_' || n || '_' || ${newId()}, ${buyer.id}, 'budget.low', json_build_object('event', 'budget.low', 'creditBalance', n)::text
      FROM generate_series(1, 1200) AS n`;
    const behind = await openedStream(served.url, buyer.token, { lastEventId: from });
    try {
      await behind.received(1_201, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ids(behind)).toEqual((await idsInOrder(buyer)).slice(1));
    } finally {
      behind.close();
    }
  });

  it("refuses a Last-Event-ID that is not one of the buyer's events of the last 30 days with 400 VALIDATION_ERROR", async () => {
    const buyer = await createBuyer(ctx);
    const [recent, old] = await recordMany(buyer, 2);
    await ctx.prisma.event.update({ where: { id: old as string }, data: { createdAt: new Date(Date.now() - 31 * DAY_MS) } });
    const foreign = await record(await createBuyer(ctx));
    for (const lastEventId of [newId(), `evt_${newId()}`, foreign, old as string, 'not an id!', 'x'.repeat(65)]) {
      const refused = await openEventStream(served.url, buyer.token, { lastEventId });
      expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', details: { issues: [{ path: 'Last-Event-ID' }] } } });
    }
    const byQuery = await openEventStream(served.url, buyer.token, { query: `?lastEventId=${foreign}` });
    expect(byQuery).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const unknownParameter = await openEventStream(served.url, buyer.token, { query: '?since=2026-01-01T00:00:00Z' });
    expect(unknownParameter).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    // An event at 29 days is still one to resume from.
    await ctx.prisma.event.update({ where: { id: recent as string }, data: { createdAt: new Date(Date.now() - 29 * DAY_MS) } });
    const resumed = await openedStream(served.url, buyer.token, { lastEventId: recent as string });
    resumed.close();
  });

  it('answers HEAD with the headers alone, holding nothing open', async () => {
    await waitUntil(() => ctx.services.eventStream.stats().streams === 0, "the earlier tests' streams to be forgotten");
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).head('/api/v1/events/stream').set(bearer(buyer.token));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(ctx.services.eventStream.stats()).toMatchObject({ streams: 0, buyers: 0 });
  });

  it('sends a `: ping` comment every EVENT_STREAM_HEARTBEAT_MS', async () => {
    const buyer = await createBuyer(ctx);
    const stream = await openedStream(served.url, buyer.token);
    try {
      await stream.until(() => stream.comments.filter((comment) => comment === 'ping').length >= 3, 'three heartbeats');
      expect(stream.messages).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('forgets a stream whose client goes away, and stops reading when none is left', async () => {
    const hub = ctx.services.eventStream;
    await waitUntil(() => hub.stats().streams === 0, "the earlier tests' streams to be forgotten");
    const buyer = await createBuyer(ctx);
    const streams = [await openedStream(served.url, buyer.token), await openedStream(served.url, buyer.token)];
    expect(hub.stats()).toEqual({ streams: 2, buyers: 1, polling: true });
    streams[0]?.close();
    await waitUntil(() => hub.stats().streams === 1, 'the first stream to be forgotten');
    // The other still gets what follows.
    const [id] = await recordMany(buyer, 1);
    await streams[1]?.received(1);
    expect(streams[1]?.messages[0]?.id).toBe(id);
    streams[1]?.close();
    await waitUntil(() => hub.stats().streams === 0, 'the second stream to be forgotten');
    await waitUntil(() => !hub.stats().polling, 'the poller to stop');
    expect(hub.stats()).toEqual({ streams: 0, buyers: 0, polling: false });
  });

  describe('ordering when transactions commit out of order', () => {
    it('sends an event that commits after a newer one (an older created_at) after it, and resuming from the newer one still brings it', async () => {
      const buyer = await createBuyer(ctx);
      const stream = await openedStream(served.url, buyer.token);
      const early = new pg.Client({ connectionString: ctx.databaseUrl });
      await early.connect();
      try {
        // The early transaction starts first (its created_at, now(), is the earlier one) but writes last.
        await early.query('BEGIN');
        await early.query('SELECT now()');
        await new Promise((resolve) => setTimeout(resolve, 20));
        const late = await record(buyer);
        // The late one is numbered and sent while the early transaction is still open.
        await stream.received(1);
        const earlyId = `evt_${newId()}`;
        await early.query(`SELECT record_event($1, $2, 'budget.low', '{"event":"budget.low"}', ARRAY[]::text[])`, [earlyId, buyer.id]);
        await early.query('COMMIT');
        await stream.received(2);
        expect(ids(stream)).toEqual([late, earlyId]);
        // By creation time the early one is older: a "created after the last one" cursor would skip it.
        const listed = await request(ctx.app).get('/api/v1/events').set(bearer(buyer.token));
        expect(listed.body.events.map((event: { id: string }) => event.id)).toEqual([late, earlyId]);
        expect(Date.parse(listed.body.events[1].createdAt)).toBeLessThan(Date.parse(listed.body.events[0].createdAt));
        const resumed = await openedStream(served.url, buyer.token, { lastEventId: late });
        await resumed.received(1);
        expect(ids(resumed)).toEqual([earlyId]);
        resumed.close();
      } finally {
        stream.close();
        await early.end();
      }
    });

    it(
      'sends every committed event of concurrent writers exactly once, numbered without gaps, in number order, also to a stream that reconnects midway',
      { timeout: 60_000 },
      async () => {
        const buyer = await createBuyer(ctx);
        const whole = await openedStream(served.url, buyer.token);
        const interrupted = await openedStream(served.url, buyer.token);
        const writers = await Promise.all(
          Array.from({ length: 6 }, async () => {
            const client = new pg.Client({ connectionString: ctx.databaseUrl });
            await client.connect();
            return client;
          }),
        );
        const committed: string[] = [];
        let resumedStream: EventStreamClient | undefined;
        try {
          const write = async (client: pg.Client, w: number) => {
            for (let i = 0; i < 25; i++) {
              const id = `evt_${newId()}`;
              await client.query('BEGIN');
              await client.query(`SELECT record_event($1, $2, 'budget.low', $3, ARRAY[]::text[])`, [
                id,
                buyer.id,
                JSON.stringify({ event: 'budget.low', writer: w, i }),
              ]);
              // Held open a little, so commits come out of creation order, and some roll back (never numbered).
              await new Promise((resolve) => setTimeout(resolve, (w * 7 + i * 3) % 11));
              if ((w + i) % 9 === 0) await client.query('ROLLBACK');
              else {
                await client.query('COMMIT');
                committed.push(id);
              }
            }
          };
          const writing = Promise.all(writers.map((client, w) => write(client, w)));
          await interrupted.received(20);
          interrupted.close();
          const resumeFrom = interrupted.lastEventId as string;
          await writing;
          resumedStream = await openedStream(served.url, buyer.token, { lastEventId: resumeFrom });
          await whole.received(committed.length);
          const inOrder = await idsInOrder(buyer);
          expect(new Set(inOrder)).toEqual(new Set(committed));
          const numbers = await ctx.prisma.event.findMany({ where: { buyerId: buyer.id }, orderBy: { seq: 'asc' }, select: { seq: true } });
          expect(numbers.map((row) => Number(row.seq))).toEqual(Array.from({ length: committed.length }, (_, i) => i + 1));
          const seen = ids(interrupted);
          await resumedStream.received(committed.length - seen.length);
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(ids(whole)).toEqual(inOrder);
          expect([...seen, ...ids(resumedStream)]).toEqual(inOrder);
        } finally {
          whole.close();
          resumedStream?.close();
          await Promise.all(writers.map((client) => client.end()));
        }
      },
    );
  });

  describe('who may stream', () => {
    it('401 without a credential or with a bad one; 403 for an admin or a developer key', async () => {
      expect(await openEventStream(served.url, undefined)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
      expect(await openEventStream(served.url, 'not-a-token')).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
      for (const credential of [adminToken, developer.apiKey]) {
        expect(await openEventStream(served.url, credential)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      }
    });

    it("a buyer API key streams its buyer's events, and its stream ends once the key is revoked", async () => {
      const buyer = await createBuyer(ctx);
      const created = await request(ctx.app).post('/api/v1/api-keys').set(bearer(buyer.token)).send({ name: 'stream' });
      expect(created.status).toBe(201);
      const key = created.body.apiKey as { id: string; secret: string };
      const stream = await openedStream(served.url, key.secret);
      const [id] = await recordMany(buyer, 1);
      await stream.received(1);
      expect(stream.messages[0]?.id).toBe(id);
      expect((await request(ctx.app).delete(`/api/v1/api-keys/${key.id}`).set(bearer(buyer.token))).status).toBe(204);
      await stream.ended; // at the next heartbeat's check
      expect(await openEventStream(served.url, key.secret)).toMatchObject({ status: 401 });
    });

    it("a member's stream of an organisation ends once their role no longer reads events, or their membership ends", async () => {
      const founder = await createBuyer(ctx);
      const streams = [];
      for (const role of ['viewer', 'member'] as const) {
        const person = await createBuyer(ctx);
        await ctx.prisma.membership.create({ data: { accountId: person.id, buyerId: founder.id, role } });
        const switched = await request(ctx.app).post('/api/v1/auth/switch').set(bearer(person.token)).send({ organisationId: founder.id });
        expect(switched.status).toBe(200);
        streams.push({ person, stream: await openedStream(served.url, switched.body.token as string) });
      }
      const [id] = await recordMany(founder, 1);
      for (const { stream } of streams) {
        await stream.received(1);
        expect(stream.messages[0]?.id).toBe(id);
      }
      const [viewer, member] = streams as [(typeof streams)[number], (typeof streams)[number]];
      // The viewer becomes billing (no task content, no events); the member is removed.
      await ctx.prisma.membership.update({ where: { accountId_buyerId: { accountId: viewer.person.id, buyerId: founder.id } }, data: { role: 'billing' } });
      await ctx.prisma.membership.delete({ where: { accountId_buyerId: { accountId: member.person.id, buyerId: founder.id } } });
      await Promise.all([viewer.stream.ended, member.stream.ended]); // at the next heartbeat's check
    });

    it('a revoked key gets no event after the revocation, even long before the next heartbeat', async () => {
      const slow = await serve({ EVENT_STREAM_HEARTBEAT_MS: '60000' });
      try {
        const buyer = await createBuyer(slow.ctx);
        const created = await request(slow.ctx.app).post('/api/v1/api-keys').set(bearer(buyer.token)).send({ name: 'revoked' });
        const key = created.body.apiKey as { id: string; secret: string };
        const stream = await openedStream(slow.url, key.secret);
        const before = await slow.ctx.services.db.repos.events.record(buyer.id, 'budget.low', {
          creditBalance: 1,
          thresholdCents: 500,
          at: new Date().toISOString(),
        });
        await stream.received(1);
        // Past the second for which a verdict on the key is reused.
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        expect((await request(slow.ctx.app).delete(`/api/v1/api-keys/${key.id}`).set(bearer(buyer.token))).status).toBe(204);
        await slow.ctx.services.db.repos.events.record(buyer.id, 'budget.low', { creditBalance: 2, thresholdCents: 500, at: new Date().toISOString() });
        await stream.ended;
        expect(stream.messages.map((message) => message.id)).toEqual([before]);
      } finally {
        await slow.close();
      }
    });

    it("a JWT's stream ends when the password changes (every older token stops working)", async () => {
      const buyer = await createBuyer(ctx);
      const stream = await openedStream(served.url, buyer.token);
      const changed = await request(ctx.app)
        .post('/api/v1/auth/change-password')
        .set(bearer(buyer.token))
        .send({ currentPassword: PASSWORD, newPassword: 'another horse battery' });
      expect(changed.status).toBe(200);
      await stream.ended;
    });
  });
});

describe('GET /events/stream caps and timeouts', () => {
  it('refuses past EVENT_STREAM_MAX_PER_BUYER (400 LIMIT_EXCEEDED) and EVENT_STREAM_MAX (503 SERVER_BUSY, with Retry-After)', async () => {
    const capped = await serve({ EVENT_STREAM_MAX_PER_BUYER: '2', EVENT_STREAM_MAX: '3' });
    const open: EventStreamClient[] = [];
    try {
      const [one, two, three] = [await createBuyer(capped.ctx), await createBuyer(capped.ctx), await createBuyer(capped.ctx)];
      open.push(await openedStream(capped.url, one.token), await openedStream(capped.url, one.token));
      const perBuyer = await openEventStream(capped.url, one.token);
      expect(perBuyer).toMatchObject({ status: 400, body: { code: 'LIMIT_EXCEEDED', details: { maxPerBuyer: 2 } } });
      open.push(await openedStream(capped.url, two.token));
      const full = await openEventStream(capped.url, three.token);
      expect(full).toMatchObject({ status: 503, body: { code: 'SERVER_BUSY' }, headers: { 'retry-after': '5' } });
      // A closed stream frees its place.
      open.shift()?.close();
      await waitUntil(() => capped.ctx.services.eventStream.stats().streams === 2, 'the closed stream to be forgotten');
      open.push(await openedStream(capped.url, three.token));
    } finally {
      for (const stream of open) stream.close();
      await capped.close();
    }
  });

  it('refuses past EVENT_STREAM_MAX_PER_ADDRESS, and refuses a buyer at its own cap before the process is full for others', async () => {
    // Every client here is 127.0.0.1: three buyers from one address.
    const capped = await serve({ EVENT_STREAM_MAX_PER_BUYER: '1', EVENT_STREAM_MAX_PER_ADDRESS: '2', EVENT_STREAM_MAX: '2' });
    const open: EventStreamClient[] = [];
    try {
      const [one, two, three] = [await createBuyer(capped.ctx), await createBuyer(capped.ctx), await createBuyer(capped.ctx)];
      open.push(await openedStream(capped.url, one.token), await openedStream(capped.url, two.token));
      // The process is full too, but a buyer over its own cap is told so (400), not that the server is busy.
      expect(await openEventStream(capped.url, one.token)).toMatchObject({ status: 400, body: { code: 'LIMIT_EXCEEDED', details: { maxPerBuyer: 1 } } });
      // A third buyer from the same address meets the address's cap first.
      expect(await openEventStream(capped.url, three.token)).toMatchObject({ status: 400, body: { code: 'LIMIT_EXCEEDED', details: { maxPerAddress: 2 } } });
      open.shift()?.close();
      await waitUntil(() => capped.ctx.services.eventStream.stats().streams === 1, 'the closed stream to be forgotten');
      open.push(await openedStream(capped.url, three.token));
    } finally {
      for (const stream of open) stream.close();
      await capped.close();
    }
  });

  it("outlives the server's request, header and keep-alive timeouts", { timeout: 30_000 }, async () => {
    const short = await serve({}, { headersTimeoutMs: 300, requestTimeoutMs: 400, keepAliveTimeoutMs: 200, checkIntervalMs: 100 });
    try {
      const buyer = await createBuyer(short.ctx);
      const stream = await openedStream(short.url, buyer.token);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const id = await short.ctx.services.db.repos.events.record(buyer.id, 'budget.low', {
        creditBalance: 1,
        thresholdCents: 500,
        at: new Date().toISOString(),
      });
      await stream.received(1);
      expect(stream.messages[0]?.id).toBe(id);
      stream.close();
    } finally {
      await short.close();
    }
  });
});

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
