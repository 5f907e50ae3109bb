// contract §0: the dashboard is served at `/`, and any other unknown GET outside /api/v1 falls back to it
// (deep links); the API, the service's own pages and non-GET requests keep their JSON answers.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-1234.js"></script></head><body><div id="root"></div></body></html>';

describe('the dashboard at /', () => {
  let dir: string;
  let ctx: TestContext;
  let production: TestContext;
  let unbuilt: TestContext;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'concord-web-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'app-1234.js'), 'console.log("app")');
    await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    ctx = createTestContext({ dashboardDir: dir });
    production = createTestContext({ dashboardDir: dir, env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'true' } });
    unbuilt = createTestContext({ dashboardDir: path.join(dir, 'missing') });
  });
  afterAll(async () => {
    await Promise.all([ctx.close(), production.close(), unbuilt.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('serves index.html at / and at any deep link, never cached, under the strict CSP', async () => {
    for (const url of ['/', '/tasks', '/projects/abc?x=1', '/admin/payouts', '/billing/deposits/some-id']) {
      const res = await request(ctx.app).get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves hashed assets with a year-long immutable cache, and a missing asset is a 404, not the app', async () => {
    const asset = await request(ctx.app).get('/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const missing = await request(ctx.app).get('/assets/gone-0000.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<div id="root">');
    expect((await request(ctx.app).get('/favicon.svg')).status).toBe(200);
  });

  it('leaves the API, the reference and non-GET requests as they were', async () => {
    const api = await request(ctx.app).get('/api/v1/no-such-route');
    expect(api.status).toBe(404);
    expect(api.body.code).toBe('NOT_FOUND');
    const post = await request(ctx.app).post('/tasks').send({});
    expect(post.status).toBe(404);
    expect(post.body.code).toBe('NOT_FOUND');
    expect((await request(ctx.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(ctx.app).get('/api/v1/openapi.json')).body.openapi).toMatch(/^3\.1/);
  });

  it('keeps /metrics a 404 in production without a token instead of falling back to the app', async () => {
    const res = await request(production.app).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<div id="root">');
  });

  it('says how to build the dashboard when it has not been built', async () => {
    const res = await request(unbuilt.app).get('/tasks');
    expect(res.status).toBe(503);
    expect(res.text).toContain('npm run web:build');
  });
});
