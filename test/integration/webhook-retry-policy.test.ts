// The retry policy of a webhook configuration. `spec` (the default) is contract §7 and
// stays as it was (test/integration/webhooks.test.ts); `extended` retries 8 times over about a day with
// jitter, 408 and 429 included, and disables a configuration after 3 days of failures with an e-mail to
// the buyer. Real deliveries to a real receiver; a clock the tests set, and the jitter pinned at its middle.
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.ts';
import { DeliveryWorker } from '../../src/modules/webhooks/delivery.worker.ts';
import { EXTENDED_DELAYS_MS } from '../../src/modules/webhooks/retry-policy.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createBuyer, type TestBuyer } from '../helpers/factories.ts';
import { dropPendingDeliveries, startReceiver, type Receiver } from '../helpers/receiver.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The clock stands still until a test moves it. */
let nowMs = 0;
const clock = { now: () => new Date(nowMs) };
const moveTo = (ms: number) => {
  nowMs = ms;
};

let ctx: TestContext;
let receiver: Receiver;
let worker: DeliveryWorker;
beforeAll(async () => {
  ctx = await createIsolatedTestContext({ clock, env: { WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_RETRY_DELAY_MS: '30000' } });
  // random() = 0.5: every extended wait is exactly its step, so the schedule can be read off the rows.
  worker = new DeliveryWorker(ctx.services.db, ctx.config, clock, createLogger('silent'), () => 0.5);
});
afterAll(() => ctx.close());
beforeEach(async () => {
  // Ahead of the database's now(), which dates a new delivery (due at once): what is written is due.
  nowMs = Date.now() + 5 * MINUTE;
  receiver = await startReceiver();
  await dropPendingDeliveries(ctx);
});
afterEach(() => receiver.close());

const api = (buyer: TestBuyer) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
});

async function subscribed(retryPolicy?: 'spec' | 'extended'): Promise<{ buyer: TestBuyer; configId: string }> {
  const buyer = await createBuyer(ctx);
  const res = await api(buyer).post('/webhooks/configs', {
    url: receiver.url,
    events: ['budget.low'],
    secret: 'retry-policy-secret-0123',
    ...(retryPolicy ? { retryPolicy } : {}),
  });
  expect(res.status).toBe(201);
  expect(res.body.retryPolicy).toBe(retryPolicy ?? 'spec');
  return { buyer, configId: res.body.id };
}

const recordEvent = (buyer: TestBuyer) =>
  ctx.services.db.transaction((repos) =>
    repos.events.record(buyer.id, 'budget.low', { creditBalance: 400, thresholdCents: 500, at: clock.now().toISOString() }),
  );

const deliveryOf = (eventId: string) => ctx.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId } });
const configRow = (id: string) => ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id } });

