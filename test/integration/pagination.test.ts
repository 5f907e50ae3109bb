// Every collection is cursor-paginated (contract §4): limit 1–100 (default 20, above 100 read as 100,
// non-numeric or below 1 → VALIDATION_ERROR), an opaque cursor (INVALID_CURSOR when not ours), and
// following nextCursor visits every item exactly once.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { decisionUpdates } from '../../src/modules/settlement/plan.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';

let ctx: TestContext;
let admin: string;
let buyer: TestBuyer;
let developer: TestDeveloper;
let hooked: TestBuyer;
let hookedConfigId: string;
const annotatorId = 'paged-annotator';
const N = 5;

beforeAll(async () => {
  // Its own database, so the admin lists hold exactly what this file creates.
  ctx = await createIsolatedTestContext();
  admin = (await createAdmin(ctx)).token;
  buyer = await createBuyer(ctx, 'Paged Company');
  for (let i = 1; i < N - 1; i++) await createBuyer(ctx, `Other ${i}`);
  developer = await createDeveloper(ctx, admin);
  for (let i = 1; i < N; i++) await createDeveloper(ctx, admin);
  const as = (token: string) => ({ post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(token)).send(body) });
  const record = await ctx.services.db.repos.annotators.ensure(developer.id, annotatorId, ctx.services.clock.now());
  await ctx.prisma
    .$executeRaw`SELECT apply_decision('test-task', ${JSON.stringify(decisionUpdates([{ annotatorId: record.id, answered: 0, resolved: 0, agreed: 0, earnedCents: 500 * N }]))}::jsonb)`;
  for (let i = 0; i < N; i++) {
    expect((await as(buyer.token).post('/projects', { name: `P${i}` })).status).toBe(201);
    expect((await as(buyer.token).post('/golden-tasks', { type: 'BINARY_CHOICE', content: `G${i}`, options: ['a', 'b'], goldenAnswer: 'a' })).status).toBe(201);
    expect(
      (await as(buyer.token).post('/webhooks/configs', { url: `http://127.0.0.1:9/h${i}`, events: ['task.completed'], secret: 'sixteen-characters' })).status,
    ).toBe(201);
    expect(
      (await as(developer.apiKey).post(`/sdk/annotators/${annotatorId}/payouts`, { amountCents: 500, method: 'paypal', destination: 'x@example.test' })).status,
    ).toBe(201);
  }
  // The N-th buyer, with a delivery log of N: each fall of its balance below 500 cents is one budget.low delivery.
  hooked = await createBuyer(ctx, 'Hooked Company');
  const config = await as(hooked.token).post('/webhooks/configs', { url: 'http://127.0.0.1:9/low', events: ['budget.low'], secret: 'sixteen-characters' });
  expect(config.status).toBe(201);
  hookedConfigId = config.body.id;
  expect((await as(admin).post(`/admin/buyers/${hooked.id}/credits`, { amountCents: 600, reason: 'page' })).status).toBe(201);
  for (let i = 0; i < N; i++) {
    for (const amountCents of [-200, 200])
      expect((await as(admin).post(`/admin/buyers/${hooked.id}/credits`, { amountCents, reason: 'page' })).status).toBe(201);
  }
});
afterAll(() => ctx.close());

const lists = [
  { name: '/projects', key: 'projects', path: () => '/projects', token: () => buyer.token },
  { name: '/golden-tasks', key: 'goldenTasks', path: () => '/golden-tasks', token: () => buyer.token },
  { name: '/webhooks/configs', key: 'webhooks', path: () => '/webhooks/configs', token: () => buyer.token },
  { name: '/webhooks/configs/:id/deliveries', key: 'deliveries', path: () => `/webhooks/configs/${hookedConfigId}/deliveries`, token: () => hooked.token },
  { name: '/sdk/annotators/:annotatorId/payouts', key: 'payouts', path: () => `/sdk/annotators/${annotatorId}/payouts`, token: () => developer.apiKey },
  { name: '/admin/payouts', key: 'payouts', path: () => '/admin/payouts', token: () => admin },
  { name: '/admin/developers', key: 'developers', path: () => '/admin/developers', token: () => admin },
  { name: '/admin/buyers', key: 'buyers', path: () => '/admin/buyers', token: () => admin },
];

const get = (path: string, token: string, query: Record<string, string> = {}) => request(ctx.app).get(`/api/v1${path}`).query(query).set(bearer(token));

