// Every collection is cursor-paginated (contract §4): limit 1–100 (default 20, above 100 read as 100,
// non-numeric or below 1 → VALIDATION_ERROR), an opaque cursor (INVALID_CURSOR when not ours), and
// following nextCursor visits every item exactly once.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionUpdates } from '../../src/modules/annotation/annotators.repository.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';

let ctx: TestContext;
let admin: string;
let buyer: TestBuyer;
let developer: TestDeveloper;
const annotatorId = 'paged-annotator';
const N = 5;

beforeAll(async () => {
  // Its own database, so the admin lists hold exactly what this file creates.
  ctx = await createIsolatedTestContext();
  admin = (await createAdmin(ctx)).token;
  buyer = await createBuyer(ctx, 'Paged Company');
  for (let i = 1; i < N; i++) await createBuyer(ctx, `Other ${i}`);
  developer = await createDeveloper(ctx, admin);
  for (let i = 1; i < N; i++) await createDeveloper(ctx, admin);
  const as = (token: string) => ({ post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(token)).send(body) });
  const record = await ctx.services.db.repos.annotators.ensure(developer.id, annotatorId);
  await ctx.prisma.$executeRaw`SELECT apply_decision('test-task', ${JSON.stringify(decisionUpdates([{ annotatorId: record.id, answered: 0, resolved: 0, agreed: 0, earnedCents: 500 * N }]))}::jsonb)`;
  for (let i = 0; i < N; i++) {
    expect((await as(buyer.token).post('/projects', { name: `P${i}` })).status).toBe(201);
    expect((await as(buyer.token).post('/golden-tasks', { type: 'BINARY_CHOICE', content: `G${i}`, options: ['a', 'b'], goldenAnswer: 'a' })).status).toBe(201);
    expect((await as(buyer.token).post('/webhooks/configs', { url: `http://127.0.0.1:9/h${i}`, events: ['task.completed'], secret: 'sixteen-characters' })).status).toBe(201);
    expect((await as(developer.apiKey).post(`/sdk/annotators/${annotatorId}/payouts`, { amountCents: 500, method: 'paypal', destination: 'x@example.test' })).status).toBe(201);
  }
});
afterAll(() => ctx.close());

const lists = [
  { path: '/projects', key: 'projects', token: () => buyer.token },
  { path: '/golden-tasks', key: 'goldenTasks', token: () => buyer.token },
  { path: '/webhooks/configs', key: 'webhooks', token: () => buyer.token },
  { path: `/sdk/annotators/${annotatorId}/payouts`, key: 'payouts', token: () => developer.apiKey },
  { path: '/admin/payouts', key: 'payouts', token: () => admin },
  { path: '/admin/developers', key: 'developers', token: () => admin },
  { path: '/admin/buyers', key: 'buyers', token: () => admin },
];

const get = (path: string, token: string, query: Record<string, string> = {}) => request(ctx.app).get(`/api/v1${path}`).query(query).set(bearer(token));

describe.each(lists)('GET $path', ({ path, key, token }) => {
  it(`walks all ${N} items two at a time, each once, with nextCursor and hasMore`, async () => {
    const all = await get(path, token());
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ nextCursor: null, hasMore: false });
    const everything = (all.body[key] as Array<{ id: string }>).map((item) => item.id);
    expect(everything).toHaveLength(N);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await get(path, token(), { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      seen.push(...(page.body[key] as Array<{ id: string }>).map((item) => item.id));
      expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
      cursor = page.body.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(Math.ceil(N / 2));
    expect(seen).toEqual(everything);
  });

  it('refuses a cursor it did not produce, and a limit that is not a whole number from 1', async () => {
    expect((await get(path, token(), { cursor: 'bm90LW91cnM' })).body.code).toBe('INVALID_CURSOR');
    for (const limit of ['0', 'abc', '-1', '1.5']) {
      const res = await get(path, token(), { limit });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await get(path, token(), { limit: '1000' })).status).toBe(200);
  });
});

describe('GET /admin/buyers?q=', () => {
  it('matches the company name or the e-mail, ignoring case', async () => {
    const byCompany = await get('/admin/buyers', admin, { q: 'paged comp' });
    expect(byCompany.body.buyers.map((b: { id: string }) => b.id)).toEqual([buyer.id]);
    const byEmail = await get('/admin/buyers', admin, { q: buyer.email.toUpperCase() });
    expect(byEmail.body.buyers.map((b: { id: string }) => b.id)).toEqual([buyer.id]);
    expect((await get('/admin/buyers', admin, { q: 'nobody-has-this' })).body.buyers).toEqual([]);
  });
});
