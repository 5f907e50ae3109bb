// Idempotency-Key on every creating POST (contract §4), beyond the task routes (tasks-batch.test.ts):
// projects, golden tasks, webhook configs, deposits, SDK payouts, admin developer creation and credit
// adjustments. A repeat with the same key and body replays the first response and creates nothing; the
// same key with another body is 409 IDEMPOTENCY_KEY_REUSED; keys are per calling account.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionUpdates } from '../../src/modules/settlement/plan.ts';
import { idempotencyKeyDigest } from '../../src/modules/idempotency/idempotency.service.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';

let ctx: TestContext;
let admin: string;
let buyer: TestBuyer;
let otherBuyer: TestBuyer;
let developer: TestDeveloper;
beforeAll(async () => {
  ctx = createTestContext();
  admin = (await createAdmin(ctx)).token;
  buyer = await createBuyer(ctx);
  otherBuyer = await createBuyer(ctx);
  developer = await createDeveloper(ctx, admin);
});
afterAll(() => ctx.close());

/** An annotator of `developer` with `cents` earned, credited the way a completed task credits it. */
async function earner(cents: number): Promise<string> {
  const id = `earner-${Math.random().toString(36).slice(2)}`;
  const record = await ctx.services.db.repos.annotators.ensure(developer.id, id, ctx.services.clock.now());
  const updates = decisionUpdates([{ annotatorId: record.id, answered: 0, resolved: 0, agreed: 0, earnedCents: cents }]);
  await ctx.prisma.$executeRaw`SELECT apply_decision('test-task', ${JSON.stringify(updates)}::jsonb)`;
  return id;
}

interface Route {
  name: string;
  /** Sends the creation with `key` and a body made from `variant` (0 and 1 give different bodies). */
  send(key: string | undefined, variant: number, as?: 'other'): request.Test;
  /** How many things the route has created so far (for the caller the route is sent as). */
  count(): Promise<number>;
}

let annotatorId: string;
const routes: Route[] = [
  {
    name: 'POST /projects',
    send: (key, variant, as) =>
      withKey(
        request(ctx.app)
          .post('/api/v1/projects')
          .set(bearer((as ? otherBuyer : buyer).token)),
        key,
      ).send({ name: `Project ${variant}` }),
    count: () => ctx.prisma.project.count({ where: { buyerId: buyer.id } }),
  },
  {
    name: 'POST /golden-tasks',
    send: (key, variant, as) =>
      withKey(
        request(ctx.app)
          .post('/api/v1/golden-tasks')
          .set(bearer((as ? otherBuyer : buyer).token)),
        key,
      ).send({ type: 'BINARY_CHOICE', content: `Is ${variant} even?`, options: ['yes', 'no'], goldenAnswer: variant % 2 === 0 ? 'yes' : 'no' }),
    count: () => ctx.prisma.goldenTask.count({ where: { buyerId: buyer.id } }),
  },
  {
    name: 'POST /webhooks/configs',
    send: (key, variant, as) =>
      withKey(
        request(ctx.app)
          .post('/api/v1/webhooks/configs')
          .set(bearer((as ? otherBuyer : buyer).token)),
        key,
      ).send({ url: `http://127.0.0.1:9/hook-${variant}`, events: ['task.completed'], secret: 'a-secret-of-sixteen-chars' }),
    count: () => ctx.prisma.webhookConfig.count({ where: { buyerId: buyer.id } }),
  },
  {
    name: 'POST /billing/deposits',
    send: (key, variant, as) =>
      withKey(
        request(ctx.app)
          .post('/api/v1/billing/deposits')
          .set(bearer((as ? otherBuyer : buyer).token)),
        key,
      ).send({ amountCents: 1_000 + variant, method: 'card' }),
    count: () => ctx.prisma.deposit.count({ where: { buyerId: buyer.id } }),
  },
  {
    name: 'POST /sdk/annotators/:annotatorId/payouts',
    send: (key, variant) =>
      withKey(request(ctx.app).post(`/api/v1/sdk/annotators/${annotatorId}/payouts`).set(bearer(developer.apiKey)), key).send({
        amountCents: 500 + variant,
        method: 'paypal',
        destination: 'me@example.test',
      }),
    count: () => ctx.prisma.payout.count({ where: { annotator: { externalId: annotatorId } } }),
  },
  {
    name: 'POST /admin/developers',
    send: (key, variant) =>
      withKey(request(ctx.app).post('/api/v1/admin/developers').set(bearer(admin)), key).send({
        email: `idem-${(key ?? '').replace(/[^a-z0-9]/gi, '').slice(-24)}-${variant}@example.test`,
        appName: `App ${variant}`,
        appUrl: 'https://app.example.test',
      }),
    count: () => ctx.prisma.developer.count(),
  },
  {
    name: 'POST /admin/buyers/:id/credits',
    send: (key, variant) =>
      withKey(request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(admin)), key).send({
        amountCents: 1_000 + variant,
        reason: 'goodwill',
      }),
    count: () => ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id } }),
  },
];

