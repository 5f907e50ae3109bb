// The OpenAPI document against the running service: the headers it declares are the
// ones responses carry, the webhook payloads and headers it documents are what receivers get, and its
// examples are requests the API accepts. The document's own consistency is test/unit/openapi-document.test.ts.
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/webhook-payloads.ts';
import { verifyWebhookSignature } from '@concord/contract';
import { projectExamples } from '../../src/modules/projects/projects.examples.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { sdk } from '../helpers/sdk.ts';

interface Doc {
  paths: Record<string, Record<string, { operationId: string }>>;
  servers: Array<{ url: string }>;
  webhooks: Record<string, unknown>;
  components: {
    headers: Record<string, { schema: { pattern?: string; type: string } }>;
    parameters: Record<string, { name: string; schema: { pattern?: string; enum?: string[] } }>;
  };
}

let ctx: TestContext;
let adminToken: string;
let developer: TestDeveloper;
let doc: Doc;
beforeAll(async () => {
  // Its own database: the SDK hands out the oldest open task of the platform. A small, odd rate-limit
  // policy of its own, so that the budget runs out here and nowhere else.
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0', RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_MS: '7200000' } });
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
  doc = (await request(ctx.app).get('/api/v1/openapi.json')).body as Doc;
});
afterAll(() => ctx.close());

const pattern = (source: string | undefined) => new RegExp(source ?? '^$');

describe('the served document', () => {
  it('is the one the tests and the linter check: operationIds, a relative server, the webhooks', () => {
    expect(doc.servers).toEqual([{ url: '/api/v1', description: 'This service' }]);
    expect(doc.paths['/tasks']?.post?.operationId).toBe('createTask');
    expect(Object.keys(doc.webhooks).sort()).toEqual(['budget.cap_reached', 'budget.low', 'ping', 'task.completed', 'task.failed', 'task.rejected']);
  });
});