describe('extended retry policy', () => {
  it('tries 8 times: 30 s, 2 min, 10 min, 1 h, 3 h, 6 h and 12 h apart, then FAILED for good', async () => {
    const { buyer } = await subscribed('extended');
    receiver.fallback({ status: 503 });
    const eventId = await recordEvent(buyer);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      const attemptAt = nowMs;
      await worker.drain();
      expect(receiver.requests).toHaveLength(attempt);
      const delivery = await deliveryOf(eventId);
      expect(delivery.attempts).toBe(attempt);
      if (attempt === 8) {
        expect(delivery).toMatchObject({ status: 'FAILED', lastStatusCode: 503, lastError: 'HTTP 503' });
        break;
      }
      expect(delivery.status).toBe('PENDING');
      waits.push(delivery.nextAttemptAt.getTime() - attemptAt);
      // Not a moment early.
      moveTo(delivery.nextAttemptAt.getTime() - 1);
      await worker.drain();
      expect(receiver.requests).toHaveLength(attempt);
      moveTo(delivery.nextAttemptAt.getTime());
    }
    expect(waits).toEqual([...EXTENDED_DELAYS_MS]);
    expect(waits).toEqual([30_000, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR]);
    moveTo(nowMs + 2 * DAY);
    await worker.drain();
    expect(receiver.requests).toHaveLength(8);
    // Every attempt carried the same event id and delivery id.
    expect(new Set(receiver.requests.map((r) => `${r.headers['x-service-delivery']}`)).size).toBe(1);
  });

  it('retries 408 and 429 (after Retry-After when it asks for longer), but not another 4xx', async () => {
    const timeout = await subscribed('extended');
    receiver.script({ status: 408 });
    const first = await recordEvent(timeout.buyer);
    await worker.drain();
    expect(await deliveryOf(first)).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: 408 });
    moveTo(nowMs + 30_000);
    await worker.drain();
    expect(await deliveryOf(first)).toMatchObject({ status: 'DELIVERED', attempts: 2, lastStatusCode: 200 });

    const limited = await subscribed('extended');
    receiver.script({ status: 429, headers: { 'retry-after': '600' } });
    const second = await recordEvent(limited.buyer);
    const at = nowMs;
    await worker.drain();
    const waiting = await deliveryOf(second);
    expect(waiting).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: 429, lastError: 'HTTP 429' });
    expect(waiting.nextAttemptAt.getTime() - at).toBe(10 * MINUTE);

    const gone = await subscribed('extended');
    receiver.script({ status: 400 });
    const third = await recordEvent(gone.buyer);
    await worker.drain();
    moveTo(nowMs + DAY);
    await worker.drain();
    expect(await deliveryOf(third)).toMatchObject({ status: 'FAILED', attempts: 1, lastStatusCode: 400 });
  });

  it('a spec configuration keeps contract §7: 408 and 429 are not retried, a 5xx once after 30 s, and it is never disabled', async () => {
    const { buyer, configId } = await subscribed();
    for (const status of [408, 429]) {
      receiver.script({ status, headers: { 'retry-after': '1' } });
      const eventId = await recordEvent(buyer);
      await worker.drain();
      moveTo(nowMs + HOUR);
      await worker.drain();
      expect(await deliveryOf(eventId)).toMatchObject({ status: 'FAILED', attempts: 1, lastStatusCode: status });
    }
    receiver.fallback({ status: 503 });
    const start = nowMs;
    const eventId = await recordEvent(buyer);
    await worker.drain();
    expect((await deliveryOf(eventId)).nextAttemptAt.getTime() - start).toBe(30_000);
    moveTo(start + 4 * DAY);
    await recordEvent(buyer);
    await worker.drain();
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'FAILED', attempts: 2 });
    expect(await configRow(configId)).toMatchObject({ isActive: true, failingSince: null, disabledAt: null });
  });

  it('disables a configuration whose attempts have all failed for 3 days, once a delivery has no attempt left, and queues an e-mail to the buyer', async () => {
    const { buyer, configId } = await subscribed('extended');
    receiver.fallback({ status: 503 });
    const start = nowMs;
    await recordEvent(buyer);
    await worker.drain();
    expect((await configRow(configId)).failingSince?.getTime()).toBe(start);
    // Its retries fail over the next day; the clock keeps running from the first failure.
    for (const hours of [1, 4, 10, 23]) {
      moveTo(start + hours * HOUR);
      await worker.drain();
    }
    moveTo(start + 3 * DAY - MINUTE);
    await recordEvent(buyer);
    await worker.drain();
    expect((await configRow(configId)).isActive).toBe(true);

    moveTo(start + 3 * DAY);
    await recordEvent(buyer);
    await recordEvent(buyer);
    await worker.drain();
    // Three days of failures, but every delivery still has attempts to come: one of them may succeed.
    expect((await configRow(configId)).isActive).toBe(true);
    // The first delivery to run out of attempts switches it off.
    let at = start + 3 * DAY;
    let disabledAt: number | undefined;
    for (let step = 0; step < 12 && disabledAt === undefined; step++) {
      at += 13 * HOUR;
      moveTo(at);
      await worker.drain();
      const exhausted = await ctx.prisma.webhookDelivery.count({ where: { configId, status: 'FAILED' } });
      if ((await configRow(configId)).isActive) expect(exhausted).toBe(0);
      else disabledAt = at;
    }
    if (disabledAt === undefined) throw new Error('the configuration was never disabled');
    const config = (await api(buyer).get(`/webhooks/configs/${configId}`)).body;
    expect(config).toMatchObject({ isActive: false, disabledAt: new Date(disabledAt).toISOString() });
    expect(config.disabledReason).toBe('Every delivery attempt failed for 3 days (last error: HTTP 503)');
    const mails = await ctx.prisma.mailOutbox.findMany({ where: { toAddress: buyer.email } });
    const disabledMails = mails.filter((mail) => mail.kind === 'WEBHOOK_DISABLED');
    expect(disabledMails).toHaveLength(1);
    expect(disabledMails[0]?.subject).toBe('Concord disabled one of your webhooks');
    expect(disabledMails[0]?.body).toContain(receiver.url);
    expect(disabledMails[0]?.body).toContain(`http://concord.test/webhooks/${configId}`);

    // Disabled: new events make no delivery, queued ones fail without a request or a second e-mail.
    const sent = receiver.requests.length;
    const after = await recordEvent(buyer);
    expect(await ctx.prisma.webhookDelivery.count({ where: { eventId: after } })).toBe(0);
    moveTo(at + DAY);
    await worker.drain();
    expect(receiver.requests).toHaveLength(sent);
    expect(await ctx.prisma.mailOutbox.count({ where: { toAddress: buyer.email, kind: 'WEBHOOK_DISABLED' } })).toBe(1);

    // Switching it back on clears what the disabling left, and the failure clock.
    const enabled = await api(buyer).patch(`/webhooks/configs/${configId}`, { isActive: true });
    expect(enabled.body).toMatchObject({ isActive: true, disabledAt: null, disabledReason: null, retryPolicy: 'extended' });
    expect((await configRow(configId)).failingSince).toBeNull();
  });

  it('a delivered attempt stops the failure clock: failures before it do not count towards the 3 days', async () => {
    const { buyer, configId } = await subscribed('extended');
    receiver.fallback({ status: 500 });
    const start = nowMs;
    await recordEvent(buyer);
    await worker.drain();
    expect((await configRow(configId)).failingSince?.getTime()).toBe(start);

    moveTo(start + 2 * DAY);
    receiver.fallback({ status: 200 });
    await recordEvent(buyer);
    await worker.drain();
    expect((await configRow(configId)).failingSince).toBeNull();

    moveTo(start + 2 * DAY + HOUR);
    receiver.fallback({ status: 500 });
    await recordEvent(buyer);
    await worker.drain();
    moveTo(start + 3 * DAY + 2 * HOUR);
    await recordEvent(buyer);
    await worker.drain();
    const config = await configRow(configId);
    expect(config).toMatchObject({ isActive: true, disabledAt: null });
    expect(config.failingSince?.getTime()).toBe(start + 2 * DAY + HOUR);
  });
});

describe('retryPolicy on the configuration', () => {
  it('is spec unless given, readable, and changed by PATCH (which restarts the failure clock); other values are 400', async () => {
    const { buyer, configId } = await subscribed();
    expect((await api(buyer).get(`/webhooks/configs/${configId}`)).body.retryPolicy).toBe('spec');
    await ctx.prisma.webhookConfig.update({ where: { id: configId }, data: { failingSince: new Date(nowMs - DAY) } });
    const patched = await api(buyer).patch(`/webhooks/configs/${configId}`, { retryPolicy: 'extended' });
    expect([patched.status, patched.body.retryPolicy]).toEqual([200, 'extended']);
    expect((await configRow(configId)).failingSince).toBeNull();
    for (const res of [
      await api(buyer).patch(`/webhooks/configs/${configId}`, { retryPolicy: 'aggressive' }),
      await api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['budget.low'], secret: 'retry-policy-secret-0123', retryPolicy: 'EXTENDED' }),
    ]) {
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await api(buyer).get('/webhooks/configs')).body.webhooks).toHaveLength(1);
  });
});
