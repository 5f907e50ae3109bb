// Hardening against hostile input: requests that used to reach a 500, and bodies that
// were read before the route and the credential were known.
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, PASSWORD, uniqueEmail, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let buyer: TestBuyer;
beforeAll(async () => {
  ctx = createTestContext();
  buyer = await createBuyer(ctx);
  const admin = await createAdmin(ctx);
  await fundBuyer(ctx, admin.token, buyer.id, 10_000);
});
afterAll(() => ctx.close());

const task = { type: 'SENTIMENT_ANALYSIS', content: 'Great product', options: ['positive', 'negative'] };
const taskCount = () => ctx.prisma.task.count({ where: { buyerId: buyer.id } });

describe('request bodies', () => {
  it('answers a Content-Encoding the server does not decompress with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await request(ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .set('content-type', 'application/json')
      .set('content-encoding', 'compress')
      .send('{"name":"x"}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: expect.any(String), code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('accepts a gzip-encoded JSON body', async () => {
    const res = await request(ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      // superagent would serialise a Buffer as JSON under this content type: send the bytes as they are.
      .serialize((bytes: unknown) => bytes as string)
      .send(gzipSync(JSON.stringify({ name: 'zipped' })));
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('zipped');
  });

  it('counts the inflated bytes against the limit: a small gzip body that expands past 1 MB is 413', async () => {
    const bomb = gzipSync(JSON.stringify({ name: 'x', description: ' '.repeat(2 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(20_000);
    const res = await request(ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .serialize((bytes: unknown) => bytes as string)
      .send(bomb);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a body that is not what its Content-Encoding says with 400 INVALID_JSON', async () => {
    const res = await request(ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send('{"name":"not compressed"}');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_JSON');
  });

  it('answers a body that is not application/json with 415, and a non-UTF-8 charset too', async () => {
    const text = await request(ctx.app).post('/api/v1/projects').set(bearer(buyer.token)).set('content-type', 'text/plain').send('{"name":"x"}');
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const latin1 = await request(ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .set('content-type', 'application/json; charset=latin1')
      .send('{"name":"x"}');
    expect(latin1.status).toBe(415);
    expect(latin1.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('limits JSON to 1 MB except on POST /tasks/batch, which takes 10 MB', async () => {
    const big = 'x'.repeat(1024 * 1024 + 100);
    const project = await request(ctx.app).post('/api/v1/projects').set(bearer(buyer.token)).send({ name: 'x', description: big });
    expect(project.status).toBe(413);
    expect(project.body.code).toBe('PAYLOAD_TOO_LARGE');
    // 1.1 MB is read on the batch route: the item is refused by its own rules, not by the size.
    const batch = await request(ctx.app)
      .post('/api/v1/tasks/batch')
      .set(bearer(buyer.token))
      .send({ tasks: [{ ...task, content: big }] });
    expect(batch.status).toBe(400);
    expect(batch.body.code).toBe('INVALID_TASK');
  });

  it('refuses an unknown route or a missing credential without reading the body', async () => {
    const broken = '{"this is": not json';
    const unknown = await request(ctx.app).post('/api/v1/no-such-route').set('content-type', 'application/json').send(broken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    const anonymous = await request(ctx.app).post('/api/v1/tasks').set('content-type', 'application/json').send(broken);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHORIZED');
    const authenticated = await request(ctx.app).post('/api/v1/tasks').set(bearer(buyer.token)).set('content-type', 'application/json').send(broken);
    expect(authenticated.status).toBe(400);
    expect(authenticated.body.code).toBe('INVALID_JSON');
  });

  it('refuses JSON nested deeper than any route accepts with 400 VALIDATION_ERROR', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const res = await request(ctx.app)
      .post('/api/v1/tasks')
      .set(bearer(buyer.token))
      .set('content-type', 'application/json')
      .set('idempotency-key', 'deep-nesting')
      .send(`{"type":"SENTIMENT_ANALYSIS","content":"x","options":${deep}}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('strings the database cannot store', () => {
  const invalid = [
    ['a NUL character', 'Great\u0000product'],
    ['an unpaired high surrogate', 'Great \ud800 product'],
    ['an unpaired low surrogate', '\udc00 product'],
  ] as const;

  for (const [what, content] of invalid) {
    it(`refuses task content holding ${what} with 400 VALIDATION_ERROR and creates nothing`, async () => {
      const before = await taskCount();
      const res = await request(ctx.app)
        .post('/api/v1/tasks')
        .set(bearer(buyer.token))
        .send({ ...task, content });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'body.content' }] } });
      expect(await taskCount()).toBe(before);
    });
  }

  it('refuses a NUL in an option, a batch item and an object key', async () => {
    for (const body of [{ ...task, options: ['a\u0000', 'b'] }, { tasks: [{ ...task, content: 'x\u0000' }] }, { ...task, ['lo\u0000cale']: 'en' }]) {
      const path = 'tasks' in body ? '/api/v1/tasks/batch' : '/api/v1/tasks';
      const res = await request(ctx.app).post(path).set(bearer(buyer.token)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses a NUL in the e-mail at login (unauthenticated) with 400 VALIDATION_ERROR', async () => {
    const res = await request(ctx.app)
      .post('/api/v1/auth/login')
      .send({ email: `a\u0000${uniqueEmail()}`, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  // A URL cannot carry a lone surrogate (UTF-8 has no encoding for one); only JSON can.
  it('refuses a NUL in a query parameter (an export seed, a list filter)', async () => {
    for (const path of ['/api/v1/exports?format=jsonl&seed=%00', '/api/v1/tasks?projectId=%00', '/api/v1/tasks?cursor=%00']) {
      const res = await request(ctx.app).get(path).set(bearer(buyer.token));
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('path ids', () => {
  const malformed = ['%FF', '%00', '%E0%A4%A', 'x'.repeat(10_000), '%F0%9F%98%80', 'a%2Fb', '..'];

  for (const id of malformed) {
    it(`answers /tasks/${id.slice(0, 12)} with the resource's 404 after authentication`, async () => {
      const res = await request(ctx.app).get(`/api/v1/tasks/${id}`).set(bearer(buyer.token));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('TASK_NOT_FOUND');
      const anonymous = await request(ctx.app).get(`/api/v1/tasks/${id}`);
      expect(anonymous.status).toBe(401);
    });
  }

  it('gives each resource its own 404 code for a malformed id', async () => {
    const developerKeyless = await request(ctx.app).get('/api/v1/projects/%FF').set(bearer(buyer.token));
    expect(developerKeyless.body.code).toBe('PROJECT_NOT_FOUND');
    const deposit = await request(ctx.app)
      .get(`/api/v1/billing/deposits/${'d'.repeat(300)}`)
      .set(bearer(buyer.token));
    expect(deposit.body.code).toBe('DEPOSIT_NOT_FOUND');
    const webhook = await request(ctx.app).delete('/api/v1/webhooks/configs/%00').set(bearer(buyer.token));
    expect(webhook.body.code).toBe('WEBHOOK_NOT_FOUND');
  });
});

describe('methods', () => {
  it('answers a known path with another method with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
    const res = await request(ctx.app).put('/api/v1/tasks').set(bearer(buyer.token));
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    const byId = await request(ctx.app).post('/api/v1/tasks/some-id');
    expect(byId.status).toBe(405);
    expect(byId.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
  });
});

describe('GET /metrics in production', () => {
  const production = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'true' };

  it('is 404 without METRICS_TOKEN, and needs the bearer token when it is set', async () => {
    const closed = createTestContext({ env: production });
    const guarded = createTestContext({ env: { ...production, METRICS_TOKEN: 'metrics-token-0123456789' } });
    try {
      expect((await request(closed.app).get('/metrics')).status).toBe(404);
      expect((await request(closed.app).get('/metrics').set(bearer('anything-at-all-here'))).status).toBe(404);
      expect((await request(guarded.app).get('/metrics')).status).toBe(404);
      expect((await request(guarded.app).get('/metrics').set(bearer('metrics-token-wrong-6789'))).status).toBe(404);
      const allowed = await request(guarded.app).get('/metrics').set(bearer('metrics-token-0123456789'));
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain('http_requests_total');
    } finally {
      await closed.close();
      await guarded.close();
    }
  });
});
