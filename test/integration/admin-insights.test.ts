import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createIsolatedTestContext, createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, uniqueEmail, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const DAY_MS = 86_400_000;

let ctx: TestContext;
let adminToken: string;
let developer: TestDeveloper;
let buyer: TestBuyer;
beforeAll(async () => {
  // Its own database: these routes are platform-wide, so every row they count is this file's.
  ctx = await createIsolatedTestContext();
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
  buyer = await createBuyer(ctx);
  await fundBuyer(ctx, adminToken, buyer.id, 10_000);
});
afterAll(() => ctx.close());

const admin = (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(adminToken));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const todayStart = () => Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());

/** A task row in a final state at chosen moments (the routes write only "now"). */
async function insertTask(fields: { createdAt: number; status: 'COMPLETED' | 'FAILED'; at: number }): Promise<string> {
  const id = newId();
  const { createdAt, status, at } = fields;
  await ctx.prisma.task.create({
    data: {
      id,
      buyerId: buyer.id,
      type: 'BINARY_CHOICE',
      content: 'Cat?',
      options: ['yes', 'no'],
      maxCents: 20,
      costCents: 20,
      validationsNeeded: 3,
      maxResponses: 10,
      status,
      totalResponses: 3,
      createdAt: new Date(createdAt),
      ...(status === 'COMPLETED' ? { result: 'yes', confidence: 0.95, validatedAt: new Date(at) } : { failureReason: 'NO_CONSENSUS', failedAt: new Date(at) }),
    },
  });
  return id;
}

