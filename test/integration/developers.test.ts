import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, PASSWORD, uniqueEmail } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

/** The single-use token from the developer's invite e-mail. */
async function inviteToken(email: string): Promise<string> {
  const mail = await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email, kind: 'DEVELOPER_INVITE' } });
  const match = /"token": "([^"]+)"/.exec(mail.body);
  if (!match?.[1]) throw new Error('no token in the invite e-mail');
  return match[1];
}

async function developerWithPassword(): Promise<{ id: string; email: string; apiKey: string; token: string }> {
  const developer = await createDeveloper(ctx, adminToken);
  const setup = await request(ctx.app)
    .post('/api/v1/dev/setup-password')
    .send({ token: await inviteToken(developer.email), password: PASSWORD });
  expect(setup.status).toBe(204);
  const login = await request(ctx.app).post('/api/v1/dev/login').send({ email: developer.email, password: PASSWORD });
  expect(login.status).toBe(200);
  return { ...developer, token: login.body.token };
}

describe('developer accounts', () => {
  it('admin creation returns a cuid API key once and queues an invite e-mail', async () => {
    const email = uniqueEmail('dev');
    const res = await request(ctx.app)
      .post('/api/v1/admin/developers')
      .set(bearer(adminToken))
      .send({ email, appName: 'Labeler', appUrl: 'https://labeler.example.test/app' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      developer: {
        id: expect.any(String),
        email,
        appName: 'Labeler',
        appUrl: 'https://labeler.example.test/app',
        apiKey: expect.stringMatching(/^c[0-9a-z]{24}$/),
      },
    });
    const stored = await ctx.prisma.developer.findUniqueOrThrow({ where: { id: res.body.developer.id } });
    expect(stored.apiKeyHash).not.toContain(res.body.developer.apiKey);
    expect(await inviteToken(email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('GET /dev/me with the API key returns the profile without any key', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const res = await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      developer: { id: developer.id, email: developer.email, appName: 'Label App', appUrl: 'https://app.example.test', createdAt: expect.any(String) },
    });
  });

  it('rejects an appUrl that is not an absolute http(s) URL and an e-mail already in use', async () => {
    for (const appUrl of ['ftp://example.test', '/relative', 'not a url']) {
      const res = await request(ctx.app).post('/api/v1/admin/developers').set(bearer(adminToken)).send({ email: uniqueEmail(), appName: 'x', appUrl });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const buyer = await createBuyer(ctx);
    const taken = await request(ctx.app)
      .post('/api/v1/admin/developers')
      .set(bearer(adminToken))
      .send({ email: buyer.email, appName: 'x', appUrl: 'https://x.test' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('EMAIL_TAKEN');
  });

  it('setup-password works once; a reused, unknown or expired token gets 400 INVALID_TOKEN', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const token = await inviteToken(developer.email);
    expect((await request(ctx.app).post('/api/v1/dev/setup-password').send({ token, password: PASSWORD })).status).toBe(204);
    const reused = await request(ctx.app).post('/api/v1/dev/setup-password').send({ token, password: 'another password' });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('INVALID_TOKEN');
    const unknown = await request(ctx.app).post('/api/v1/dev/setup-password').send({ token: 'nope', password: PASSWORD });
    expect(unknown.body.code).toBe('INVALID_TOKEN');

    const late = await createDeveloper(ctx, adminToken);
    await ctx.prisma.developerInvite.updateMany({ where: { developerId: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await request(ctx.app)
      .post('/api/v1/dev/setup-password')
      .send({ token: await inviteToken(late.email), password: PASSWORD });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('INVALID_TOKEN');
  });

  it('two concurrent uses of one invite token succeed once', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const token = await inviteToken(developer.email);
    const results = await Promise.all(
      ['first password', 'second password'].map((password) => request(ctx.app).post('/api/v1/dev/setup-password').send({ token, password })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([204, 400]);
  });

  it('a developer without a password cannot log in', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const res = await request(ctx.app).post('/api/v1/dev/login').send({ email: developer.email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('dev login returns a token and the profile', async () => {
    const developer = await developerWithPassword();
    const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(developer.token));
    expect(me.body.developer.id).toBe(developer.id);
  });

  it('regenerate-api-key with the developer JWT invalidates the old key at once', async () => {
    const developer = await developerWithPassword();
    // The key is in use (and so remembered by the server) before it is replaced.
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey))).status).toBe(200);
    const res = await request(ctx.app).post('/api/v1/auth/regenerate-api-key').set(bearer(developer.token));
    expect(res.status).toBe(200);
    expect(res.body.apiKey).toMatch(/^c[0-9a-z]{24}$/);
    expect(res.body.apiKey).not.toBe(developer.apiKey);
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey))).status).toBe(401);
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(res.body.apiKey))).status).toBe(200);
  });

  it('regenerate-api-key refuses a buyer or admin JWT with 403 and an API key with 403', async () => {
    const buyer = await createBuyer(ctx);
    const developer = await createDeveloper(ctx, adminToken);
    for (const token of [buyer.token, adminToken, developer.apiKey]) {
      const res = await request(ctx.app).post('/api/v1/auth/regenerate-api-key').set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
  });
});

describe('role separation', () => {
  it('a buyer JWT on admin routes gets 403 FORBIDDEN', async () => {
    const buyer = await createBuyer(ctx);
    for (const [method, path] of [
      ['get', '/api/v1/admin/developers'],
      ['post', '/api/v1/admin/developers'],
      ['get', '/api/v1/admin/buyers'],
      ['get', '/api/v1/admin/stats'],
    ] as const) {
      const res = await request(ctx.app)[method](path).set(bearer(buyer.token)).send({});
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
  });

  it('a developer API key on buyer routes, /auth/me and admin routes gets 403 FORBIDDEN', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    for (const path of ['/api/v1/projects', '/api/v1/billing/ledger', '/api/v1/auth/me', '/api/v1/admin/stats']) {
      const res = await request(ctx.app).get(path).set(bearer(developer.apiKey));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
  });

  it('a JWT on an API-key route gets 403 FORBIDDEN', async () => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app).get('/api/v1/dev/me').set(bearer(buyer.token));
    expect(res.status).toBe(403);
  });

  it('a developer JWT on buyer routes gets 403 FORBIDDEN', async () => {
    const developer = await developerWithPassword();
    const res = await request(ctx.app).get('/api/v1/projects').set(bearer(developer.token));
    expect(res.status).toBe(403);
  });

  it('a disabled developer gets 401 with its key and its JWT, and again 200 once re-enabled', async () => {
    const developer = await developerWithPassword();
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey))).status).toBe(200);
    const disable = await request(ctx.app).patch(`/api/v1/admin/developers/${developer.id}`).set(bearer(adminToken)).send({ isActive: false });
    expect(disable.status).toBe(200);
    expect(disable.body.developer.isActive).toBe(false);
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey))).status).toBe(401);
    expect((await request(ctx.app).get('/api/v1/auth/me').set(bearer(developer.token))).status).toBe(401);
    const login = await request(ctx.app).post('/api/v1/dev/login').send({ email: developer.email, password: PASSWORD });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('UNAUTHORIZED');
    await request(ctx.app).patch(`/api/v1/admin/developers/${developer.id}`).set(bearer(adminToken)).send({ isActive: true });
    expect((await request(ctx.app).get('/api/v1/dev/me').set(bearer(developer.apiKey))).status).toBe(200);
  });
});
