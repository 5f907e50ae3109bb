import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { verifyWebhookSignature } from '@concord/contract';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { dropPendingDeliveries, startReceiver, type Receiver } from '../helpers/receiver.ts';
import { sdk } from '../helpers/sdk.ts';

/** A clock the tests move: the 30-second retry is exercised without waiting 30 seconds. */
let offsetMs = 0;
/** Set by a test that compares due times: the clock then stands still but for offsetMs. */
let frozenAt: number | null = null;
const clock = { now: () => new Date((frozenAt ?? Date.now()) + offsetMs) };

let ctx: TestContext;
let adminToken: string;
let developer: TestDeveloper;
let receiver: Receiver;
const SECRET = 'whsec-test-0123456789';

beforeAll(async () => {
  // 3 s: every delivery to the local receiver must finish within it, on a loaded machine too; the timeout
  // test holds its answer back for longer.
  ctx = await createIsolatedTestContext({ clock, env: { GOLDEN_RATE: '0', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_RETRY_DELAY_MS: '30000' } });
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
});
afterAll(() => ctx.close());
beforeEach(async () => {
  offsetMs = 0;
  frozenAt = null;
  receiver = await startReceiver();
  await ctx.prisma.task.updateMany({ where: { status: { in: ['PENDING', 'VALIDATING'] } }, data: { status: 'FAILED', heldAt: null } });
  await dropPendingDeliveries(ctx);
});
afterEach(() => receiver.close());

const api = (buyer: TestBuyer) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object = {}) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  delete: (path: string) => request(ctx.app).delete(`/api/v1${path}`).set(bearer(buyer.token)),
});

async function subscribedBuyer(events = ['task.completed', 'task.failed', 'budget.low'], cents = 10_000) {
  const buyer = await createBuyer(ctx);
  await fundBuyer(ctx, adminToken, buyer.id, cents);
  const config = await api(buyer).post('/webhooks/configs', { url: receiver.url, events, secret: SECRET });
  expect(config.status).toBe(201);
  return { buyer, configId: config.body.id as string };
}

/**
 * Creates a task and has `answers` given by new annotators. The task completes at 0.9 and fails after
 * the last answer given, so three agreeing answers complete it (0.927) and a split fails it: these tests
 * are about what a decision sends, not about the label model.
 */
async function runTask(buyer: TestBuyer, answers: string[], validationsNeeded = 3): Promise<string> {
  const created = await api(buyer).post('/tasks', { type: 'BINARY_CHOICE', content: 'Cat?', options: ['yes', 'no'], validationsNeeded });
  await ctx.prisma.task.update({
    where: { id: created.body.taskId },
    data: { targetConfidence: 0.9, maxResponses: Math.max(answers.length, validationsNeeded) },
  });
  const client = sdk(ctx, developer.apiKey);
  for (const answer of answers) await client.answerNext(`ann-${newId()}`, answer);
  return created.body.taskId;
}

const worker = () => ctx.services.deliveryWorker;

describe('webhook configurations', () => {
  it('are created, listed, read, updated and deleted; the secret is never returned', async () => {
    const buyer = await createBuyer(ctx);
    const created = await api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['task.completed'], secret: SECRET });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: receiver.url,
      events: ['task.completed'],
      isActive: true,
      createdAt: expect.any(String),
      retryPolicy: 'spec',
      rotationEndsAt: null,
      disabledAt: null,
      disabledReason: null,
    });
    const id = created.body.id;
    expect((await api(buyer).get('/webhooks/configs')).body).toEqual({ webhooks: [created.body], nextCursor: null, hasMore: false });
    const updated = await api(buyer).patch(`/webhooks/configs/${id}`, {
      isActive: false,
      events: ['task.failed', 'budget.low'],
      secret: 'another-secret-0123456',
    });
    expect(updated.body).toMatchObject({ isActive: false, events: ['task.failed', 'budget.low'] });
    for (const res of [created, updated, await api(buyer).get(`/webhooks/configs/${id}`), await api(buyer).get('/webhooks/configs')]) {
      expect(JSON.stringify(res.body)).not.toMatch(/secret/i);
    }
    expect((await api(buyer).delete(`/webhooks/configs/${id}`)).status).toBe(204);
    expect((await api(buyer).get(`/webhooks/configs/${id}`)).body.code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('validate url, events and secret', async () => {
    const buyer = await createBuyer(ctx);
    const valid = { url: receiver.url, events: ['task.completed'], secret: SECRET };
    for (const body of [
      { ...valid, url: 'ftp://example.test' },
      { ...valid, events: [] },
      { ...valid, events: ['task.created'] },
      { ...valid, secret: 'short' },
      { ...valid, secret: undefined },
      { ...valid, secret: 'x'.repeat(257) },
      { ...valid, extra: true },
    ]) {
      const res = await api(buyer).post('/webhooks/configs', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('allow 20 per buyer; the 21st is 400 LIMIT_EXCEEDED, even when created concurrently', async () => {
    const buyer = await createBuyer(ctx);
    const results = await Promise.all(
      Array.from({ length: 22 }, () => api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['budget.low'], secret: SECRET })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 400 && r.body.code === 'LIMIT_EXCEEDED')).toHaveLength(2);
  });

  it("are WEBHOOK_NOT_FOUND across buyers; another buyer's delivery is DELIVERY_NOT_FOUND", async () => {
    const { buyer, configId } = await subscribedBuyer();
    const other = await createBuyer(ctx);
    for (const res of [
      await api(other).get(`/webhooks/configs/${configId}`),
      await api(other).patch(`/webhooks/configs/${configId}`, { isActive: false }),
      await api(other).delete(`/webhooks/configs/${configId}`),
      await api(other).get(`/webhooks/configs/${configId}/deliveries`),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    }
    await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents: -9_600, reason: 'drop below 500' });
    const [delivery] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    const foreign = await api(other).post(`/webhooks/deliveries/${delivery.id}/redeliver`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'DELIVERY_NOT_FOUND']);
  });
});