function expectAdminOnly(path: string) {
  it(`${path}: 401 without a credential, 403 for a buyer or a developer, 405 for POST`, async () => {
    expect((await request(ctx.app).get(`/api/v1${path}`)).body.code).toBe('UNAUTHORIZED');
    for (const token of [buyer.token, developer.apiKey]) {
      const res = await request(ctx.app).get(`/api/v1${path}`).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    const posted = await request(ctx.app).post(`/api/v1${path}`).set(bearer(adminToken)).send({});
    expect(posted.status).toBe(405);
    expect(posted.body.code).toBe('METHOD_NOT_ALLOWED');
  });
}

describe('GET /admin/stats/daily', () => {
  beforeAll(async () => {
    // Today, through the API: a task created, and one annotator's answers — the first to a golden task
    // (served first to an annotator who has answered none), which is not counted, then to the task.
    expect(
      (
        await request(ctx.app)
          .post('/api/v1/golden-tasks')
          .set(bearer(buyer.token))
          .send({ type: 'BINARY_CHOICE', content: 'g', options: ['yes', 'no'], goldenAnswer: 'yes' })
      ).status,
    ).toBe(201);
    expect(
      (
        await request(ctx.app)
          .post('/api/v1/tasks')
          .set(bearer(buyer.token))
          .send({ type: 'BINARY_CHOICE', content: 'Cat?', options: ['yes', 'no'] })
      ).status,
    ).toBe(201);
    const client = sdk(ctx, developer.apiKey);
    await client.answerNext('daily-annotator', 'yes');
    await client.answerNext('daily-annotator', 'yes');
    expect(await ctx.prisma.goldenResponse.count()).toBe(1);
    // Earlier days, written directly.
    const today = todayStart();
    const completed = await insertTask({ createdAt: today - 2 * DAY_MS + 1, status: 'COMPLETED', at: today - DAY_MS + 5 });
    await insertTask({ createdAt: today - 2 * DAY_MS, status: 'FAILED', at: today - DAY_MS - 1 });
    await insertTask({ createdAt: today - 2 * DAY_MS - 1, status: 'FAILED', at: today - 2 * DAY_MS - 1 });
    const annotator = await ctx.prisma.annotator.findFirstOrThrow({ where: { externalId: 'daily-annotator' } });
    await ctx.prisma.taskResponse.create({
      data: { id: newId(), taskId: completed, annotatorId: annotator.id, answer: 'yes', timeSpentMs: 10, createdAt: new Date(today - DAY_MS) },
    });
  });

  it('counts tasks created, completed (by validatedAt), failed (by failedAt) and answers per UTC day, golden answers excluded', async () => {
    const res = await admin('/admin/stats/daily?days=3');
    expect(res.status).toBe(200);
    const today = todayStart();
    expect(res.body).toEqual({
      days: [
        { date: isoDay(today - 2 * DAY_MS), created: 2, completed: 0, failed: 1, answers: 0 },
        { date: isoDay(today - DAY_MS), created: 0, completed: 1, failed: 0, answers: 1 },
        { date: isoDay(today), created: 1, completed: 0, failed: 0, answers: 1 },
      ],
    });
  });

  it('covers the last 30 days by default, oldest first, every day present', async () => {
    const res = await admin('/admin/stats/daily');
    expect(res.status).toBe(200);
    expect(res.body.days.map((day: { date: string }) => day.date)).toEqual(Array.from({ length: 30 }, (_, i) => isoDay(todayStart() - (29 - i) * DAY_MS)));
    expect(res.body.days[26]).toEqual({ date: isoDay(todayStart() - 3 * DAY_MS), created: 1, completed: 0, failed: 1, answers: 0 });
    expect((await admin('/admin/stats/daily?days=366')).body.days).toHaveLength(366);
  });

  it.each(['days=0', 'days=367', 'days=2.5', 'days=ten', 'from=2026-01-01'])('returns 400 VALIDATION_ERROR for %s', async (query) => {
    const res = await admin(`/admin/stats/daily?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  expectAdminOnly('/admin/stats/daily');
});

describe('GET /admin/annotators', () => {
  let other: { id: string; apiKey: string };
  beforeAll(async () => {
    const created = await request(ctx.app)
      .post('/api/v1/admin/developers')
      .set(bearer(adminToken))
      .send({ email: uniqueEmail('dev'), appName: 'Other App', appUrl: 'https://other.example.test' });
    expect(created.status).toBe(201);
    other = created.body.developer;
    const ensure = (developerId: string, externalId: string) => ctx.services.db.repos.annotators.ensure(developerId, externalId, ctx.services.clock.now());
    const alice = await ensure(developer.id, 'Alice_01');
    const bob = await ensure(developer.id, 'bob.smith');
    await ensure(other.id, 'ALICE-x');
    await ctx.prisma.annotator.update({
      where: { id: alice.id },
      data: { totalResponses: 45, resolvedResponses: 40, agreedResponses: 36, goldenAnswered: 10, goldenCorrect: 9 },
    });
    await ctx.prisma.annotator.update({ where: { id: bob.id }, data: { totalResponses: 12, goldenAnswered: 10, goldenCorrect: 2, suspended: true } });
  });

  const ids = async (query: string) => (await admin(`/admin/annotators?${query}`)).body.annotators.map((a: { annotatorId: string }) => a.annotatorId);

  it("lists every app's annotators, newest first, with live figures and the reputation route's level and reliability", async () => {
    const res = await admin('/admin/annotators');
    expect(res.status).toBe(200);
    expect(res.body.annotators.map((a: { annotatorId: string }) => a.annotatorId)).toEqual(['ALICE-x', 'bob.smith', 'Alice_01', 'daily-annotator']);
    const alice = res.body.annotators[2];
    expect(alice).toEqual({
      developerId: developer.id,
      appName: 'Label App',
      annotatorId: 'Alice_01',
      level: 'BRONZE',
      reliability: 0.85,
      suspended: false,
      totalResponses: 45,
      resolvedResponses: 40,
      goldenAnswered: 10,
      goldenAccuracy: 0.9,
      createdAt: expect.stringMatching(/\.\d{3}Z$/),
    });
    expect(res.body.annotators[0]).toMatchObject({ developerId: other.id, appName: 'Other App', level: 'NOVICE', reliability: 0.7, goldenAccuracy: null });
    const reputation = await sdk(ctx, developer.apiKey).get('/annotators/Alice_01/reputation');
    expect(reputation.body).toMatchObject({ level: alice.level, reliability: alice.reliability, goldenAccuracy: alice.goldenAccuracy });
  });

  it('filters by suspension, and the reinstate route moves an annotator from one list to the other', async () => {
    expect(await ids('suspended=true')).toEqual(['bob.smith']);
    expect(await ids('suspended=false')).toEqual(['ALICE-x', 'Alice_01', 'daily-annotator']);
    const reinstated = await request(ctx.app).post(`/api/v1/admin/annotators/${developer.id}/bob.smith/reinstate`).set(bearer(adminToken)).send({});
    expect(reinstated.status).toBe(200);
    expect(await ids('suspended=true')).toEqual([]);
    expect(await ids('suspended=false')).toContain('bob.smith');
    await ctx.prisma.annotator.updateMany({ where: { externalId: 'bob.smith' }, data: { suspended: true } });
  });

  it("matches q against the app's annotator id, in any case, as literal text", async () => {
    expect(await ids('q=alice')).toEqual(['ALICE-x', 'Alice_01']);
    expect(await ids('q=E_0')).toEqual(['Alice_01']);
    expect(await ids('q=_')).toEqual(['Alice_01']);
    expect(await ids('q=.')).toEqual(['bob.smith']);
    expect(await ids('q=alice&suspended=true')).toEqual([]);
    expect(await ids('q=nobody')).toEqual([]);
  });

  it('pages with limit and cursor, like the other lists', async () => {
    const first = await admin('/admin/annotators?limit=3');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await admin(`/admin/annotators?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.body.annotators, ...second.body.annotators].map((a: { annotatorId: string }) => a.annotatorId)).toEqual(await ids(''));
    const bad = await admin('/admin/annotators?cursor=bm90LW91cnM');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CURSOR');
  });

  it.each(['suspended=yes', 'suspended=', 'q=', 'q=%20%20', `q=${'a'.repeat(129)}`, 'limit=0', 'developerId=x'])(
    'returns 400 VALIDATION_ERROR for %s',
    async (query) => {
      const res = await admin(`/admin/annotators?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  expectAdminOnly('/admin/annotators');
});

describe('GET /admin/mail-outbox', () => {
  it('lists the mail newest first, with the text and its absolute links, so an invite can be followed without SMTP', async () => {
    const newcomer = uniqueEmail('newcomer');
    const invited = await request(ctx.app)
      .post('/api/v1/admin/developers')
      .set(bearer(adminToken))
      .send({ email: newcomer, appName: 'New App', appUrl: 'https://new.example.test' });
    expect(invited.status).toBe(201);
    const res = await admin('/admin/mail-outbox?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    const [invite] = res.body.messages;
    expect(invite).toEqual({
      id: expect.any(String),
      kind: 'DEVELOPER_INVITE',
      to: newcomer,
      subject: 'Your Concord developer account',
      text: expect.stringContaining('"token": "'),
      links: [expect.stringMatching(/^http:\/\/concord\.test\/developer\/setup#token=[\w-]+$/)],
      status: 'PENDING',
      createdAt: expect.stringMatching(/\.\d{3}Z$/),
      sentAt: null,
    });
    // Every link is absolute, on the service, and in the text as sent.
    for (const link of invite.links as string[]) {
      expect(link.startsWith('http://concord.test/')).toBe(true);
      expect(invite.text).toContain(link);
    }
    const welcome = res.body.messages.find((message: { to: string }) => message.to === buyer.email);
    expect(welcome).toMatchObject({ kind: 'WELCOME', links: ['http://concord.test/docs'] });
    const createdAt = res.body.messages.map((message: { createdAt: string }) => message.createdAt);
    expect(createdAt).toEqual([...createdAt].sort().reverse());
  });

  it('shows when a message was sent', async () => {
    const [latest] = (await admin('/admin/mail-outbox?limit=1')).body.messages;
    const sentAt = new Date();
    await ctx.services.db.repos.mail.markSent(latest.id, sentAt);
    const [again] = (await admin('/admin/mail-outbox?limit=1')).body.messages;
    expect(again).toMatchObject({ id: latest.id, status: 'SENT', sentAt: sentAt.toISOString() });
  });

  it('pages with limit and cursor, like the other lists', async () => {
    const first = await admin('/admin/mail-outbox?limit=2');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.messages).toHaveLength(2);
    const second = await admin(`/admin/mail-outbox?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.messages[0].id).toBe((await admin('/admin/mail-outbox?limit=3')).body.messages[2].id);
    const bad = await admin('/admin/mail-outbox?cursor=garbage');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CURSOR');
  });

  it.each(['limit=0', 'limit=many', 'status=SENT'])('returns 400 VALIDATION_ERROR for %s', async (query) => {
    const res = await admin(`/admin/mail-outbox?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  expectAdminOnly('/admin/mail-outbox');

  it('does not exist in production: 404 NOT_FOUND exactly like an unknown route, for every caller and method', async () => {
    const production = createTestContext({ env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'true' } });
    try {
      const token = (await createAdmin(production)).token;
      const unknown = await request(production.app).get('/api/v1/admin/mail-outbox-nope').set(bearer(token));
      for (const pending of [
        request(production.app).get('/api/v1/admin/mail-outbox').set(bearer(token)),
        request(production.app).get('/api/v1/admin/mail-outbox?limit=1'),
        request(production.app).post('/api/v1/admin/mail-outbox').set(bearer(token)).send({}),
      ]) {
        const res = await pending;
        expect(res.status).toBe(unknown.status);
        expect(res.body).toEqual({ error: expect.stringMatching(/^No route (GET|POST) \/api\/v1\/admin\/mail-outbox$/), code: 'NOT_FOUND' });
        expect(res.headers.allow).toBeUndefined();
      }
      expect(unknown.body.code).toBe('NOT_FOUND');
      const documented = (app: TestContext['app']) =>
        request(app)
          .get('/api/v1/openapi.json')
          .then((res) => Object.keys(res.body.paths));
      expect(await documented(production.app)).not.toContain('/admin/mail-outbox');
      expect(await documented(ctx.app)).toContain('/admin/mail-outbox');
    } finally {
      await production.close();
    }
  });
});
