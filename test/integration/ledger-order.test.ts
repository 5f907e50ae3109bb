// The ledger in commit order (contract §4): deposits confirmed, tasks charged and admin adjustments, all
// racing for one buyer; then, walking GET /billing/ledger page by page, every row's balanceAfterCents is
// the next older row's plus its own amount, and the newest is the balance. Ordered by createdAt (the
// transaction's start), 323 of 1 198 rows broke this chain under the same kind of load.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  // Its own database (the task pool is global) and a threshold one answer reaches, so each answer charges.
  ctx = await createIsolatedTestContext({ env: { CONSENSUS_THRESHOLD: '0.6', GOLDEN_RATE: '0' } });
  admin = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

interface Entry {
  id: string;
  type: string;
  amountCents: number;
  balanceAfterCents: number;
}

async function walkLedger(buyer: TestBuyer): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | undefined;
  do {
    const res = await request(ctx.app)
      .get('/api/v1/billing/ledger')
      .query({ limit: '7', ...(cursor ? { cursor } : {}) })
      .set(bearer(buyer.token));
    expect(res.status).toBe(200);
    entries.push(...res.body.entries);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  return entries;
}

describe('the ledger under concurrency', () => {
  it('is in commit order: along the list each balanceAfterCents follows from the next older row', { timeout: 120_000 }, async () => {
    const buyer = await createBuyer(ctx);
    const credit = (amountCents: number) =>
      request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(admin)).send({ amountCents, reason: 'race' });
    expect((await credit(50_000)).status).toBe(201);
    const created = await request(ctx.app)
      .post('/api/v1/tasks/batch')
      .set(bearer(buyer.token))
      .send({ tasks: Array.from({ length: 40 }, (_, i) => ({ type: 'BINARY_CHOICE', content: `race ${i}`, options: ['yes', 'no'], validationsNeeded: 1 })) });
    expect(created.status).toBe(201);
    const deposits = await Promise.all(
      Array.from({ length: 15 }, () => request(ctx.app).post('/api/v1/billing/deposits').set(bearer(buyer.token)).send({ amountCents: 700, method: 'card' })),
    );
    const developer = await createDeveloper(ctx, admin);
    const app = sdk(ctx, developer.apiKey);

    const work: Array<Promise<unknown>> = [];
    // Concurrent annotators may share a task's two slots; the later answer then finds it closed (409).
    const answer = async (annotatorId: string) => {
      const next = await app.next(annotatorId);
      if (next.status === 200) expect([201, 409]).toContain((await app.complete(next.body.task.id, annotatorId, 'yes')).status);
    };
    for (let i = 0; i < 60; i++) work.push(answer(`racer-${i}`));
    for (const deposit of deposits) work.push(request(ctx.app).post(`${new URL(deposit.body.checkoutUrl).pathname}/pay`));
    for (let i = 0; i < 30; i++) work.push(credit(i % 3 === 0 ? -150 : 325));
    await Promise.all(work);

    const entries = await walkLedger(buyer);
    const completed = await ctx.prisma.task.count({ where: { buyerId: buyer.id, status: 'COMPLETED' } });
    expect(completed).toBeGreaterThan(10);
    expect(entries.filter((e) => e.type === 'TASK_CHARGE')).toHaveLength(completed);
    expect(entries.filter((e) => e.type === 'DEPOSIT')).toHaveLength(15);
    expect(entries.filter((e) => e.type === 'ADJUSTMENT')).toHaveLength(31);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    const broken = entries.filter((entry, i) => {
      const older = entries[i + 1];
      return entry.balanceAfterCents !== (older?.balanceAfterCents ?? 0) + entry.amountCents;
    });
    expect(broken).toEqual([]);
    const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token));
    expect(entries[0]?.balanceAfterCents).toBe(me.body.buyer.creditBalance);
  });
});
