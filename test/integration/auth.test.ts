import bcrypt from 'bcrypt';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_JWT_SECRET, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, PASSWORD, uniqueEmail } from '../helpers/factories.ts';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('POST /auth/register', () => {
  it('creates a buyer with a zero balance, returns a token and queues a welcome e-mail', async () => {
    const email = uniqueEmail('Reg');
    const res = await request(ctx.app)
      .post('/api/v1/auth/register')
      .send({ email: `  ${email.toUpperCase()} `, password: PASSWORD, companyName: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      token: expect.any(String),
      buyer: { id: expect.stringMatching(/^c[0-9a-z]{24}$/), email: email.toLowerCase(), companyName: 'Acme', creditBalance: 0 },
    });
    const decoded = jwt.decode(res.body.token) as Record<string, unknown>;
    expect(decoded).toMatchObject({ sub: res.body.buyer.id, role: 'buyer', tv: 0 });
    expect((decoded.exp as number) - (decoded.iat as number)).toBe(30 * 24 * 3600);
    const mails = await ctx.prisma.mailOutbox.findMany({ where: { toAddress: email.toLowerCase() } });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'WELCOME', status: 'PENDING' });
    const account = await ctx.prisma.account.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    // bcrypt (cost ≥ 10) over the pre-hash (src/modules/auth/passwords.ts).
    expect(account.passwordHash).toMatch(/^ph1\$\$2[aby]\$1\d\$/);
  });

  it('returns 409 EMAIL_TAKEN for an e-mail already used, whatever its case, and creates nothing', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).post('/api/v1/auth/register').send({ email: buyer.email.toUpperCase(), password: PASSWORD, companyName: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
    expect(await ctx.prisma.mailOutbox.count({ where: { toAddress: buyer.email } })).toBe(1);
  });

  it('returns 400 VALIDATION_ERROR with field details for a short password, a bad e-mail and an unknown key', async () => {
    const res = await request(ctx.app)
      .post('/api/v1/auth/register')
      .send({ email: 'not-an-email', password: 'short', companyName: 'Acme', creditBalance: 100 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const paths = res.body.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'password', 'creditBalance']));
  });

  it('returns 400 VALIDATION_ERROR when companyName is blank or too long', async () => {
    for (const companyName of ['   ', 'x'.repeat(201)]) {
      const res = await request(ctx.app).post('/api/v1/auth/register').send({ email: uniqueEmail(), password: PASSWORD, companyName });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('POST /auth/login', () => {
  it('returns a fresh token and the buyer', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.buyer).toEqual({ id: buyer.id, email: buyer.email, companyName: 'Acme Labs', creditBalance: 0 });
    const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(res.body.token));
    expect(me.status).toBe(200);
  });

  it('returns 401 INVALID_CREDENTIALS with one message for a wrong password and an unknown e-mail', async () => {
    const buyer = await createBuyer(ctx);
    const wrong = await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: 'wrong password' });
    const unknown = await request(ctx.app).post('/api/v1/auth/login').send({ email: uniqueEmail(), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('counts every character: a password that shares its first 72 bytes with the right one is refused', async () => {
    // 18 four-byte emoji are 72 bytes, all that bcrypt reads of its input.
    const head = '\u{1F600}'.repeat(18);
    const email = uniqueEmail();
    const registered = await request(ctx.app)
      .post('/api/v1/auth/register')
      .send({ email, password: `${head}right`, companyName: 'Acme' });
    expect(registered.status).toBe(201);
    const wrong = await request(ctx.app)
      .post('/api/v1/auth/login')
      .send({ email, password: `${head}wrong` });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect(
      (
        await request(ctx.app)
          .post('/api/v1/auth/login')
          .send({ email, password: `${head}right` })
      ).status,
    ).toBe(200);
  });

  it('accepts a password stored as plain bcrypt before the pre-hash, and replaces the hash at that login', async () => {
    const buyer = await createBuyer(ctx);
    const legacy = await bcrypt.hash(PASSWORD, 10);
    await ctx.prisma.account.update({ where: { id: buyer.id }, data: { passwordHash: legacy } });
    const res = await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: PASSWORD });
    expect(res.status).toBe(200);
    const account = await ctx.prisma.account.findUniqueOrThrow({ where: { id: buyer.id } });
    expect(account.passwordHash).toMatch(/^ph1\$\$2[aby]\$1\d\$/);
    // The same sessions: the token version did not move, and the new hash logs in.
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token))).status).toBe(200);
    expect((await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: PASSWORD })).status).toBe(200);
    expect((await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: 'not it at all' })).status).toBe(401);
  });

  it('treats an admin or developer e-mail as unknown on the buyer login', async () => {
    const admin = await createAdmin(ctx);
    const res = await request(ctx.app).post('/api/v1/auth/login').send({ email: admin.email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('GET /auth/me', () => {
  it('shows a buyer its balance, reservations and available cents', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      buyer: {
        id: buyer.id,
        email: buyer.email,
        companyName: 'Acme Labs',
        creditBalance: 0,
        reservedCents: 0,
        availableCents: 0,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        // The buyer is the person's own organisation, which they own.
        role: 'owner',
      },
    });
  });

  it('shows an admin and a developer their own shapes', async () => {
    const admin = await createAdmin(ctx);
    const adminMe = await request(ctx.app).get('/api/v1/auth/me').set(bearer(admin.token));
    expect(adminMe.body).toEqual({ admin: { id: expect.any(String), email: admin.email } });

    const developer = await createDeveloper(ctx, admin.token);
    const devToken = await ctx.services.tokens.sign({ sub: developer.id, role: 'DEVELOPER', tv: 0 });
    const devMe = await request(ctx.app).get('/api/v1/auth/me').set(bearer(devToken));
    expect(devMe.body).toEqual({
      developer: { id: developer.id, email: developer.email, appName: 'Label App', appUrl: 'https://app.example.test', createdAt: expect.any(String) },
    });
  });
});

describe('credentials that are not valid get 401 UNAUTHORIZED', () => {
  const cases: Array<[string, () => Promise<Record<string, string>>]> = [
    ['no header', async () => ({})],
    ['a non-bearer scheme', async () => ({ authorization: 'Basic dXNlcjpwYXNz' })],
    ['garbage', async () => ({ authorization: 'Bearer not.a.token' })],
    ['an unknown API key', async () => ({ authorization: 'Bearer c000000000000000000000000' })],
  ];
  for (const [name, headers] of cases) {
    it(`rejects ${name}`, async () => {
      const res = await request(ctx.app)
        .get('/api/v1/auth/me')
        .set(await headers());
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    });
  }

  it('rejects a tampered token', async () => {
    const buyer = await createBuyer(ctx);
    const [header, payload, signature] = buyer.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    const res = await request(ctx.app)
      .get('/api/v1/auth/me')
      .set(bearer(`${header}.${forged}.${signature}`));
    expect(res.status).toBe(401);
  });

  it('rejects alg "none" and any algorithm but HS256', async () => {
    const buyer = await createBuyer(ctx);
    const claims = { sub: buyer.id, role: 'buyer', tv: 0 };
    const none = jwt.sign(claims, '', { algorithm: 'none' });
    const hs512 = jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS512' });
    for (const token of [none, hs512]) {
      const res = await request(ctx.app).get('/api/v1/auth/me').set(bearer(token));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('rejects a token older than 30 days', async () => {
    const buyer = await createBuyer(ctx);
    const iat = Math.floor(Date.now() / 1000) - 31 * 24 * 3600;
    const expired = jwt.sign({ sub: buyer.id, role: 'BUYER', tv: 0, iat, exp: iat + 30 * 24 * 3600 }, TEST_JWT_SECRET);
    const res = await request(ctx.app).get('/api/v1/auth/me').set(bearer(expired));
    expect(res.status).toBe(401);
  });

  it('rejects a correctly signed token without exp, or with an upper-case or unknown role claim', async () => {
    const buyer = await createBuyer(ctx);
    const iat = Math.floor(Date.now() / 1000);
    const valid = jwt.sign({ sub: buyer.id, role: 'buyer', tv: 0, iat, exp: iat + 3600 }, TEST_JWT_SECRET);
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(valid))).status).toBe(200);
    for (const claims of [
      { sub: buyer.id, role: 'buyer', tv: 0, iat },
      { sub: buyer.id, role: 'BUYER', tv: 0, iat, exp: iat + 3600 },
      { sub: buyer.id, role: 'constructor', tv: 0, iat, exp: iat + 3600 },
    ]) {
      const res = await request(ctx.app)
        .get('/api/v1/auth/me')
        .set(bearer(jwt.sign(claims, TEST_JWT_SECRET)));
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('rejects a token signed with another secret', async () => {
    const buyer = await createBuyer(ctx);
    const token = jwt.sign({ sub: buyer.id, role: 'BUYER', tv: 0 }, 'another-secret-another-secret-another-secret');
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(token))).status).toBe(401);
  });
});

describe('POST /auth/change-password', () => {
  it('returns a new token and revokes every older token at once', async () => {
    const buyer = await createBuyer(ctx);
    const login = await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: PASSWORD });
    const res = await request(ctx.app)
      .post('/api/v1/auth/change-password')
      .set(bearer(buyer.token))
      .send({ currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String) });
    for (const old of [buyer.token, login.body.token]) {
      expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(old))).status).toBe(401);
    }
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(res.body.token))).status).toBe(200);
    const relogin = await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: 'a brand new password' });
    expect(relogin.status).toBe(200);
    const oldPassword = await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: PASSWORD });
    expect(oldPassword.status).toBe(401);
  });

  it('returns 400 INVALID_CURRENT_PASSWORD for a wrong current password and changes nothing', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app)
      .post('/api/v1/auth/change-password')
      .set(bearer(buyer.token))
      .send({ currentPassword: 'not the password', newPassword: 'a brand new password' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_CURRENT_PASSWORD');
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token))).status).toBe(200);
  });

  it('returns 400 VALIDATION_ERROR for a new password shorter than 8 characters', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).post('/api/v1/auth/change-password').set(bearer(buyer.token)).send({ currentPassword: PASSWORD, newPassword: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});
