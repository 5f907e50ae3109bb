// Buyer API keys: named server-to-server keys that act as their buyer on every buyer
// route, shown once, stored as a digest, refused on account management, revoked at once in every process.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, sha256Hex } from '../../src/lib/ids.ts';
import { MAX_LIVE_API_KEYS } from '@concord/contract';
import { idempotencyKeyDigest } from '../../src/modules/idempotency/idempotency.service.ts';
import { createIsolatedTestContext, createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, createFundedBuyer, PASSWORD, type TestBuyer } from '../helpers/factories.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';

const SECRET = /^cnc_test_[0-9A-Za-z]{43}$/;

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const api = (app = ctx.app) => ({
  get: (path: string, credential: string) => request(app).get(`/api/v1${path}`).set(bearer(credential)),
  post: (path: string, credential: string, body: object = {}) => request(app).post(`/api/v1${path}`).set(bearer(credential)).send(body),
  delete: (path: string, credential: string) => request(app).delete(`/api/v1${path}`).set(bearer(credential)),
});

interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  secret: string;
  createdAt: string;
  lastUsedAt: string | null;
}

async function createKey(token: string, name = 'Production ingest', app = ctx.app): Promise<CreatedKey> {
  const res = await api(app).post('/api-keys', token, { name });
  expect(res.status).toBe(201);
  return res.body.apiKey as CreatedKey;
}

const liveKeys = (buyerId: string) => ctx.prisma.buyerApiKey.count({ where: { buyerId, revokedAt: null } });