describe('delivery', () => {
  it('task.completed: signed over the raw body, with the event, delivery id and exact payload', async () => {
    const { buyer, configId } = await subscribedBuyer();
    const taskId = await runTask(buyer, ['yes', 'yes', 'yes']);
    await worker().drain();
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    if (!received) throw new Error('nothing received');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['x-service-event']).toBe('task.completed');
    expect(await verifyWebhookSignature(received.rawBody, received.headers['x-service-signature'] as string, SECRET)).toBe(true);
    const task = (await api(buyer).get(`/tasks/${taskId}`)).body;
    expect(JSON.parse(received.rawBody)).toEqual({
      event: 'task.completed',
      taskId,
      type: 'BINARY_CHOICE',
      result: 'yes',
      confidence: 0.927,
      totalResponses: 3,
      costCents: 20,
      validatedAt: task.validatedAt,
    });
    const log = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body;
    expect(log.deliveries).toEqual([
      {
        id: received.headers['x-service-delivery'],
        event: 'task.completed',
        status: 'DELIVERED',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        createdAt: expect.any(String),
        deliveredAt: expect.any(String),
      },
    ]);
    expect(log.hasMore).toBe(false);
  });

  it('task.failed and budget.low carry exactly their payload fields', async () => {
    const { buyer } = await subscribedBuyer(['task.failed', 'budget.low'], 510);
    const failed = await runTask(buyer, ['yes', 'no'], 1);
    await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents: -15, reason: 'fee' });
    await worker().drain();
    const bodies = receiver.requests.map((r) => JSON.parse(r.rawBody));
    expect(bodies).toEqual(
      expect.arrayContaining([
        { event: 'task.failed', taskId: failed, type: 'BINARY_CHOICE', reason: 'NO_CONSENSUS', totalResponses: 2, failedAt: expect.stringMatching(/Z$/) },
        { event: 'budget.low', creditBalance: 495, thresholdCents: 500, at: expect.stringMatching(/Z$/) },
      ]),
    );
    expect(bodies).toHaveLength(2);
  });

  it('the delivery log pages newest first with a cursor', async () => {
    const { buyer, configId } = await subscribedBuyer(['budget.low'], 600);
    for (const amount of [-150, 200, -200, 200, -200]) {
      await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents: amount, reason: 'page' });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await api(buyer).get(`/webhooks/configs/${configId}/deliveries?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.deliveries.map((d: { id: string }) => d.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    const all = await ctx.prisma.webhookDelivery.findMany({ where: { configId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    expect(seen).toEqual(all.map((d) => d.id));
  });

  it('budget.low fires once per crossing and again after a top-up re-arms it', async () => {
    const { buyer } = await subscribedBuyer(['budget.low'], 600);
    const adjust = (amountCents: number) =>
      request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents, reason: 'test' });
    await adjust(-150); // 450: crossing
    await adjust(-50); // 400: already below
    await adjust(200); // 600: re-armed
    await adjust(-200); // 400: crossing again
    await worker().drain();
    // Both are claimed in one batch and sent at once: their arrival order is not theirs to keep.
    expect(receiver.requests.map((r) => JSON.parse(r.rawBody).creditBalance).sort()).toEqual([400, 450]);
  });

  it('retries once, 30 s later, after a 5xx — with the same delivery id — then FAILED', async () => {
    const { buyer, configId } = await subscribedBuyer(['task.completed']);
    receiver.script({ status: 503 }, { status: 500 });
    await runTask(buyer, ['yes', 'yes', 'yes']);
    // The retry is due 30 s after the failed attempt by this clock: frozen, so that "29 s later" stays 29 s
    // however long the machine takes between the attempt and the next claim.
    frozenAt = Date.now();
    await worker().drain();
    expect(receiver.requests).toHaveLength(1);
    offsetMs = 29_000;
    await worker().drain();
    expect(receiver.requests).toHaveLength(1);
    offsetMs = 30_500;
    await worker().drain();
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]?.headers['x-service-delivery']).toBe(receiver.requests[0]?.headers['x-service-delivery']);
    offsetMs = 120_000;
    await worker().drain();
    expect(receiver.requests).toHaveLength(2);
    const [delivery] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 2, lastStatusCode: 500, lastError: 'HTTP 500' });
  });

  it('retries once after a timeout, and is DELIVERED when the retry succeeds', async () => {
    const { buyer, configId } = await subscribedBuyer(['task.completed']);
    let release = () => {};
    receiver.script({ status: 200, until: new Promise<void>((resolve) => (release = resolve)) });
    await runTask(buyer, ['yes', 'yes', 'yes']);
    await worker().drain();
    release();
    offsetMs = 31_000;
    await worker().drain();
    expect(receiver.requests).toHaveLength(2);
    const [delivery] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 2, lastStatusCode: 200 });
  });

  it('does not retry after a 4xx', async () => {
    const { buyer, configId } = await subscribedBuyer(['task.completed']);
    receiver.script({ status: 410 });
    await runTask(buyer, ['yes', 'yes', 'yes']);
    await worker().drain();
    offsetMs = 60_000;
    await worker().drain();
    expect(receiver.requests).toHaveLength(1);
    const [delivery] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 1, lastStatusCode: 410, lastError: 'HTTP 410' });
  });

  it('redeliver queues a delivery again (202) and it is sent with the same id', async () => {
    const { buyer, configId } = await subscribedBuyer(['task.completed']);
    receiver.script({ status: 400 });
    await runTask(buyer, ['yes', 'yes', 'yes']);
    await worker().drain();
    const [failed] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(failed.status).toBe('FAILED');
    const res = await api(buyer).post(`/webhooks/deliveries/${failed.id}/redeliver`);
    expect([res.status, res.body]).toEqual([202, { queued: true }]);
    await worker().drain();
    expect(receiver.requests.map((r) => r.headers['x-service-delivery'])).toEqual([failed.id, failed.id]);
    const [delivered] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect((await api(buyer).post(`/webhooks/deliveries/${newId()}/redeliver`)).body.code).toBe('DELIVERY_NOT_FOUND');
  });

  it('sends nothing to an inactive configuration or for an event it did not subscribe to', async () => {
    const { buyer, configId } = await subscribedBuyer(['task.failed']);
    await runTask(buyer, ['yes', 'yes', 'yes']);
    await api(buyer).patch(`/webhooks/configs/${configId}`, { isActive: false, events: ['task.completed'] });
    await runTask(buyer, ['yes', 'yes', 'yes']);
    await worker().drain();
    expect(receiver.requests).toHaveLength(0);
    expect((await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries).toEqual([]);
  });
});

describe('private addresses outside development', () => {
  it('are refused when a configuration is saved and again when a delivery is sent', async () => {
    const strict = await createIsolatedTestContext({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const buyer = await createBuyer(strict);
      for (const url of [receiver.url, 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/', 'http://localhost:9/x']) {
        const res = await request(strict.app)
          .post('/api/v1/webhooks/configs')
          .set(bearer(buyer.token))
          .send({ url, events: ['budget.low'], secret: SECRET });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
      }
      // A configuration that slipped in before (say, DNS changed since): the send is refused too.
      await strict.prisma.webhookConfig.create({ data: { id: newId(), buyerId: buyer.id, url: receiver.url, events: ['budget.low'], secret: SECRET } });
      await strict.services.db.transaction((repos) =>
        repos.events.record(buyer.id, 'budget.low', { creditBalance: 1, thresholdCents: 500, at: new Date().toISOString() }),
      );
      await strict.services.deliveryWorker.drain();
      expect(receiver.requests).toHaveLength(0);
      const delivery = await strict.prisma.webhookDelivery.findFirstOrThrow({ where: { config: { buyerId: buyer.id } } });
      expect(delivery.lastError).toMatch(/refused private address 127\.0\.0\.1/);
    } finally {
      await strict.close();
    }
  });
});
