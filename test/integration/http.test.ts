import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, workerDatabaseUrl, type TestContext } from '../helpers/context.ts';
import { withDatabase } from '../helpers/database-names.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, PASSWORD, uniqueEmail } from '../helpers/factories.ts';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('request ids', () => {
  it('echoes a well-formed x-request-id and generates one otherwise', async () => {
    const echoed = await request(ctx.app).get('/healthz').set('x-request-id', 'client-id_123.abc');
    expect(echoed.headers['x-request-id']).toBe('client-id_123.abc');
    const generated = await request(ctx.app).get('/healthz');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const replaced = await request(ctx.app).get('/healthz').set('x-request-id', 'bad id with spaces <script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is present on error responses too', async () => {
    const res = await request(ctx.app).get('/api/v1/does-not-exist');
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});

describe('the error pipeline', () => {
  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await request(ctx.app).get('/api/v1/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.stringContaining('/api/v1/does-not-exist'), code: 'NOT_FOUND' });
  });

  it('answers a body that is not JSON with 400 INVALID_JSON', async () => {
    const res = await request(ctx.app).post('/api/v1/auth/register').set('content-type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_JSON');
  });

  it('answers a JSON body over its route limit (1 MB here) with 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify({ email: uniqueEmail(), password: PASSWORD, companyName: 'x'.repeat(1024 * 1024 + 10) });
    const res = await request(ctx.app).post('/api/v1/auth/register').set('content-type', 'application/json').send(body);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a database failure with 500 INTERNAL and leaks nothing', async () => {
    const broken = createTestContext({ databaseUrl: withDatabase(workerDatabaseUrl(), 'concord_test_does_not_exist') });
    try {
      const res = await request(broken.app).post('/api/v1/auth/register').send({ email: uniqueEmail(), password: PASSWORD, companyName: 'x' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal error', code: 'INTERNAL' });
      expect(res.text).not.toMatch(/does_not_exist|prisma|postgres|at .*\.ts/i);
      const ready = await request(broken.app).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.code).toBe('NOT_READY');
    } finally {
      await broken.close();
    }
  });

  it('rejects unknown query parameters on list routes', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).get('/api/v1/billing/ledger?limt=5').set(bearer(buyer.token));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.issues).toEqual([{ path: 'limt', message: 'Unknown field' }]);
  });
});