describe('POST /api-keys', () => {
  it('creates a named key whose secret appears in this response only; the database keeps its SHA-256 and a prefix', async () => {
    const buyer = await createBuyer(ctx);
    const res = await api().post('/api-keys', buyer.token, { name: '  Production ingest  ' });
    expect(res.status).toBe(201);
    const key = res.body.apiKey as CreatedKey;
    expect(res.body).toEqual({
      apiKey: {
        id: expect.stringMatching(/^key_c[0-9a-z]{24}$/),
        name: 'Production ingest',
        prefix: key.secret.slice(0, 14),
        secret: expect.stringMatching(SECRET),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        lastUsedAt: null,
        // Unscoped by default: write access to the whole organisation, no expiry; made by the buyer.
        access: 'write',
        projectIds: null,
        expiresAt: null,
        createdBy: buyer.email,
      },
    });
    expect(key.prefix).toMatch(/^cnc_test_[0-9A-Za-z]{5}$/);

    const row = await ctx.prisma.buyerApiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row).toMatchObject({ buyerId: buyer.id, secretHash: sha256Hex(key.secret), prefix: key.prefix, revokedAt: null });
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(14));

    const list = await api().get('/api-keys', buyer.token);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      apiKeys: [
        {
          id: key.id,
          name: 'Production ingest',
          prefix: key.prefix,
          createdAt: key.createdAt,
          lastUsedAt: null,
          access: 'write',
          projectIds: null,
          expiresAt: null,
          createdBy: buyer.email,
        },
      ],
      nextCursor: null,
      hasMore: false,
    });
    expect(list.text).not.toContain(key.secret.slice(14));
  });

  it('makes distinct 256-bit secrets, each authenticating as the buyer', async () => {
    const buyer = await createBuyer(ctx);
    const [a, b] = [await createKey(buyer.token, 'a'), await createKey(buyer.token, 'b')];
    expect(a.secret).not.toBe(b.secret);
    for (const key of [a, b]) {
      const me = await api().get('/auth/me', key.secret);
      expect(me.status).toBe(200);
      expect(me.body.buyer).toMatchObject({ id: buyer.id, email: buyer.email });
    }
  });

  it('gives cnc_live_ secrets when the payment provider is Stripe', async () => {
    const stripe = createTestContext({
      env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_concord123', STRIPE_WEBHOOK_SECRET: 'whsec_concord123' },
    });
    try {
      const buyer = await createBuyer(stripe);
      const key = await createKey(buyer.token, 'Live', stripe.app);
      expect(key.secret).toMatch(/^cnc_live_[0-9A-Za-z]{43}$/);
      expect(key.prefix).toMatch(/^cnc_live_[0-9A-Za-z]{5}$/);
      expect((await api(stripe.app).get('/auth/me', key.secret)).body.buyer.id).toBe(buyer.id);
    } finally {
      await stripe.close();
    }
  });

  it('returns 400 VALIDATION_ERROR for a missing, blank, too long or non-string name and an unknown key, creating nothing', async () => {
    const buyer = await createBuyer(ctx);
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }, { name: 'ok', scopes: ['tasks'] }, { name: 'nul\u0000' }]) {
      const res = await api().post('/api-keys', buyer.token, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
      expect(res.body.details.issues.length).toBeGreaterThan(0);
    }
    expect(await liveKeys(buyer.id)).toBe(0);
    expect((await createKey(buyer.token, 'y'.repeat(100))).name).toBe('y'.repeat(100));
  });

  it(`caps live keys at ${MAX_LIVE_API_KEYS} per buyer (400 LIMIT_EXCEEDED); a revoked key frees its place`, async () => {
    const buyer = await createBuyer(ctx);
    const keys: CreatedKey[] = [];
    for (let i = 0; i < MAX_LIVE_API_KEYS; i++) keys.push(await createKey(buyer.token, `key ${i}`));
    const refused = await api().post('/api-keys', buyer.token, { name: 'one too many' });
    expect([refused.status, refused.body.code]).toEqual([400, 'LIMIT_EXCEEDED']);
    expect(await liveKeys(buyer.id)).toBe(MAX_LIVE_API_KEYS);
    expect((await api().delete(`/api-keys/${keys[0]?.id}`, buyer.token)).status).toBe(204);
    await createKey(buyer.token, 'after a revocation');
    expect(await liveKeys(buyer.id)).toBe(MAX_LIVE_API_KEYS);
  });

  it('holds the cap under concurrent creations (no check-then-insert race)', async () => {
    const buyer = await createBuyer(ctx);
    const results = await Promise.all(Array.from({ length: MAX_LIVE_API_KEYS + 6 }, (_, i) => api().post('/api-keys', buyer.token, { name: `racer ${i}` })));
    expect(results.filter((res) => res.status === 201)).toHaveLength(MAX_LIVE_API_KEYS);
    expect(results.filter((res) => res.status === 400).map((res) => res.body.code)).toEqual(Array(6).fill('LIMIT_EXCEEDED'));
    expect(await liveKeys(buyer.id)).toBe(MAX_LIVE_API_KEYS);
  });

  it('honours Idempotency-Key: a repeat replays the first answer and creates nothing; the stored answer does not reveal the secret', async () => {
    const buyer = await createBuyer(ctx);
    const send = (idempotencyKey: string, name: string) =>
      request(ctx.app).post('/api/v1/api-keys').set(bearer(buyer.token)).set('Idempotency-Key', idempotencyKey).send({ name });
    const first = await send('ci-key', 'CI');
    const again = await send('ci-key', 'CI');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await liveKeys(buyer.id)).toBe(1);
    const stored = JSON.stringify(await ctx.prisma.idempotencyKey.findMany({ where: { key: idempotencyKeyDigest('ci-key') } }));
    expect(stored).toContain(buyer.id);
    expect(stored).not.toContain(first.body.apiKey.secret.slice(14));
    const reused = await send('ci-key', 'Another name');
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await send('another-key', 'CI')).status).toBe(201);
    expect(await liveKeys(buyer.id)).toBe(2);
  });
});