describe('declared headers are the headers sent', () => {
  it('x-request-id: a well-formed one is echoed, anything else replaced, on success and on error alike', async () => {
    const schema = doc.components.headers['X-Request-Id']?.schema;
    const echoed = await request(ctx.app).get('/api/v1/meta').set('x-request-id', 'import-2026-03-14-batch-0042');
    expect(echoed.headers['x-request-id']).toBe('import-2026-03-14-batch-0042');
    const replaced = await request(ctx.app).get('/api/v1/tasks').set('x-request-id', 'spaces are not allowed');
    expect(replaced.status).toBe(401);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const res of [echoed, replaced]) expect(res.headers['x-request-id']).toMatch(pattern(schema?.pattern));
  });

  it('RateLimit and RateLimit-Policy on a sensitive route (IETF draft-8), none elsewhere', async () => {
    const login = () =>
      request(ctx.app)
        .post('/api/v1/auth/login')
        .send({ email: `nobody-${newId()}@example.test`, password: 'wrong password' });
    const first = await login();
    expect(first.status).toBe(401);
    expect(first.headers['retry-after']).toBeUndefined();
    expect(first.headers.ratelimit).toMatch(/^"6-in-\w+"; r=\d+; t=\d+$/);
    expect(first.headers['ratelimit-policy']).toMatch(/^"6-in-\w+"; q=6; w=7200; pk=:[^:]+:$/);
    const meta = await request(ctx.app).get('/api/v1/meta');
    expect(meta.headers.ratelimit).toBeUndefined();
    expect(meta.headers['ratelimit-policy']).toBeUndefined();
  });

  it('Idempotent-Replayed: true on a replayed creation, as documented', async () => {
    const buyer = await createBuyer(ctx);
    const key = `oas-${newId()}`;
    const send = () => request(ctx.app).post('/api/v1/projects').set(bearer(buyer.token)).set('Idempotency-Key', key).send({ name: 'Replayed' });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('examples are requests the API accepts', () => {
  it("POST /projects with the documented example answers with the documented example's shape", async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .send(projectExamples.createProject?.request as object);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(projectExamples.createProject?.response as object).sort());
    expect(res.body).toMatchObject({ targetConfidence: 0.97, maxResponses: 12 });
  });
});

describe('webhook payloads are what receivers get', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  /** A task answered by new annotators; it completes at 0.9, and fails once `answers` are in without it. */
  async function runTask(token: string, answers: string[]): Promise<string> {
    const created = await request(ctx.app)
      .post('/api/v1/tasks')
      .set(bearer(token))
      .send({ type: 'BINARY_CHOICE', content: 'Is there a cat?', options: ['yes', 'no'], validationsNeeded: 2 });
    expect(created.status).toBe(201);
    await ctx.prisma.task.update({ where: { id: created.body.taskId }, data: { targetConfidence: 0.9, maxResponses: answers.length } });
    for (const answer of answers) await sdk(ctx, developer.apiKey).answerNext(`oas-${newId()}`, answer);
    return created.body.taskId;
  }

  it('task.completed, task.failed and budget.low: each body parses exactly with its documented schema, with the documented headers', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 520);
    const config = await request(ctx.app)
      .post('/api/v1/webhooks/configs')
      .set(bearer(buyer.token))
      .send({ url: receiver.url, events: ['task.completed', 'task.failed', 'budget.low'], secret: 'openapi-test-secret-0123456789' });
    expect(config.status).toBe(201);
    // A split fails; three agreeing answers complete and charge 20 cents: 520 → 500 → 480 crosses 500.
    await runTask(buyer.token, ['yes', 'no']);
    await runTask(buyer.token, ['yes', 'yes', 'yes']);
    await runTask(buyer.token, ['no', 'no', 'no']);
    await ctx.services.settlementEffects.settled();
    await ctx.services.deliveryWorker.drain();

    const received = receiver.requests.map((r) => ({
      headers: r.headers,
      rawBody: r.rawBody,
      body: JSON.parse(r.rawBody) as { event: keyof typeof WEBHOOK_EVENTS },
    }));
    expect(new Set(received.map((r) => r.body.event))).toEqual(new Set(['task.failed', 'task.completed', 'budget.low']));
    const signature = pattern(doc.components.parameters.WebhookSignature?.schema.pattern);
    for (const { headers, rawBody, body } of received) {
      expect(WEBHOOK_EVENTS[body.event].schema.parse(body), body.event).toEqual(body);
      expect(headers['x-service-signature']).toMatch(signature);
      expect(await verifyWebhookSignature(rawBody, headers['x-service-signature'] as string, 'openapi-test-secret-0123456789')).toBe(true);
      expect(headers['x-service-event']).toBe(body.event);
      expect(headers['x-service-delivery']).toMatch(/^c[0-9a-z]{24}$/);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['user-agent']).toBe('Concord-Webhooks/1.0');
      // Not a whsec_ secret: none of the Standard Webhooks headers, as documented.
      for (const name of ['StandardWebhookId', 'StandardWebhookTimestamp', 'StandardWebhookSignature']) {
        expect(headers[doc.components.parameters[name]?.name ?? '?'], name).toBeUndefined();
      }
    }
  });

  it('ping: a test send to a whsec_ configuration is the documented payload, with the documented Standard Webhooks headers', async () => {
    const buyer = await createBuyer(ctx);
    const secret = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
    const config = await request(ctx.app)
      .post('/api/v1/webhooks/configs')
      .set(bearer(buyer.token))
      .send({ url: `${receiver.url}/ping`, events: ['budget.low'], secret });
    expect(config.status).toBe(201);
    const sent = await request(ctx.app).post(`/api/v1/webhooks/configs/${config.body.id}/test`).set(bearer(buyer.token)).send({});
    expect(sent.status).toBe(200);
    const ping = receiver.requests.find((r) => r.path === '/hooks/ping');
    if (!ping) throw new Error('the ping did not arrive');
    const body = JSON.parse(ping.rawBody) as { event: 'ping' };
    expect(WEBHOOK_EVENTS.ping.schema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ event: 'ping', webhookId: config.body.id });
    const parameters = doc.components.parameters;
    expect(ping.headers['x-service-event']).toBe('ping');
    expect(parameters.WebhookEvent?.schema.enum).toContain('ping');
    expect(ping.headers['webhook-id']).toBe(sent.body.eventId);
    for (const name of ['StandardWebhookId', 'StandardWebhookTimestamp', 'StandardWebhookSignature', 'WebhookSignature']) {
      const parameter = parameters[name];
      expect(ping.headers[parameter?.name ?? '?'], name).toMatch(pattern(parameter?.schema.pattern));
    }
    expect(new Webhook(secret).verify(ping.rawBody, ping.headers as Record<string, string>)).toEqual(body);
  });
});

// Last: it spends the sensitive routes' budget (registration included) for the rest of the file.
describe('a spent rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After in whole seconds, as documented', async () => {
    let limited;
    for (let i = 0; i < 10; i++) {
      limited = await request(ctx.app)
        .post('/api/v1/auth/login')
        .send({ email: `nobody-${newId()}@example.test`, password: 'wrong password' });
      if (limited.status === 429) break;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.body.code).toBe('RATE_LIMITED');
    expect(limited?.headers['retry-after']).toMatch(/^\d+$/);
    expect(doc.components.headers['Retry-After']?.schema.type).toBe('integer');
    expect(limited?.headers.ratelimit).toMatch(/; r=0; /);
  });
});
