import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositBonusCents } from '@concord/contract';
import { createIsolatedTestContext, createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, PASSWORD } from '../helpers/factories.ts';

const meta = (ctx: TestContext) => request(ctx.app).get('/api/v1/meta');
const production = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'true' };

describe('GET /meta', () => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = createTestContext();
  });
  afterAll(() => ctx.close());

  it('tells anyone, without a credential, how the service runs', async () => {
    const res = await meta(ctx);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      environment: 'test',
      paymentProvider: 'sandbox',
      priceCents: 20,
      defaultTargetConfidence: 0.95,
      lowBalanceThresholdCents: 500,
      depositBonusTiers: [
        { minCents: 50_000, percent: 5 },
        { minCents: 200_000, percent: 10 },
      ],
      localAdmin: null,
    });
    // A credential changes nothing on a public route, even one that is not valid.
    expect((await meta(ctx).set(bearer('not-a-token'))).body).toEqual(res.body);
  });

  it('shows the bonus tiers that deposits apply', async () => {
    const { depositBonusTiers } = (await meta(ctx)).body as { depositBonusTiers: Array<{ minCents: number; percent: number }> };
    for (const [i, tier] of depositBonusTiers.entries()) {
      expect(depositBonusCents(tier.minCents)).toBe(Math.floor((tier.minCents * tier.percent) / 100));
      const below = depositBonusTiers[i - 1];
      expect(depositBonusCents(tier.minCents - 1)).toBe(below ? Math.floor(((tier.minCents - 1) * below.percent) / 100) : 0);
    }
  });

  it('follows the configuration (environment, price, default target confidence)', async () => {
    const configured = createTestContext({ env: { ...production, PRICE_CENTS: '35', CONSENSUS_THRESHOLD: '0.9' } });
    try {
      expect((await meta(configured)).body).toMatchObject({
        environment: 'production',
        paymentProvider: 'sandbox',
        priceCents: 35,
        defaultTargetConfidence: 0.9,
        localAdmin: null,
      });
    } finally {
      await configured.close();
    }
  });

  it('returns 400 VALIDATION_ERROR for a query parameter and 405 METHOD_NOT_ALLOWED for POST', async () => {
    const queried = await request(ctx.app).get('/api/v1/meta?verbose=1');
    expect(queried.status).toBe(400);
    expect(queried.body.code).toBe('VALIDATION_ERROR');
    const posted = await request(ctx.app).post('/api/v1/meta').send({});
    expect(posted.status).toBe(405);
    expect(posted.body.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('GET /meta: the local admin', () => {
  const dataDir = path.resolve('/tmp', 'concord-meta-test');
  let development: TestContext;
  beforeAll(async () => {
    // Its own database: the local admin is created only where there is no admin yet.
    development = await createIsolatedTestContext({ env: { NODE_ENV: 'development', DATA_DIR: dataDir } });
  });
  afterAll(() => development.close());

  it('is null until start-up creates it in development, then names its e-mail and file but never its password', async () => {
    expect((await meta(development)).body).toMatchObject({ environment: 'development', localAdmin: null });
    const created = await development.services.auth.ensureLocalAdmin();
    expect(created).not.toBeNull();
    const res = await meta(development);
    expect(res.body.localAdmin).toEqual({ email: 'admin@concord.local', file: path.join(dataDir, 'local-admin.json') });
    expect(res.text).not.toContain(created?.password);
  });

  it('is null outside development, and when ADMIN_EMAIL/ADMIN_PASSWORD name the admin, even where the local admin exists', async () => {
    const others = [
      createTestContext({ databaseUrl: development.databaseUrl }),
      createTestContext({ databaseUrl: development.databaseUrl, env: production }),
      createTestContext({
        databaseUrl: development.databaseUrl,
        env: { NODE_ENV: 'development', DATA_DIR: dataDir, ADMIN_EMAIL: 'ops@example.test', ADMIN_PASSWORD: PASSWORD },
      }),
    ];
    try {
      for (const other of others) expect((await meta(other)).body.localAdmin).toBeNull();
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });
});
