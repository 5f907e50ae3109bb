import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const item = (i: number) => ({ type: 'BINARY_CHOICE', content: `concurrent ${i}`, options: ['yes', 'no'] });
const balance = async (buyer: TestBuyer) => {
  const value = await ctx.services.db.repos.billing.getBalance(buyer.id);
  if (!value) throw new Error('no buyer');
  return value;
};

describe('concurrent creation against a balance that covers only some requests', () => {
  it('accepts exactly what fits, never takes availableCents below zero, and the ledger matches the balance', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 1_000);
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 5 < 3
        ? request(ctx.app)
            .post('/api/v1/tasks')
            .set(bearer(buyer.token))
            .send(item(i))
            .then((res) => ({ kind: 'single' as const, res }))
        : request(ctx.app)
            .post('/api/v1/tasks/batch')
            .set(bearer(buyer.token))
            .send({ tasks: [item(i), item(i + 100), item(i + 200)] })
            .then((res) => ({ kind: 'batch' as const, res })),
    );
    const results = await Promise.all(requests);
    for (const { res } of results) expect([201, 402]).toContain(res.status);
    const ok = (kind: 'single' | 'batch') => results.filter((r) => r.kind === kind && r.res.status === 201).length;
    const rejected = (kind: 'single' | 'batch') => results.filter((r) => r.kind === kind && r.res.status === 402).length;
    const reservedExpected = ok('single') * 20 + ok('batch') * 60;

    const after = await balance(buyer);
    expect(after.creditBalance).toBe(1_000);
    expect(after.reservedCents).toBe(reservedExpected);
    expect(after.availableCents).toBeGreaterThanOrEqual(0);
    expect(after.reservedCents).toBeLessThanOrEqual(1_000);
    // Availability only shrinks, so whatever was refused still does not fit at the end.
    if (rejected('single') > 0) expect(after.availableCents).toBeLessThan(20);
    if (rejected('batch') > 0) expect(after.availableCents).toBeLessThan(60);
    expect(await ctx.prisma.task.count({ where: { buyerId: buyer.id } })).toBe(ok('single') + 3 * ok('batch'));
    const reservedInTasks = await ctx.prisma.task.aggregate({ where: { buyerId: buyer.id, status: 'PENDING' }, _sum: { maxCents: true } });
    expect(reservedInTasks._sum.maxCents).toBe(after.reservedCents);
    expect(await ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(after.creditBalance);
  });
});

// Charging at the end of a task is tested through the answer loop: annotation.test.ts (charge, release on
// FAILED) and golden-payouts.test.ts (budget.low once per crossing).
describe('the reservation', () => {
  it('the database refuses a reservation beyond the balance even outside the service (CHECK constraint)', async () => {
    const buyer = await createBuyer(ctx);
    await expect(ctx.prisma.buyer.update({ where: { id: buyer.id }, data: { reservedCents: 1n } })).rejects.toThrow();
  });
});
