// GET /events/stream across real server processes on one database: events written
// through one process reach a stream on another, a stream resumes on another process than the one it
// started on, and a SIGTERM ends open streams instead of waiting for them.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { openedStream, type EventStreamClient } from '../helpers/event-stream.ts';
import { bearer, createAdmin, createBuyer, type TestBuyer } from '../helpers/factories.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';

const env = { EVENT_STREAM_POLL_MS: '50', EVENT_STREAM_HEARTBEAT_MS: '500' };

let ctx: TestContext;
let adminToken: string;
let servers: ServerProcess[] = [];
beforeAll(async () => {
  ctx = await createIsolatedTestContext();
  adminToken = (await createAdmin(ctx)).token;
  servers = await Promise.all([spawnServer(ctx.databaseUrl, env), spawnServer(ctx.databaseUrl, env)]);
}, 120_000);
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
  await ctx.close();
});

/** An admin debit through `server` that takes the buyer from 1 000 to 400 cents (budget.low), and the credit back. */
async function budgetLowThrough(server: ServerProcess, buyer: TestBuyer): Promise<void> {
  const adjust = (amountCents: number) =>
    request(server.url).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents, reason: 'stream test' });
  expect((await adjust(-600)).status).toBe(201);
  expect((await adjust(600)).status).toBe(201);
}

const listedIds = async (server: ServerProcess, buyer: TestBuyer) =>
  ((await request(server.url).get('/api/v1/events?limit=100').set(bearer(buyer.token))).body.events as Array<{ id: string }>)
    .map((event) => event.id)
    .reverse();

describe('the event stream across server processes', () => {
  it('events written through process A reach a stream on process B, in order; the stream resumes on A after a reconnect', { timeout: 60_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const buyer = await createBuyer(ctx);
    expect(
      (await request(a.url).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents: 1_000, reason: 'fund' })).status,
    ).toBe(201);
    const onB = await openedStream(b.url, buyer.token);
    for (let i = 0; i < 5; i++) await budgetLowThrough(a, buyer);
    await onB.received(5);
    expect(onB.messages.map((message) => message.event)).toEqual(Array(5).fill('budget.low'));
    expect(onB.messages.map((message) => message.id)).toEqual(await listedIds(a, buyer));
    onB.close();

    for (let i = 0; i < 3; i++) await budgetLowThrough(b, buyer);
    const onA = await openedStream(a.url, buyer.token, { lastEventId: onB.lastEventId as string });
    try {
      await onA.received(3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...onB.messages, ...onA.messages].map((message) => message.id)).toEqual(await listedIds(b, buyer));
    } finally {
      onA.close();
    }
  });

  it('a SIGTERM ends the open streams and the process exits cleanly, not at the end of the grace period', { timeout: 60_000 }, async () => {
    const server = await spawnServer(ctx.databaseUrl, env);
    servers.push(server);
    const buyer = await createBuyer(ctx);
    const streams: EventStreamClient[] = [await openedStream(server.url, buyer.token), await openedStream(server.url, buyer.token)];
    server.child.kill('SIGTERM');
    await Promise.all(streams.map((stream) => stream.ended));
    // Past the 25 s grace period the process would exit with 1 ("graceful shutdown took too long").
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain('server.shutdown.timeout');
  });
});