describe.each(lists)('GET $name', ({ key, path: pathOf, token }) => {
  it(`walks all ${N} items two at a time, each once, with nextCursor and hasMore`, async () => {
    const path = pathOf();
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
    const path = pathOf();
    const garbage = await get(path, token(), { cursor: 'bm90LW91cnM' });
    expect([garbage.status, garbage.body.code]).toEqual([400, 'INVALID_CURSOR']);
    for (const limit of ['0', 'abc', '-1', '1.5']) {
      const res = await get(path, token(), { limit });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    const large = await get(path, token(), { limit: '1000' });
    expect(large.status).toBe(200);
    expect(large.body[key]).toHaveLength(N);
  });
});

describe('a limit above 100', () => {
  it('is read as 100', async () => {
    const many = await createBuyer(ctx, 'Many Projects');
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    await ctx.prisma.project.createMany({
      data: Array.from({ length: 105 }, (_, i) => ({ id: newId(), buyerId: many.id, name: `Bulk ${i}`, createdAt: new Date(start + i * 1000) })),
    });
    const page = await get('/projects', many.token, { limit: '1000' });
    expect(page.status).toBe(200);
    expect(page.body.projects).toHaveLength(100);
    expect(page.body.hasMore).toBe(true);
    const rest = await get('/projects', many.token, { limit: '1000', cursor: page.body.nextCursor });
    expect(rest.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(rest.body.projects).toHaveLength(5);
  });
});

describe('the OpenAPI document', () => {
  it('declares nextCursor and hasMore on every collection it lists', async () => {
    const doc = (await request(ctx.app).get('/api/v1/openapi.json')).body as OpenApi;
    const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').at(-1) ?? ''] : schema);
    const collections: string[] = [];
    const reports: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      const body = resolve(operations.get?.responses['200']?.content?.['application/json']?.schema);
      if (Object.values(body?.properties ?? {}).some((property) => resolve(property)?.maxItems !== undefined)) reports.push(path);
      // An array whose schema bounds its length (maxItems: a report's days, a distribution's buckets) is not a collection.
      const arrays = Object.values(body?.properties ?? {}).filter(
        (property) => resolve(property)?.type === 'array' && resolve(property)?.maxItems === undefined,
      );
      // A single resource (its path ends in its id) may hold arrays (a task's options); a list is what is left.
      if (arrays.length === 0 || path.endsWith('}')) continue;
      collections.push(path);
      expect(Object.keys(body?.properties ?? {}), path).toEqual(expect.arrayContaining(['nextCursor', 'hasMore']));
      expect(
        operations.get?.parameters?.map((parameter) => parameter.name),
        path,
      ).toEqual(expect.arrayContaining(['limit', 'cursor']));
    }
    expect(reports.sort()).toEqual([
      '/admin/stats/daily',
      '/billing/caps',
      '/billing/spend',
      '/invitations',
      '/members',
      '/meta',
      '/organisations',
      '/projects/{id}/distribution',
      '/projects/{id}/pairwise',
      '/projects/{id}/quality',
      '/quality/option-sets',
    ]);
    expect(collections).toEqual(
      expect.arrayContaining([
        '/events',
        '/admin/annotators',
        '/admin/mail-outbox',
        '/projects',
        '/golden-tasks',
        '/webhooks/configs',
        '/webhooks/configs/{id}/deliveries',
        '/admin/developers',
        '/admin/buyers',
        '/admin/payouts',
      ]),
    );
  });
});

interface Schema {
  $ref?: string;
  type?: string;
  maxItems?: number;
  properties?: Record<string, Schema>;
}
interface OpenApi {
  paths: Record<string, { get?: { parameters?: Array<{ name: string }>; responses: Record<string, { content?: Record<string, { schema?: Schema }> }> } }>;
  components: { schemas: Record<string, Schema> };
}

describe('GET /admin/buyers?q=', () => {
  it('matches the company name or the e-mail, ignoring case', async () => {
    const byCompany = await get('/admin/buyers', admin, { q: 'paged comp' });
    expect(byCompany.body.buyers.map((b: { id: string }) => b.id)).toEqual([buyer.id]);
    const byEmail = await get('/admin/buyers', admin, { q: buyer.email.toUpperCase() });
    expect(byEmail.body.buyers.map((b: { id: string }) => b.id)).toEqual([buyer.id]);
    expect((await get('/admin/buyers', admin, { q: 'nobody-has-this' })).body.buyers).toEqual([]);
  });

  it('matches % and _ literally, not as wildcards', async () => {
    expect((await get('/admin/buyers', admin, { q: '%' })).body.buyers).toEqual([]);
    expect((await get('/admin/buyers', admin, { q: 'paged_comp' })).body.buyers).toEqual([]);
  });
});
