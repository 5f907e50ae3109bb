// Webhook delivery across real server processes: a crash loses nothing, two processes share the work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { createBuyer } from '../helpers/factories.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { spawnServer, waitFor } from '../helpers/server-process.ts';

let ctx: TestContext;
let receiver: Receiver;
beforeAll(async () => {
  ctx = await createIsolatedTestContext();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

/** A buyer subscribed to budget.low at the receiver, and `count` budget.low events for it. */
async function queueEvents(count: number): Promise<string> {
  const buyer = await createBuyer(ctx);
  await ctx.prisma.webhookConfig.create({
    data: { id: newId(), buyerId: buyer.id, url: receiver.url, events: ['budget.low'], secret: 'process-test-secret-0123' },
  });
  for (let i = 0; i < count; i += 100) {
    await ctx.services.db.transaction(async (repos) => {
      for (let j = i; j < Math.min(i + 100, count); j++) {
        await repos.events.record(buyer.id, 'budget.low', { creditBalance: j, thresholdCents: 500, at: new Date().toISOString() });
      }
    });
  }
  return buyer.id;
}

const balancesReceived = (buyerMarker: Set<number>) => {
  for (const request of receiver.requests) buyerMarker.add(JSON.parse(request.rawBody).creditBalance);
  return buyerMarker;
};

describe('webhook delivery across processes', () => {
  it('a server killed with SIGKILL mid-delivery loses nothing: after a restart every event arrives', { timeout: 120_000 }, async () => {
    receiver.requests.length = 0;
    // Slow answers keep deliveries in flight when the process dies; a short timeout keeps leases short.
    receiver.script(...Array.from({ length: 10 }, () => ({ status: 200, delayMs: 5_000 })));
    const env = { WEBHOOK_TIMEOUT_MS: '1500' };
    await queueEvents(20);
    const first = await spawnServer(ctx.databaseUrl, env);
    await waitFor(() => receiver.requests.length > 0, 20_000, 'a first delivery in flight');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await ctx.prisma.webhookDelivery.count({ where: { status: 'PENDING' } })).toBeGreaterThan(0);

    const second = await spawnServer(ctx.databaseUrl, env);
    try {
      await waitFor(() => balancesReceived(new Set()).size === 20, 60_000, 'every event to arrive');
      await waitFor(async () => (await ctx.prisma.webhookDelivery.count({ where: { status: 'PENDING' } })) === 0, 30_000, 'the queue to empty');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    expect(balancesReceived(new Set()).size).toBe(20);
  });

  it('two servers on one database deliver 2 000 events, none sent twice', { timeout: 180_000 }, async () => {
    receiver.requests.length = 0;
    await queueEvents(2_000);
    const servers = await Promise.all([spawnServer(ctx.databaseUrl), spawnServer(ctx.databaseUrl)]);
    try {
      await waitFor(() => receiver.requests.length >= 2_000, 120_000, '2 000 deliveries');
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
    }
    const ids = receiver.requests.map((request) => request.headers['x-service-delivery']);
    expect(ids).toHaveLength(2_000);
    expect(new Set(ids).size).toBe(2_000);
    expect(await ctx.prisma.webhookDelivery.count({ where: { status: 'DELIVERED', attempts: 1 } })).toBeGreaterThanOrEqual(2_000);
  });
});