describe('GET /api-keys', () => {
  it('pages newest first by cursor, each key once, without revoked keys; a foreign cursor is INVALID_CURSOR', async () => {
    const buyer = await createBuyer(ctx);
    const created: CreatedKey[] = [];
    for (let i = 0; i < 5; i++) created.push(await createKey(buyer.token, `k${i}`));
    const revoked = created[2] as CreatedKey;
    expect((await api().delete(`/api-keys/${revoked.id}`, buyer.token)).status).toBe(204);
    const expected = created
      .filter((key) => key !== revoked)
      .reverse()
      .map((key) => key.id);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await request(ctx.app)
        .get('/api/v1/api-keys')
        .query({ limit: '2', ...(cursor ? { cursor } : {}) })
        .set(bearer(buyer.token));
      expect(page.status).toBe(200);
      expect(page.body.apiKeys.length).toBeLessThanOrEqual(2);
      for (const key of page.body.apiKeys)
        expect(Object.keys(key).sort()).toEqual(['access', 'createdAt', 'createdBy', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'projectIds']);
      seen.push(...page.body.apiKeys.map((key: { id: string }) => key.id));
      expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);

    for (const query of [{ cursor: 'not-a-cursor' }, { cursor: Buffer.from('["2026-01-01T00:00:00.000Z","key_x"]').toString('base64url') }]) {
      const res = await request(ctx.app).get('/api/v1/api-keys').query(query).set(bearer(buyer.token));
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_CURSOR']);
    }
    for (const limit of ['0', 'ten']) {
      const res = await request(ctx.app).get('/api/v1/api-keys').query({ limit }).set(bearer(buyer.token));
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  it("lists only the caller's keys", async () => {
    const [mine, theirs] = [await createBuyer(ctx), await createBuyer(ctx)];
    const key = await createKey(mine.token);
    await createKey(theirs.token);
    expect((await api().get('/api-keys', mine.token)).body.apiKeys.map((k: { id: string }) => k.id)).toEqual([key.id]);
  });
});

describe('DELETE /api-keys/:id', () => {
  it('revokes: 204, the key gets 401 at once, the row stays with revokedAt', async () => {
    const buyer = await createBuyer(ctx);
    const key = await createKey(buyer.token);
    expect((await api().get('/tasks', key.secret)).status).toBe(200);
    const res = await api().delete(`/api-keys/${key.id}`, buyer.token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const refused = await api().get('/tasks', key.secret);
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await ctx.prisma.buyerApiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeInstanceOf(Date);
  });

  it("answers 404 API_KEY_NOT_FOUND for an unknown, malformed, another buyer's or already revoked key, changing nothing", async () => {
    const [buyer, other] = [await createBuyer(ctx), await createBuyer(ctx)];
    const theirs = await createKey(other.token);
    const mine = await createKey(buyer.token);
    expect((await api().delete(`/api-keys/${mine.id}`, buyer.token)).status).toBe(204);
    const ids = [`key_${newId()}`, newId(), 'abc', 'key_', 'x'.repeat(200), '%FF', '%00', theirs.id, mine.id];
    for (const id of ids) {
      const res = await api().delete(`/api-keys/${id}`, buyer.token);
      expect([res.status, res.body.code], id).toEqual([404, 'API_KEY_NOT_FOUND']);
    }
    expect((await api().get('/auth/me', theirs.secret)).status).toBe(200);
  });
});

describe('a buyer API key', () => {
  let buyer: TestBuyer;
  let key: CreatedKey;
  beforeAll(async () => {
    buyer = await createFundedBuyer(ctx, adminToken, 10_000);
    key = await createKey(buyer.token);
  });

  it('acts as its buyer on the buyer routes: tasks, batch and CSV, lists, balance, ledger, projects, webhooks, events', async () => {
    const task = await api().post('/tasks', key.secret, { type: 'BINARY_CHOICE', content: 'Is the sky blue?', options: ['yes', 'no'] });
    expect(task.status).toBe(201);
    const batch = await api().post('/tasks/batch', key.secret, { tasks: [{ type: 'BINARY_CHOICE', content: 'Batch', options: ['a', 'b'] }] });
    expect([batch.status, batch.body.created]).toEqual([201, 1]);
    const csv = await request(ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(key.secret))
      .attach('file', Buffer.from('type,content,options\nBINARY_CHOICE,From a CSV,yes|no\n'), { filename: 'tasks.csv', contentType: 'text/csv' });
    expect([csv.status, csv.body.created]).toEqual([201, 1]);

    // The same tasks, whether listed with the key or with the password session.
    const withKey = await api().get('/tasks', key.secret);
    const withJwt = await api().get('/tasks', buyer.token);
    expect(withKey.status).toBe(200);
    expect(withKey.body.tasks.map((t: { id: string }) => t.id)).toEqual(withJwt.body.tasks.map((t: { id: string }) => t.id));
    expect(withKey.body.tasks.map((t: { id: string }) => t.id)).toContain(task.body.taskId);
    expect((await api().get(`/tasks/${task.body.taskId}`, key.secret)).body.id).toBe(task.body.taskId);

    const me = await api().get('/auth/me', key.secret);
    expect(me.body.buyer).toMatchObject({ id: buyer.id, creditBalance: 10_000, reservedCents: 60, availableCents: 9_940 });
    const ledger = await api().get('/billing/ledger', key.secret);
    expect([ledger.status, ledger.body.entries.length]).toEqual([200, 1]);

    const project = await api().post('/projects', key.secret, { name: 'Made with a key' });
    expect(project.status).toBe(201);
    const webhook = await api().post('/webhooks/configs', key.secret, {
      url: 'http://127.0.0.1:9/hook',
      events: ['task.completed'],
      secret: 'sixteen-characters',
    });
    expect(webhook.status).toBe(201);
    expect((await ctx.prisma.webhookConfig.findUniqueOrThrow({ where: { id: webhook.body.id } })).buyerId).toBe(buyer.id);
    expect((await api().get('/webhooks/configs', key.secret)).body.webhooks).toHaveLength(1);
    expect((await api().get('/events', key.secret)).status).toBe(200);
    expect((await api().get('/golden-tasks', key.secret)).status).toBe(200);
    expect((await api().get('/billing/deposits', key.secret)).status).toBe(200);
  });

  it('is refused with 403 FORBIDDEN on account management (change-password and the API-key routes), changing nothing', async () => {
    const before = await liveKeys(buyer.id);
    const attempts = [
      api().post('/auth/change-password', key.secret, { currentPassword: PASSWORD, newPassword: 'stolen key password' }),
      api().post('/api-keys', key.secret, { name: 'minted by a leaked key' }),
      api().get('/api-keys', key.secret),
      api().delete(`/api-keys/${key.id}`, key.secret),
    ];
    for (const res of await Promise.all(attempts)) expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(await liveKeys(buyer.id)).toBe(before);
    expect((await request(ctx.app).post('/api/v1/auth/login').send({ email: buyer.email, password: PASSWORD })).status).toBe(200);
    expect((await api().get('/auth/me', key.secret)).status).toBe(200);
  });

  it('is refused with 403 on developer and admin routes', async () => {
    expect((await api().get('/admin/buyers', key.secret)).status).toBe(403);
    expect((await api().get('/sdk/tasks/next?annotatorId=a', key.secret)).status).toBe(403);
    expect((await api().post('/auth/regenerate-api-key', key.secret)).status).toBe(403);
  });

  it('survives a password change, while the JWTs issued before it stop working', async () => {
    const owner = await createBuyer(ctx);
    const ownerKey = await createKey(owner.token);
    const changed = await api().post('/auth/change-password', owner.token, { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(changed.status).toBe(200);
    expect((await api().get('/auth/me', owner.token)).status).toBe(401);
    expect((await api().get('/auth/me', ownerKey.secret)).body.buyer.id).toBe(owner.id);
    expect((await api().get('/api-keys', changed.body.token)).body.apiKeys.map((k: { id: string }) => k.id)).toEqual([ownerKey.id]);
  });

  it("gets 401 while its buyer's account is disabled", async () => {
    const owner = await createBuyer(ctx);
    const ownerKey = await createKey(owner.token);
    await ctx.prisma.account.update({ where: { id: owner.id }, data: { isActive: false } });
    const refused = await api().get('/tasks', ownerKey.secret);
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
    await ctx.prisma.account.update({ where: { id: owner.id }, data: { isActive: true } });
    expect((await api().get('/tasks', ownerKey.secret)).status).toBe(200);
  });

  it('gets 401 UNAUTHORIZED when unknown, tampered, of the other mode or malformed', async () => {
    const flip = (c: string) => (c === 'a' ? 'b' : 'a');
    const tampered = `${key.secret.slice(0, -1)}${flip(key.secret.at(-1) ?? 'a')}`;
    const otherMode = key.secret.replace('cnc_test_', 'cnc_live_');
    const unknown = `cnc_test_${'A'.repeat(43)}`;
    for (const credential of [tampered, otherMode, unknown, key.secret.slice(0, -1), `${key.secret}x`, key.prefix, key.id]) {
      const res = await api().get('/tasks', credential);
      expect([res.status, res.body.code], credential).toEqual([401, 'UNAUTHORIZED']);
    }
  });

  it('records its last use at most about once a minute', async () => {
    const owner = await createBuyer(ctx);
    const fresh = await createKey(owner.token);
    const lastUsed = async () => (await ctx.prisma.buyerApiKey.findUniqueOrThrow({ where: { id: fresh.id } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const before = Date.now();
    expect((await api().get('/tasks', fresh.secret)).status).toBe(200);
    const first = await lastUsed();
    expect(first?.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    const listed = await api().get('/api-keys', owner.token);
    expect(listed.body.apiKeys[0].lastUsedAt).toBe(first?.toISOString());

    // 30 seconds ago: recent, so a use writes nothing.
    const recent = new Date(Date.now() - 30_000);
    await ctx.prisma.buyerApiKey.update({ where: { id: fresh.id }, data: { lastUsedAt: recent } });
    expect((await api().get('/tasks', fresh.secret)).status).toBe(200);
    expect(await lastUsed()).toEqual(recent);
    // Two minutes ago: stale, so the next use records itself.
    await ctx.prisma.buyerApiKey.update({ where: { id: fresh.id }, data: { lastUsedAt: new Date(Date.now() - 120_000) } });
    expect((await api().get('/tasks', fresh.secret)).status).toBe(200);
    expect((await lastUsed())?.getTime()).toBeGreaterThanOrEqual(before - 1_000);
  });
});

describe('the API-key routes with other credentials', () => {
  it('refuse a developer API key, a developer JWT and an admin JWT with 403 FORBIDDEN', async () => {
    const developer = await createDeveloper(ctx, adminToken);
    const developerJwt = ctx.services.tokens.sign({ sub: developer.id, role: 'DEVELOPER', tv: 0 });
    for (const credential of [developer.apiKey, developerJwt, adminToken]) {
      for (const res of [
        await api().post('/api-keys', credential, { name: 'nope' }),
        await api().get('/api-keys', credential),
        await api().delete(`/api-keys/key_${newId()}`, credential),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
      }
    }
  });

  it('refuse a missing or invalid credential with 401', async () => {
    expect((await request(ctx.app).get('/api/v1/api-keys')).status).toBe(401);
    expect((await api().post('/api-keys', 'not-a-credential', { name: 'x' })).status).toBe(401);
  });

  it('are documented with 403 for keys, and buyer routes accept the buyerApiKey scheme', async () => {
    const doc = (await request(ctx.app).get('/api/v1/openapi.json')).body;
    expect(doc.components.securitySchemes.buyerApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api-keys'].post.security).toEqual([{ jwt: [] }]);
    expect(doc.paths['/api-keys'].post.responses['403'].description).toMatch(/buyer API key/);
    expect(doc.paths['/api-keys/{id}'].delete.responses['404'].description).toMatch(/^API_KEY_NOT_FOUND/);
    expect(doc.paths['/auth/change-password'].post.security).toEqual([{ jwt: [] }]);
    expect(doc.paths['/tasks'].post.security).toEqual([{ jwt: [] }, { buyerApiKey: [] }]);
    expect(doc.paths['/auth/me'].get.security).toEqual([{ jwt: [] }, { buyerApiKey: [] }]);
    expect(doc.paths['/sdk/tasks/next'].get.security).toEqual([{ apiKey: [] }]);
  });
});

describe('revocation across server processes', () => {
  let shared: TestContext;
  let server: ServerProcess;
  beforeAll(async () => {
    // This process's app and a separate server process (node + tsx) on one database of their own.
    shared = await createIsolatedTestContext();
    server = await spawnServer(shared.databaseUrl);
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await shared?.close();
  });

  const fetchTasks = (secret: string) => fetch(`${server.url}/api/v1/tasks`, { headers: { authorization: `Bearer ${secret}` } });
  const fetchRevoke = (token: string, id: string) =>
    fetch(`${server.url}/api/v1/api-keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });

  it('a key revoked through one process is refused by the other on the very next request, both ways', async () => {
    const buyer = await createBuyer(shared);
    const first = await createKey(buyer.token, 'first', shared.app);
    const second = await createKey(buyer.token, 'second', shared.app);

    // Revoked here, refused there: the other process has just accepted the key.
    expect((await fetchTasks(first.secret)).status).toBe(200);
    expect((await api(shared.app).delete(`/api-keys/${first.id}`, buyer.token)).status).toBe(204);
    const there = await fetchTasks(first.secret);
    expect(there.status).toBe(401);
    expect(await there.json()).toMatchObject({ code: 'UNAUTHORIZED' });

    // Revoked there, refused here.
    expect((await api(shared.app).get('/tasks', second.secret)).status).toBe(200);
    expect((await fetchRevoke(buyer.token, second.id)).status).toBe(204);
    const here = await api(shared.app).get('/tasks', second.secret);
    expect([here.status, here.body.code]).toEqual([401, 'UNAUTHORIZED']);
  });
});
