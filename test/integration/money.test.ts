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
        ? request(ctx.app).post('/api/v1/tasks').set(bearer(buyer.token)).send(item(i)).then((res) => ({ kind: 'single' as const, res }))
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

describe('billing at the end of a task (used by the annotation loop)', () => {
  async function pendingTask(buyer: TestBuyer, maxCents: number) {
    const res = await request(ctx.app).post('/api/v1/tasks').set(bearer(buyer.token)).send({ ...item(0), maxCents });
    expect(res.status).toBe(201);
    return ctx.prisma.task.findUniqueOrThrow({ where: { id: res.body.taskId } });
  }

  it('charges costCents, releases the whole maxCents reservation and writes a TASK_CHARGE row', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 1_000);
    const task = await pendingTask(buyer, 25);
    const charge = await ctx.services.db.transaction((repos) => ctx.services.billing.chargeCompletedTask(repos, task));
    expect(charge).toEqual({ balanceAfterCents: 980, crossedLowBalance: false });
    expect(await balance(buyer)).toEqual({ creditBalance: 980, reservedCents: 0, availableCents: 980 });
    const entry = await ctx.prisma.ledgerEntry.findFirstOrThrow({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } });
    expect(entry).toMatchObject({ amountCents: -20n, balanceAfterCents: 980n, taskId: task.id });
    expect(await ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(980);
  });

  it('reports the charge that takes the balance from 500 or more to below 500, once', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 530);
    const tasks = [await pendingTask(buyer, 20), await pendingTask(buyer, 20), await pendingTask(buyer, 20)];
    const crossings = [];
    for (const task of tasks) {
      crossings.push(await ctx.services.db.transaction((repos) => ctx.services.billing.chargeCompletedTask(repos, task)));
    }
    expect(crossings).toEqual([
      { balanceAfterCents: 510, crossedLowBalance: false },
      { balanceAfterCents: 490, crossedLowBalance: true },
      { balanceAfterCents: 470, crossedLowBalance: false },
    ]);
  });

  it('releases the reservation of a failed task and bills nothing', async () => {
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 100);
    const task = await pendingTask(buyer, 60);
    await ctx.services.db.transaction((repos) => ctx.services.billing.releaseFailedTask(repos, task));
    expect(await balance(buyer)).toEqual({ creditBalance: 100, reservedCents: 0, availableCents: 100 });
    expect(await ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } })).toBe(0);
  });

  it('the database refuses a reservation beyond the balance even outside the service (CHECK constraint)', async () => {
    const buyer = await createBuyer(ctx);
    await expect(ctx.prisma.buyer.update({ where: { id: buyer.id }, data: { reservedCents: 1n } })).rejects.toThrow();
  });
});
