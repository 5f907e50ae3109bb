import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const admin = (method: 'get' | 'post' | 'patch', path: string) => request(ctx.app)[method](`/api/v1${path}`).set(bearer(adminToken));

describe('admin: developers', () => {
  it('lists developers without their keys', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const res = await admin('get', '/admin/developers');
    expect(res.status).toBe(200);
    const listed = res.body.developers.find((d: { id: string }) => d.id === developer.id);
    expect(listed).toEqual({
      id: developer.id,
      email: developer.email,
      appName: 'Label App',
      appUrl: 'https://app.example.test',
      isActive: true,
      hasPassword: false,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain(developer.apiKey);
  });

  it('updates appName and appUrl, and rejects unknown fields', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const res = await admin('patch', `/admin/developers/${developer.id}`).send({ appName: 'Renamed', appUrl: 'http://new.example.test' });
    expect(res.status).toBe(200);
    expect(res.body.developer).toMatchObject({ appName: 'Renamed', appUrl: 'http://new.example.test', isActive: true });
    const bad = await admin('patch', `/admin/developers/${developer.id}`).send({ apiKey: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });

  it('returns 404 DEVELOPER_NOT_FOUND for an unknown id, on update and on key regeneration', async () => {
    const update = await admin('patch', `/admin/developers/${newId()}`).send({ isActive: false });
    expect(update.status).toBe(404);
    expect(update.body.code).toBe('DEVELOPER_NOT_FOUND');
    const regenerate = await admin('post', `/admin/developers/${newId()}/regenerate-api-key`);
    expect(regenerate.status).toBe(404);
    expect(regenerate.body.code).toBe('DEVELOPER_NOT_FOUND');
  });

  it("regenerates a developer's key: the old one fails with 401 at once", async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const res = await admin('post', `/admin/developers/${developer.id}/regenerate-api-key`);
    expect(res.status).toBe(200);
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey))).status).toBe(401);
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(res.body.apiKey))).status).toBe(200);
  });
});

describe('admin: buyers and credits', () => {
  it('lists buyers with their balances', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 1_250);
    const res = await admin('get', '/admin/buyers');
    expect(res.status).toBe(200);
    expect(res.body.buyers.find((b: { id: string }) => b.id === buyer.id)).toEqual({
      id: buyer.id,
      email: buyer.email,
      companyName: 'Acme Labs',
      creditBalance: 1_250,
      reservedCents: 0,
      availableCents: 1_250,
      isActive: true,
      createdAt: expect.any(String),
    });
  });

  it('a credit adjustment returns its ledger row and the ledger sums to the balance', async () => {
    const buyer = await createBuyer(ctx);
    const credit = await admin('post', `/admin/buyers/${buyer.id}/credits`).send({ amountCents: 5_000, reason: 'goodwill' });
    expect(credit.status).toBe(201);
    expect(credit.body).toEqual({
      id: expect.any(String),
      type: 'ADJUSTMENT',
      amountCents: 5_000,
      balanceAfterCents: 5_000,
      taskId: null,
      reason: 'goodwill',
      createdAt: expect.any(String),
    });
    const debit = await admin('post', `/admin/buyers/${buyer.id}/credits`).send({ amountCents: -1_500, reason: 'correction' });
    expect(debit.status).toBe(201);
    expect(debit.body.balanceAfterCents).toBe(3_500);
    const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token));
    expect(me.body.buyer.creditBalance).toBe(3_500);
    expect(await ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(3_500);
  });

  it('a debit beyond availableCents gets 402 INSUFFICIENT_CREDITS with required and available cents, and changes nothing', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 300);
    const res = await admin('post', `/admin/buyers/${buyer.id}/credits`).send({ amountCents: -301, reason: 'too much' });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 301, availableCents: 300 } });
    expect(res.body.error).toContain('301');
    expect(res.body.error).toContain('300');
    expect(await ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id } })).toBe(1);
  });

  it('concurrent debits never take the balance below zero', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 1_000);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => admin('post', `/admin/buyers/${buyer.id}/credits`).send({ amountCents: -100, reason: 'race' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 402)).toHaveLength(2);
    const balance = await ctx.services.db.repos.billing.getBalance(buyer.id);
    expect(balance?.creditBalance).toBe(0);
    expect(await ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(0);
  });

  it('returns 404 BUYER_NOT_FOUND for an unknown buyer and 400 VALIDATION_ERROR for a zero or fractional amount', async () => {
    const unknown = await admin('post', `/admin/buyers/${newId()}/credits`).send({ amountCents: 100, reason: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('BUYER_NOT_FOUND');
    const buyer = await createBuyer(ctx);
    for (const body of [{ amountCents: 0, reason: 'x' }, { amountCents: 1.5, reason: 'x' }, { amountCents: 100 }, { amountCents: 100, reason: '' }]) {
      const res = await admin('post', `/admin/buyers/${buyer.id}/credits`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('stats count buyers, developers, tasks by status and revenue', async () => {
    const before = await admin('get', '/admin/stats');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      buyers: expect.any(Number),
      developers: expect.any(Number),
      annotators: expect.any(Number),
      tasks: { PENDING: expect.any(Number), VALIDATING: expect.any(Number), COMPLETED: expect.any(Number), FAILED: expect.any(Number) },
      revenueCents: expect.any(Number),
      pendingPayouts: { count: expect.any(Number), cents: expect.any(Number) },
    });
    await createBuyer(ctx);
    await createDeveloper(ctx, adminToken);
    const after = await admin('get', '/admin/stats');
    expect(after.body.buyers).toBeGreaterThanOrEqual(before.body.buyers + 1);
    expect(after.body.developers).toBeGreaterThanOrEqual(before.body.developers + 1);
  });
});

describe('admin seed', () => {
  it('refuses an ADMIN_EMAIL that belongs to a buyer', async () => {
    const buyer = await createBuyer(ctx);
    await expect(ctx.services.auth.seedAdmin(buyer.email, 'whatever password')).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('resets the admin password when ADMIN_PASSWORD changes, and keeps tokens when it does not', async () => {
    const { email, token } = await createAdmin(ctx);
    await ctx.services.auth.seedAdmin(email, 'correct horse battery');
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(token))).status).toBe(200);
    await ctx.services.auth.seedAdmin(email, 'a new admin password');
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(token))).status).toBe(401);
    const login = await request(ctx.app).post('/api/v1/admin/login').send({ email, password: 'a new admin password' });
    expect(login.status).toBe(200);
    expect(login.body.admin.email).toBe(email);
  });

  it('admin login refuses a buyer e-mail with INVALID_CREDENTIALS', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).post('/api/v1/admin/login').send({ email: buyer.email, password: 'correct horse battery' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
  });
});