function withKey(test: request.Test, key: string | undefined): request.Test {
  return key === undefined ? test : test.set('Idempotency-Key', key);
}

describe.each(routes)('Idempotency-Key on $name', (route) => {
  beforeAll(async () => {
    annotatorId = await earner(5_000);
  });

  it('replays the first response for the same key and body, and creates once', async () => {
    const key = `key-${route.name}-${Math.random()}`;
    const before = await route.count();
    const first = await route.send(key, 0);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await route.send(key, 0);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await route.count()).toBe(before + 1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body, creating nothing', async () => {
    const key = `reuse-${route.name}-${Math.random()}`;
    expect((await route.send(key, 0)).status).toBe(201);
    const before = await route.count();
    const reused = await route.send(key, 1);
    expect([reused.status, reused.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await route.count()).toBe(before);
  });

  it('refuses a key longer than 255 characters, creating nothing', async () => {
    const before = await route.count();
    const res = await route.send('k'.repeat(256), 1);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await route.count()).toBe(before);
  });
});

describe('idempotency keys across requests', () => {
  it('are per calling account: another buyer with the same key creates its own', async () => {
    const key = `shared-${Math.random()}`;
    const mine = await routes[0]?.send(key, 0);
    const theirs = await routes[0]?.send(key, 0, 'other');
    expect([mine?.status, theirs?.status]).toEqual([201, 201]);
    expect(theirs?.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs?.body.id).not.toBe(mine?.body.id);
  });

  it('include the path: the same key and body crediting another buyer is a different request', async () => {
    const key = `path-${Math.random()}`;
    const body = { amountCents: 700, reason: 'goodwill' };
    expect((await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(admin)).set('Idempotency-Key', key).send(body)).status).toBe(
      201,
    );
    const other = await request(ctx.app).post(`/api/v1/admin/buyers/${otherBuyer.id}/credits`).set(bearer(admin)).set('Idempotency-Key', key).send(body);
    expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('two concurrent requests with the same key create once', async () => {
    const key = `race-${Math.random()}`;
    const before = await ctx.prisma.project.count({ where: { buyerId: buyer.id } });
    const results = await Promise.all(Array.from({ length: 4 }, () => routes[0]?.send(key, 0)));
    expect(results.map((r) => r?.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r?.body.id)).size).toBe(1);
    expect(await ctx.prisma.project.count({ where: { buyerId: buyer.id } })).toBe(before + 1);
  });

  it('two concurrent credit adjustments with the same key move the money once', async () => {
    const key = `race-credit-${Math.random()}`;
    const before = await ctx.prisma.ledgerEntry.count({ where: { buyerId: otherBuyer.id } });
    const balance = (await ctx.prisma.buyer.findUniqueOrThrow({ where: { id: otherBuyer.id } })).creditBalance;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        request(ctx.app)
          .post(`/api/v1/admin/buyers/${otherBuyer.id}/credits`)
          .set(bearer(admin))
          .set('Idempotency-Key', key)
          .send({ amountCents: 300, reason: 'race' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    expect(await ctx.prisma.ledgerEntry.count({ where: { buyerId: otherBuyer.id } })).toBe(before + 1);
    expect((await ctx.prisma.buyer.findUniqueOrThrow({ where: { id: otherBuyer.id } })).creditBalance).toBe(balance + 300n);
  });

  it('are declared in the OpenAPI document of every creating POST, with 409 IDEMPOTENCY_KEY_REUSED', async () => {
    type Parameter = { $ref?: string; in?: string; name?: string; schema?: { maxLength?: number } };
    const doc = (await request(ctx.app).get('/api/v1/openapi.json')).body as {
      paths: Record<string, { post?: { parameters?: Parameter[]; responses: Record<string, unknown> } }>;
      components: { parameters: Record<string, Parameter> };
    };
    // The header is one reusable parameter, referenced by each route.
    const resolve = (parameter: Parameter) => (parameter.$ref ? (doc.components.parameters[parameter.$ref.split('/').at(-1) ?? ''] ?? parameter) : parameter);
    // Registration creates an account (its repeat is EMAIL_TAKEN) and an SDK answer's repeat is ALREADY_ANSWERED (contract §4).
    const exempt = ['/auth/register', '/sdk/tasks/{id}/complete'];
    const creating = Object.entries(doc.paths).filter(([path, operations]) => operations.post?.responses['201'] && !exempt.includes(path));
    expect(creating.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        '/tasks',
        '/tasks/batch',
        '/tasks/batch/csv',
        '/projects',
        '/golden-tasks',
        '/webhooks/configs',
        '/billing/deposits',
        '/sdk/annotators/{annotatorId}/payouts',
        '/admin/developers',
        '/admin/buyers/{id}/credits',
      ]),
    );
    for (const [path, operations] of creating) {
      const header = operations.post?.parameters?.map(resolve).find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
      expect(header?.schema?.maxLength, path).toBe(255);
      expect(operations.post?.responses, path).toHaveProperty('409');
    }
  });

  it('are stored so that the table reveals neither the key nor a secret the response carried (a new API key)', async () => {
    const key = `secret-${Math.random()}`;
    const send = () =>
      request(ctx.app)
        .post('/api/v1/admin/developers')
        .set(bearer(admin))
        .set('Idempotency-Key', key)
        .send({ email: `sealed-${Math.random().toString(36).slice(2)}@example.test`, appName: 'Sealed', appUrl: 'https://app.example.test' });
    const first = await send();
    expect(first.status).toBe(201);
    const rows = await ctx.prisma.idempotencyKey.findMany({ where: { key: idempotencyKeyDigest(key) } });
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(first.body.developer.apiKey);
    expect(stored).not.toContain('Sealed');
  });

  it('do not store a failure: the same key runs again after a refused request', async () => {
    const key = `fail-${Math.random()}`;
    const taken = await request(ctx.app)
      .post('/api/v1/admin/developers')
      .set(bearer(admin))
      .set('Idempotency-Key', key)
      .send({ email: developer.email, appName: 'Dup', appUrl: 'https://app.example.test' });
    expect([taken.status, taken.body.code]).toEqual([409, 'EMAIL_TAKEN']);
    expect(await ctx.prisma.idempotencyKey.count({ where: { key: idempotencyKeyDigest(key) } })).toBe(0);
    const fresh = await request(ctx.app)
      .post('/api/v1/admin/developers')
      .set(bearer(admin))
      .set('Idempotency-Key', key)
      .send({ email: developer.email, appName: 'Dup', appUrl: 'https://app.example.test' });
    expect(fresh.status).toBe(409);
  });
});
