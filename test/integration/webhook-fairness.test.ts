// Webhook delivery is fair between buyers: caps per endpoint and per buyer on what is in flight, buyers
// taking turns in a claim, no waiting for the slowest send, and an endpoint that keeps failing sent one
// delivery at a time.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEventId, newId } from '../../src/lib/ids.ts';
import { DELIVERY_CAPS } from '../../src/modules/webhooks/delivery.worker.ts';
import { WebhooksRepository, type ClaimLimits } from '../../src/modules/webhooks/webhooks.repository.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createBuyer } from '../helpers/factories.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/server-process.ts';

let ctx: TestContext;

beforeAll(async () => {
  // Sends to a server that never answers hang for the whole test unless it lets them go.
  ctx = await createIsolatedTestContext({ env: { WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_RETRY_DELAY_MS: '60000' } });
});
afterAll(() => ctx.close());

async function addConfig(buyerId: string, url: string): Promise<string> {
  const id = newId();
  await ctx.prisma.webhookConfig.create({ data: { id, buyerId, url, events: ['budget.low'], secret: 'fairness-secret-0123456789' } });
  return id;
}

/** `count` events of the buyer, each with a delivery to every configuration, due `ageMs` ago. */
async function queue(buyerId: string, configIds: string[], count: number, ageMs = 0): Promise<string[]> {
  const deliveryIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const eventId = newEventId();
    const due = new Date(Date.now() - ageMs - (count - i));
    await ctx.prisma.event.create({ data: { id: eventId, buyerId, type: 'budget.low', payload: JSON.stringify({ event: 'budget.low', n: i }) } });
    for (const configId of configIds) {
      const id = newId();
      deliveryIds.push(id);
      await ctx.prisma.webhookDelivery.create({ data: { id, eventId, configId, nextAttemptAt: due, createdAt: due } });
    }
  }
  return deliveryIds;
}

const claim = (limits: ClaimLimits) =>
  ctx.prisma.$transaction((tx) => new WebhooksRepository(tx).claimDue(() => new Date(), 60_000, limits), { timeout: 15_000 });

async function inFlightByConfig(): Promise<Map<string, number>> {
  const rows = await ctx.prisma.webhookDelivery.groupBy({
    by: ['configId'],
    where: { status: 'PENDING', lockedUntil: { gt: new Date() } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.configId, row._count._all]));
}

const releaseAll = () => ctx.prisma.webhookDelivery.updateMany({ where: { status: 'PENDING' }, data: { lockedUntil: null } });
const clearQueue = () => ctx.prisma.webhookDelivery.deleteMany({});

