// Stable event ids, Standard Webhooks signatures beside the spec's (verified by
// the `standardwebhooks` package itself), secret rotation with a 24-hour overlap, and test sends — on real
// deliveries from the outbox to a real receiver, with a clock the tests move.
import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_ID_PATTERN, ID_PATTERN, newId } from '../../src/lib/ids.ts';
import { verifyWebhookSignature } from '@concord/contract';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createBuyer, type TestBuyer } from '../helpers/factories.ts';
import { dropPendingDeliveries, startReceiver, type Received, type Receiver } from '../helpers/receiver.ts';

const HOUR = 3_600_000;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let ctx: TestContext;
let receiver: Receiver;
beforeAll(async () => {
  // 3 s: every delivery to the local receiver must finish within it, on a loaded machine too; the timeout
  // test holds its answer back for longer.
  ctx = await createIsolatedTestContext({ clock, env: { WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_RETRY_DELAY_MS: '30000' } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  offsetMs = 0;
  receiver = await startReceiver();
  await dropPendingDeliveries(ctx);
});
afterEach(() => receiver.close());

const whsec = (bytes = 32) => `whsec_${randomBytes(bytes).toString('base64')}`;
const PLAIN_SECRET = 'a-plain-secret-0123456789';

const api = (buyer: TestBuyer) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object = {}) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
});

async function subscribed(secret: string, extra: object = {}): Promise<{ buyer: TestBuyer; configId: string }> {
  const buyer = await createBuyer(ctx);
  const res = await api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['budget.low'], secret, ...extra });
  expect(res.status).toBe(201);
  return { buyer, configId: res.body.id };
}

/** A budget.low event through the outbox (record_event), as billing writes it; returns its id. */
const recordEvent = (buyer: TestBuyer, creditBalance = 480) =>
  ctx.services.db.transaction((repos) => repos.events.record(buyer.id, 'budget.low', { creditBalance, thresholdCents: 500, at: clock.now().toISOString() }));

const drain = () => ctx.services.deliveryWorker.drain();