describe('rate limit on the sensitive routes', () => {
  it('shares one budget per IP across routes and answers 429 RATE_LIMITED with standard headers', async () => {
    const limited = createTestContext({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' } });
    try {
      const first = await request(limited.app).post('/api/v1/auth/login').send({ email: uniqueEmail(), password: 'x' });
      expect(first.status).toBe(401);
      expect(first.headers['ratelimit-policy']).toMatch(/;\s*q=3;\s*w=60\b/);
      await request(limited.app).post('/api/v1/admin/login').send({ email: uniqueEmail(), password: 'x' });
      await request(limited.app).post('/api/v1/dev/login').send({ email: uniqueEmail(), password: 'x' });
      const blocked = await request(limited.app).post('/api/v1/auth/register').send({ email: uniqueEmail(), password: PASSWORD, companyName: 'x' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.headers.ratelimit).toMatch(/;\s*r=0;\s*t=\d+/);
      // Routes outside the sensitive set are not counted.
      expect((await request(limited.app).get('/healthz')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('logs', () => {
  it('carry the request id and never a password, token or API key', async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) };
    const logged = createTestContext({ env: { LOG_LEVEL: 'debug' }, logDestination: destination });
    try {
      const email = uniqueEmail();
      const registered = await request(logged.app)
        .post('/api/v1/auth/register')
        .set('x-request-id', 'trace-me-123')
        .send({ email, password: PASSWORD, companyName: 'Logs' });
      const token = registered.body.token as string;
      await request(logged.app).get('/api/v1/auth/me').set(bearer(token));
      const admin = await createAdmin(logged);
      const developer = await request(logged.app)
        .post('/api/v1/admin/developers')
        .set(bearer(admin.token))
        .send({ email: uniqueEmail('dev'), appName: 'x', appUrl: 'https://x.test' });
      const apiKey = developer.body.developer.apiKey as string;
      await request(logged.app).get('/api/v1/dev/me').set(bearer(apiKey));
      createLogger('debug', destination).info({ body: { password: PASSWORD, token } }, 'a careless log call');
      const output = lines.join('');
      // One concise line per request: method, route pattern, status, duration, request id; no headers.
      const requestLines = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'http.request');
      expect(requestLines.find((line) => line.reqId === 'trace-me-123')).toMatchObject({
        method: 'POST',
        route: '/api/v1/auth/register',
        status: 201,
        ms: expect.any(Number),
      });
      for (const line of requestLines)
        expect(Object.keys(line).sort()).toEqual(['event', 'level', 'method', 'ms', 'msg', 'reqId', 'route', 'service', 'status', 'time']);
      expect(output).toContain('[redacted]');
      for (const secret of [PASSWORD, token, admin.token, apiKey]) expect(output).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});

describe('operations endpoints', () => {
  it('GET /healthz and GET /readyz answer 200', async () => {
    expect((await request(ctx.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(ctx.app).get('/readyz')).body).toEqual({ status: 'ok' });
  });

  it('GET /metrics counts requests by route pattern and status, with latency histograms', async () => {
    const buyer = await createBuyer(ctx);
    await request(ctx.app).get('/api/v1/projects/cnotarealid0000000000000000').set(bearer(buyer.token));
    const res = await request(ctx.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/http_requests_total\{method="POST",route="\/api\/v1\/auth\/register",status="201"\} \d+/);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/projects\/:id",status="404"\} \d+/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
  });

  it('GET /api/v1/openapi.json describes every route with its schemas', async () => {
    const res = await request(ctx.app).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/auth/register',
        '/auth/login',
        '/admin/developers/{id}',
        '/projects/{id}',
        '/dev/me',
        '/billing/ledger',
        '/tasks',
        '/tasks/{id}',
        '/tasks/batch',
        '/tasks/batch/csv',
      ]),
    );
    const register = res.body.paths['/auth/register'].post;
    const schema = register.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password', 'companyName']));
    expect(schema.additionalProperties).toBe(false);
    expect(register.responses['201']).toBeDefined();
    expect(register.responses['429']).toBeDefined();
    const csv = res.body.paths['/tasks/batch/csv'].post;
    expect(csv.requestBody.content['multipart/form-data']).toBeDefined();
    expect(csv.responses['413']).toBeDefined();
    expect(res.body.paths['/tasks'].post.requestBody.content['application/json'].schema).toBeDefined();
  });

  it('GET /docs renders the API reference', async () => {
    const res = await request(ctx.app).get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });
});

describe('GET /billing/ledger', () => {
  it('pages through the ledger newest first with an opaque cursor', async () => {
    const admin = await createAdmin(ctx);
    const buyer = await createBuyer(ctx);
    for (const amount of [100, 200, 300, 400, 500]) await fundBuyer(ctx, admin.token, buyer.id, amount);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await request(ctx.app)
        .get('/api/v1/billing/ledger')
        .query(cursor ? { limit: 2, cursor } : { limit: 2 })
        .set(bearer(buyer.token));
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e: { amountCents: number }) => e.amountCents));
      expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([500, 400, 300, 200, 100]);
  });

  it('returns 400 INVALID_CURSOR for a cursor it did not produce and VALIDATION_ERROR for a bad limit', async () => {
    const buyer = await createBuyer(ctx);
    const cursor = await request(ctx.app).get('/api/v1/billing/ledger?cursor=bm90LWEtY3Vyc29y').set(bearer(buyer.token));
    expect(cursor.status).toBe(400);
    expect(cursor.body.code).toBe('INVALID_CURSOR');
    for (const limit of ['0', 'abc', '-1']) {
      const res = await request(ctx.app).get(`/api/v1/billing/ledger?limit=${limit}`).set(bearer(buyer.token));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await request(ctx.app).get('/api/v1/billing/ledger?limit=500').set(bearer(buyer.token))).status).toBe(200);
  });
});