describe('fair webhook delivery', () => {
  it('a claim caps what is in flight per endpoint and per buyer, and the buyers with due work take turns', async () => {
    await clearQueue();
    const attacker = await createBuyer(ctx);
    const victim = await createBuyer(ctx);
    const attackerConfigs = [
      await addConfig(attacker.id, 'http://127.0.0.1:9/a'),
      await addConfig(attacker.id, 'http://127.0.0.1:9/b'),
      await addConfig(attacker.id, 'http://127.0.0.1:9/c'),
    ];
    const victimConfig = await addConfig(victim.id, 'http://127.0.0.1:9/v');
    // The attacker's backlog is older than anything of the victim's.
    await queue(attacker.id, attackerConfigs, 10, 60_000);
    const victimDeliveries = await queue(victim.id, [victimConfig], 2);
    const limits = { slots: 6, perEndpoint: 2, perBuyer: 4, troubledAfter: 3 };

    const first = await claim(limits);
    expect(first).toHaveLength(6);
    expect(
      first
        .filter((delivery) => delivery.configId === victimConfig)
        .map((delivery) => delivery.id)
        .sort(),
    ).toEqual([...victimDeliveries].sort());
    const inFlight = await inFlightByConfig();
    expect(attackerConfigs.reduce((sum, id) => sum + (inFlight.get(id) ?? 0), 0)).toBe(4);
    for (const id of attackerConfigs) expect(inFlight.get(id) ?? 0).toBeLessThanOrEqual(2);

    // The attacker's four are in flight: its buyer cap is reached, whatever is due.
    expect(await claim({ ...limits, slots: 50 })).toEqual([]);

    // An endpoint with three failures in a row gets one delivery in flight, the others their two.
    await releaseAll();
    await ctx.prisma.webhookConfig.update({ where: { id: attackerConfigs[0] }, data: { consecutiveFailures: 3 } });
    const third = await claim({ ...limits, slots: 50, perBuyer: 50 });
    const counts = new Map<string, number>();
    for (const delivery of third) counts.set(delivery.configId, (counts.get(delivery.configId) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      [attackerConfigs[0] as string]: 1,
      [attackerConfigs[1] as string]: 2,
      [attackerConfigs[2] as string]: 2,
      [victimConfig]: 2,
    });
    await clearQueue();
  });

  it("a buyer whose endpoints never answer does not hold back another buyer's delivery", async () => {
    await clearQueue();
    let accepted = 0;
    const held = new Set<net.Socket>();
    const blackHole = net.createServer((socket) => {
      accepted++;
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const receiver = await startReceiver();
    const worker = ctx.services.deliveryWorker;
    try {
      const attacker = await createBuyer(ctx);
      const victim = await createBuyer(ctx);
      const port = (blackHole.address() as AddressInfo).port;
      const attackerConfigs: string[] = [];
      for (let i = 0; i < 20; i++) attackerConfigs.push(await addConfig(attacker.id, `http://127.0.0.1:${port}/${i}`));
      await queue(attacker.id, attackerConfigs, 10, 60_000);
      worker.start();
      // The attacker's sends are out and hang, up to its buyer cap.
      await waitFor(() => accepted >= DELIVERY_CAPS.perBuyer, 30_000, "the attacker's sends");
      const victimConfig = await addConfig(victim.id, receiver.url);
      const [victimDelivery] = await queue(victim.id, [victimConfig], 1);
      await waitFor(() => receiver.requests.length === 1, 30_000, "the victim's delivery");
      expect(receiver.requests[0]?.headers['x-service-delivery']).toBe(victimDelivery);
      // …while every send to the attacker's endpoints is still waiting for an answer, and no more of them
      // were started than its cap allows.
      expect(held.size).toBe(accepted);
      expect(accepted).toBe(DELIVERY_CAPS.perBuyer);
      const inFlight = await inFlightByConfig();
      for (const id of attackerConfigs) expect(inFlight.get(id) ?? 0).toBeLessThanOrEqual(DELIVERY_CAPS.perEndpoint);
    } finally {
      // Dropping the held connections ends the hanging sends (recorded as failed), so the worker stops at once.
      for (const socket of held) socket.destroy();
      await worker.stop();
      blackHole.close();
      await receiver.close();
    }
    await clearQueue();
  });

  it('counts an endpoint’s failures in a row (timeouts, no connection, 5xx; not a 4xx) until it answers again', async () => {
    await clearQueue();
    const receiver = await startReceiver();
    try {
      const buyer = await createBuyer(ctx);
      const configId = await addConfig(buyer.id, receiver.url);
      const failures = async () => (await ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id: configId } })).consecutiveFailures;
      receiver.script({ status: 503 }, { status: 500 }, { status: 502 });
      await queue(buyer.id, [configId], 3);
      await ctx.services.deliveryWorker.drain();
      expect(await failures()).toBe(3);
      // Now one delivery at a time to this endpoint, whatever its cap.
      await clearQueue();
      await queue(buyer.id, [configId], 3);
      expect(await claim({ slots: 10, ...DELIVERY_CAPS })).toHaveLength(1);
      // A 4xx is an answer, not a failure of the endpoint; a 2xx ends the run.
      await clearQueue();
      receiver.script({ status: 410 });
      await queue(buyer.id, [configId], 1);
      await ctx.services.deliveryWorker.drain();
      expect(await failures()).toBe(3);
      await queue(buyer.id, [configId], 1);
      await ctx.services.deliveryWorker.drain();
      expect(await failures()).toBe(0);
      expect(receiver.requests.map((request) => request.path)).toHaveLength(5);
    } finally {
      await receiver.close();
    }
    await clearQueue();
  });

  it('a claim does not take a delivery whose outcome is recorded while it waits for the row', async () => {
    await clearQueue();
    const buyer = await createBuyer(ctx);
    const configId = await addConfig(buyer.id, 'http://127.0.0.1:9/late');
    const [id] = await queue(buyer.id, [configId], 1);
    // Claimed by a worker whose lease ran out while its send was still being recorded.
    await ctx.prisma.webhookDelivery.update({ where: { id }, data: { attempts: 1, lockedUntil: new Date(Date.now() - 1_000) } });
    const recorder = new pg.Client({ connectionString: ctx.databaseUrl });
    await recorder.connect();
    try {
      await recorder.query('BEGIN');
      await recorder.query("UPDATE webhook_deliveries SET status = 'DELIVERED', locked_until = NULL WHERE id = $1", [id]);
      const claiming = claim({ slots: 10, perEndpoint: 10, perBuyer: 10, troubledAfter: 3 });
      // The claim reaches the row and waits for the recorder's lock…
      await waitFor(
        async () =>
          (
            await ctx.prisma.$queryRaw<
              Array<{ n: number }>
            >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`
          )[0]?.n === 1,
        10_000,
        'the claim waiting for the row',
      );
      await recorder.query('COMMIT');
      // …and, the outcome recorded, leaves it.
      expect(await claiming).toEqual([]);
      expect(await ctx.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'DELIVERED', attempts: 1, lockedUntil: null });
    } finally {
      await recorder.end();
    }
  });

  it('redelivering a delivery that is being sent leaves it in flight (202), and queues it once it is done', async () => {
    await clearQueue();
    const buyer = await createBuyer(ctx);
    const configId = await addConfig(buyer.id, 'http://127.0.0.1:9/slow');
    const [id] = await queue(buyer.id, [configId], 1);
    const limits = { slots: 10, perEndpoint: 1, perBuyer: 10, troubledAfter: 3 };
    const [claimed] = await claim(limits);
    expect(claimed?.id).toBe(id);
    const redeliver = () => request(ctx.app).post(`/api/v1/webhooks/deliveries/${id}/redeliver`).set(bearer(buyer.token)).send();
    expect((await redeliver()).status).toBe(202);
    // Still the one claim's: no second send of it, and its place under the cap still taken.
    expect(await ctx.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(await claim(limits)).toEqual([]);
    // A late outcome of another claim is not recorded over this one's.
    await new WebhooksRepository(ctx.prisma).markDelivered({ id: id as string, attempts: 7 }, 200, new Date());
    expect(await ctx.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'PENDING', attempts: 1 });
    // Its send recorded (failed for good), a redelivery queues it again, as new.
    await new WebhooksRepository(ctx.prisma).markAttemptFailed(claimed as { id: string; attempts: number }, { statusCode: 410, error: 'HTTP 410' }, null, {
      failed: false,
      failureAt: null,
    });
    expect((await redeliver()).status).toBe(202);
    expect(await ctx.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'PENDING', attempts: 0, lockedUntil: null });
    await clearQueue();
  });
});