/** Verifies with the package as a receiver whose own clock reads `at` (its 5-minute tolerance applies). */
function verifyWithPackage(secret: string, received: Received, at = clock.now()): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  try {
    return new Webhook(secret).verify(received.rawBody, received.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

const last = (): Received => {
  const received = receiver.requests.at(-1);
  if (!received) throw new Error('nothing received');
  return received;
};

describe('event ids and Standard Webhooks signatures on real deliveries', () => {
  it('a whsec_ secret: the package verifies webhook-signature, the spec header verifies as before, webhook-id is the evt_ event id', async () => {
    const secret = whsec();
    const { buyer } = await subscribed(secret);
    const eventId = await recordEvent(buyer);
    expect(eventId).toMatch(EVENT_ID_PATTERN);
    const before = Math.floor(Date.now() / 1000);
    await drain();
    const received = last();
    expect(verifyWithPackage(secret, received)).toEqual(JSON.parse(received.rawBody));
    expect(await verifyWebhookSignature(received.rawBody, received.headers['x-service-signature'] as string, secret)).toBe(true);
    expect(received.headers['webhook-id']).toBe(eventId);
    expect(Number(received.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(received.headers['webhook-timestamp'])).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(received.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => verifyWithPackage(whsec(), received)).toThrow(WebhookVerificationError);
    // GET /events/:id takes the evt_ id.
    const event = await api(buyer).get(`/events/${eventId}`);
    expect([event.status, event.body.id, event.body.deliveries[0].status]).toEqual([200, eventId, 'DELIVERED']);
  });

  it('any other secret: only the spec header, signed with the secret as given', async () => {
    const { buyer } = await subscribed(PLAIN_SECRET);
    await recordEvent(buyer);
    await drain();
    const received = last();
    expect(Object.keys(received.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    expect(await verifyWebhookSignature(received.rawBody, received.headers['x-service-signature'] as string, PLAIN_SECRET)).toBe(true);
  });

  it('the same webhook-id on the first attempt, the retry and a manual redelivery, each with its own timestamp', async () => {
    const secret = whsec();
    const { buyer, configId } = await subscribed(secret);
    receiver.script({ status: 503 }, { status: 500 });
    const eventId = await recordEvent(buyer);
    await drain();
    offsetMs = 31_000;
    await drain();
    const [delivery] = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 2 });
    offsetMs = 60_000;
    expect((await api(buyer).post(`/webhooks/deliveries/${delivery.id}/redeliver`)).status).toBe(202);
    await drain();
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
    expect(receiver.requests.map((r) => r.headers['x-service-delivery'])).toEqual([delivery.id, delivery.id, delivery.id]);
    const stamps = receiver.requests.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps[1]).toBeGreaterThanOrEqual((stamps[0] ?? 0) + 30);
    expect(stamps[2]).toBeGreaterThanOrEqual((stamps[1] ?? 0) + 29);
    for (const received of receiver.requests)
      expect(verifyWithPackage(secret, received, new Date(Number(received.headers['webhook-timestamp']) * 1000))).toBeTruthy();
  });

  it('an event written before the prefix keeps its plain id, as webhook-id and in GET /events/:id', async () => {
    const { buyer } = await subscribed(whsec());
    const oldId = newId();
    await ctx.prisma.$executeRaw`SELECT record_event(${oldId}, ${buyer.id}, 'budget.low', '{"event":"budget.low","creditBalance":1}', ${[newId()]}::text[])`;
    await drain();
    expect(oldId).toMatch(ID_PATTERN);
    expect(last().headers['webhook-id']).toBe(oldId);
    expect((await api(buyer).get(`/events/${oldId}`)).body.id).toBe(oldId);
    expect((await api(buyer).get('/events?limit=1')).status).toBe(200);
  });

  it('GET /events pages across evt_ ids with its cursor; a malformed evt_ id is 404 EVENT_NOT_FOUND', async () => {
    const { buyer } = await subscribed(PLAIN_SECRET);
    const ids = [await recordEvent(buyer, 1), await recordEvent(buyer, 2), await recordEvent(buyer, 3)];
    const first = await api(buyer).get('/events?limit=2');
    const second = await api(buyer).get(`/events?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect([...first.body.events, ...second.body.events].map((e: { id: string }) => e.id).sort()).toEqual([...ids].sort());
    for (const id of ['evt_', 'evt_nope', `evt_${newId()}`, `${ids[0]}x`]) {
      const res = await api(buyer).get(`/events/${id}`);
      expect([res.status, res.body.code]).toEqual([404, 'EVENT_NOT_FOUND']);
    }
  });
});

describe('whsec_ secrets are checked when saved', () => {
  it.each([
    ['23 bytes', whsec(23)],
    ['65 bytes', whsec(65)],
    ['not base64', 'whsec_this is not base64 at all'],
    ['no padding', whsec(32).replace(/=+$/, '')],
  ])('a whsec_ secret of %s is 400 VALIDATION_ERROR on create, PATCH and rotate-secret, and changes nothing', async (_label, secret) => {
    const buyer = await createBuyer(ctx);
    const created = await api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['budget.low'], secret });
    expect([created.status, created.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(JSON.stringify(created.body.details)).toContain('secret');
    expect(JSON.stringify(created.body)).not.toContain(secret);
    expect((await api(buyer).get('/webhooks/configs')).body.webhooks).toEqual([]);
    const good = whsec();
    const { body: config } = await api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['budget.low'], secret: good });
    for (const res of [
      await api(buyer).patch(`/webhooks/configs/${config.id}`, { secret }),
      await api(buyer).post(`/webhooks/configs/${config.id}/rotate-secret`, { secret }),
    ]) {
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id: config.id } })).secret).toBe(good);
  });

  it('accepts whsec_ secrets of 24 to 64 bytes', async () => {
    const buyer = await createBuyer(ctx);
    for (const bytes of [24, 32, 64]) {
      expect((await api(buyer).post('/webhooks/configs', { url: receiver.url, events: ['budget.low'], secret: whsec(bytes) })).status).toBe(201);
    }
  });
});

describe('POST /webhooks/configs/:id/rotate-secret', () => {
  it('for 24 h deliveries carry both signatures (each secret alone verifies) and the spec header uses the new one; after 24 h only the new one', async () => {
    const [oldSecret, newSecret] = [whsec(), whsec()];
    const { buyer, configId } = await subscribed(oldSecret);
    const rotatedAt = clock.now();
    const rotated = await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, { secret: newSecret });
    // Bracketed by the clock before and after the request, however long it took.
    const answeredAt = clock.now();
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: configId, isActive: true, events: ['budget.low'] });
    expect(Date.parse(rotated.body.rotationEndsAt) - rotatedAt.getTime()).toBeGreaterThanOrEqual(24 * HOUR);
    expect(Date.parse(rotated.body.rotationEndsAt) - answeredAt.getTime()).toBeLessThanOrEqual(24 * HOUR);
    expect(JSON.stringify(rotated.body)).not.toContain(newSecret.slice(6, 20));
    expect(Object.keys(rotated.body)).not.toContain('secret');

    await recordEvent(buyer);
    await drain();
    const during = last();
    expect(during.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    for (const secret of [newSecret, oldSecret]) expect(verifyWithPackage(secret, during)).toEqual(JSON.parse(during.rawBody));
    expect(await verifyWebhookSignature(during.rawBody, during.headers['x-service-signature'] as string, newSecret)).toBe(true);
    expect(await verifyWebhookSignature(during.rawBody, during.headers['x-service-signature'] as string, oldSecret)).toBe(false);

    offsetMs = 23 * HOUR + 59 * 60_000;
    await recordEvent(buyer);
    await drain();
    expect(last().headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    expect(verifyWithPackage(oldSecret, last())).toBeTruthy();

    offsetMs = 24 * HOUR + 1_000;
    await recordEvent(buyer);
    await drain();
    const after = last();
    expect(after.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect(verifyWithPackage(newSecret, after)).toEqual(JSON.parse(after.rawBody));
    expect(() => verifyWithPackage(oldSecret, after)).toThrow(WebhookVerificationError);
  });

  it('a second rotation within 24 h: the previous new secret becomes the old one, the first stops signing, the overlap restarts', async () => {
    const [first, second, third] = [whsec(), whsec(), whsec()];
    const { buyer, configId } = await subscribed(first);
    await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, { secret: second });
    offsetMs = HOUR;
    const at = clock.now().getTime();
    const again = await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, { secret: third });
    const answeredAt = clock.now().getTime();
    expect(Date.parse(again.body.rotationEndsAt) - at).toBeGreaterThanOrEqual(24 * HOUR);
    expect(Date.parse(again.body.rotationEndsAt) - answeredAt).toBeLessThanOrEqual(24 * HOUR);
    await recordEvent(buyer);
    await drain();
    const received = last();
    expect(received.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    for (const secret of [third, second]) expect(verifyWithPackage(secret, received)).toBeTruthy();
    expect(() => verifyWithPackage(first, received)).toThrow(WebhookVerificationError);
  });

  it('PATCH secret replaces the secret at once and ends an overlap', async () => {
    const [first, second, third] = [whsec(), whsec(), whsec()];
    const { buyer, configId } = await subscribed(first);
    await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, { secret: second });
    const patched = await api(buyer).patch(`/webhooks/configs/${configId}`, { secret: third });
    expect(patched.body.rotationEndsAt).toBeNull();
    await recordEvent(buyer);
    await drain();
    expect(last().headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect(verifyWithPackage(third, last())).toBeTruthy();
    expect(() => verifyWithPackage(second, last())).toThrow(WebhookVerificationError);
  });

  it('from or to a plain secret: only whsec_ secrets add Standard Webhooks entries', async () => {
    const secret = whsec();
    const { buyer, configId } = await subscribed(PLAIN_SECRET);
    await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, { secret });
    await recordEvent(buyer);
    await drain();
    expect(last().headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect(verifyWithPackage(secret, last())).toBeTruthy();
    expect(await verifyWebhookSignature(last().rawBody, last().headers['x-service-signature'] as string, secret)).toBe(true);
  });

  it('404 WEBHOOK_NOT_FOUND for an unknown, malformed or foreign configuration; 400 for the current secret or another field; nothing changes', async () => {
    const secret = whsec();
    const { buyer, configId } = await subscribed(secret);
    const stranger = await createBuyer(ctx);
    for (const [who, id] of [
      [buyer, newId()],
      [buyer, '%FF'],
      [buyer, 'x'.repeat(300)],
      [stranger, configId],
    ] as const) {
      const res = await api(who).post(`/webhooks/configs/${id}/rotate-secret`, { secret: whsec() });
      expect([res.status, res.body.code]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    }
    const same = await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, { secret });
    expect([same.status, same.body.code, same.body.details.issues[0].path]).toEqual([400, 'VALIDATION_ERROR', 'secret']);
    for (const body of [{}, { secret: 'short' }, { secret: whsec(), isActive: false }]) {
      const res = await api(buyer).post(`/webhooks/configs/${configId}/rotate-secret`, body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    const stored = await ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id: configId } });
    expect([stored.secret, stored.previousSecret, stored.isActive]).toEqual([secret, null, true]);
  });
});

describe('POST /webhooks/configs/:id/test', () => {
  it('sends a signed ping now and answers with the status, latency and headers; no body from a private address (this receiver is one)', async () => {
    const secret = whsec();
    const { buyer, configId } = await subscribed(secret);
    receiver.script({ status: 200, body: `${'é'.repeat(300)}${'x'.repeat(400)}`, headers: { 'X-Receiver': 'staging-7', 'Content-Type': 'text/plain' } });
    const res = await api(buyer).post(`/webhooks/configs/${configId}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: expect.stringMatching(EVENT_ID_PATTERN),
      delivered: true,
      statusCode: 200,
      latencyMs: expect.any(Number),
      // The headers, from any address: what a receiver says about itself there is the configurer's to see.
      responseHeaders: expect.objectContaining({ 'x-receiver': 'staging-7', 'content-type': 'text/plain' }),
      // Where private URLs are allowed (development, these tests), an internal service's answer is not handed back.
      responseExcerpt: null,
    });
    expect(res.body.latencyMs).toBeGreaterThanOrEqual(0);
    const received = last();
    expect(JSON.parse(received.rawBody)).toEqual({ event: 'ping', webhookId: configId, sentAt: expect.stringMatching(/Z$/) });
    expect(received.headers['x-service-event']).toBe('ping');
    expect(received.headers['webhook-id']).toBe(res.body.eventId);
    expect(verifyWithPackage(secret, received)).toBeTruthy();
    expect(await verifyWebhookSignature(received.rawBody, received.headers['x-service-signature'] as string, secret)).toBe(true);

    // Recorded as a ping event with its one delivery, which the worker never sends again.
    const event = (await api(buyer).get(`/events/${res.body.eventId}`)).body;
    expect(event).toMatchObject({ type: 'ping', taskId: null, payload: JSON.parse(received.rawBody) });
    expect(event.deliveries).toEqual([
      { id: received.headers['x-service-delivery'], configId, status: 'DELIVERED', attempts: 1, lastStatusCode: 200, deliveredAt: expect.any(String) },
    ]);
    expect((await api(buyer).get('/events?type=ping')).body.events.map((e: { id: string }) => e.id)).toEqual([res.body.eventId]);
    const log = (await api(buyer).get(`/webhooks/configs/${configId}/deliveries`)).body.deliveries;
    expect(log).toEqual([expect.objectContaining({ event: 'ping', status: 'DELIVERED', attempts: 1 })]);
    await drain();
    expect(receiver.requests).toHaveLength(1);
  });

  it('a failing receiver: delivered false with its status, error and body; never retried', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET, { retryPolicy: 'extended' });
    receiver.script({ status: 503, body: 'down for maintenance', headers: { 'Retry-After': '120' } });
    const res = await api(buyer).post(`/webhooks/configs/${configId}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: false, statusCode: 503, error: 'HTTP 503', responseExcerpt: null });
    expect(res.body.responseHeaders).toEqual(expect.objectContaining({ 'retry-after': '120', date: expect.any(String) }));
    offsetMs = 2 * 24 * HOUR;
    await drain();
    expect(receiver.requests).toHaveLength(1);
    const [delivery] = (await api(buyer).get(`/events/${res.body.eventId}`)).body.deliveries;
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 1, lastStatusCode: 503, deliveredAt: null });
    // A test send is no delivery of the extended policy: it starts no failure clock.
    expect((await ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id: configId } })).failingSince).toBeNull();
  });

  it('a failed ping redelivered by hand is tried once more, never retried, and starts no failure clock', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET, { retryPolicy: 'extended' });
    receiver.script({ status: 503 }, { status: 503 });
    const res = await api(buyer).post(`/webhooks/configs/${configId}/test`);
    const [delivery] = (await api(buyer).get(`/events/${res.body.eventId}`)).body.deliveries;
    expect((await api(buyer).post(`/webhooks/deliveries/${delivery.id}/redeliver`)).status).toBe(202);
    await drain();
    offsetMs = 4 * 24 * HOUR;
    await drain();
    expect(receiver.requests).toHaveLength(2);
    expect((await api(buyer).get(`/events/${res.body.eventId}`)).body.deliveries).toEqual([expect.objectContaining({ status: 'FAILED', attempts: 1 })]);
    expect(await ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id: configId } })).toMatchObject({ failingSince: null, isActive: true });
  });

  it('a configuration deleted while its ping is on the way: 404 WEBHOOK_NOT_FOUND, nothing recorded', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET);
    // The receiver answers the ping only once the DELETE has returned, however long that takes.
    let deleted = () => {};
    receiver.script({ status: 200, until: new Promise<void>((resolve) => (deleted = resolve)) });
    // then() sends the request now (a supertest request waits to be awaited).
    const pending = api(buyer)
      .post(`/webhooks/configs/${configId}/test`)
      .then((response) => response);
    while (receiver.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await request(ctx.app).delete(`/api/v1/webhooks/configs/${configId}`).set(bearer(buyer.token))).status).toBe(204);
    deleted();
    const res = await pending;
    expect([res.status, res.body.code]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    expect((await api(buyer).get('/events?type=ping')).body.events).toEqual([]);
  });

  it('a receiver slower than WEBHOOK_TIMEOUT_MS: delivered false, no status, the timeout as error', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET);
    let release = () => {};
    receiver.script({ status: 200, until: new Promise<void>((resolve) => (release = resolve)) });
    const res = await api(buyer).post(`/webhooks/configs/${configId}/test`);
    release();
    expect(res.body).toMatchObject({ delivered: false, statusCode: null, responseExcerpt: null, error: 'timeout after 3000 ms' });
  });

  it('reaches an inactive configuration too (to check an endpoint before switching it back on)', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET);
    await api(buyer).patch(`/webhooks/configs/${configId}`, { isActive: false });
    const res = await api(buyer).post(`/webhooks/configs/${configId}/test`);
    expect(res.body).toMatchObject({ delivered: true, statusCode: 200 });
    expect((await api(buyer).get(`/webhooks/configs/${configId}`)).body.isActive).toBe(false);
  });

  it('404 WEBHOOK_NOT_FOUND for an unknown, malformed or foreign configuration; 400 for a body; nothing is sent', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET);
    const stranger = await createBuyer(ctx);
    for (const [who, id] of [
      [buyer, newId()],
      [buyer, '%FF'],
      [stranger, configId],
    ] as const) {
      const res = await api(who).post(`/webhooks/configs/${id}/test`);
      expect([res.status, res.body.code]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    }
    const res = await api(buyer).post(`/webhooks/configs/${configId}/test`, { event: 'task.completed' });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(receiver.requests).toHaveLength(0);
    expect((await api(buyer).get('/events?type=ping')).body.events).toEqual([]);
  });
});

describe('test sends: address guard and rate limit', () => {
  it('outside development they go through the address guard of real deliveries', async () => {
    const strict = await createIsolatedTestContext({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const buyer = await createBuyer(strict);
      const configId = newId();
      // A configuration saved while its name resolved elsewhere: the send is refused at connection time.
      await strict.prisma.webhookConfig.create({ data: { id: configId, buyerId: buyer.id, url: receiver.url, events: ['budget.low'], secret: PLAIN_SECRET } });
      const refused = await request(strict.app).post(`/api/v1/webhooks/configs/${configId}/test`).set(bearer(buyer.token)).send({});
      expect(refused.body).toMatchObject({
        delivered: false,
        statusCode: null,
        responseHeaders: null,
        responseExcerpt: null,
        error: 'refused private address 127.0.0.1',
      });
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('a buyer has 10 a minute (429 RATE_LIMITED with Retry-After beyond); another buyer has its own', async () => {
    const { buyer, configId } = await subscribed(PLAIN_SECRET);
    for (let i = 0; i < 10; i++) {
      const res = await api(buyer).post(`/webhooks/configs/${configId}/test`);
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeDefined();
    }
    const limited = await api(buyer).post(`/webhooks/configs/${configId}/test`);
    expect([limited.status, limited.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(receiver.requests).toHaveLength(10);
    const other = await subscribed(PLAIN_SECRET);
    expect((await api(other.buyer).post(`/webhooks/configs/${other.configId}/test`)).status).toBe(200);
    // The sensitive routes' budget is untouched.
    expect((await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: 'correct horse battery' })).status).toBe(200);
  });
});
