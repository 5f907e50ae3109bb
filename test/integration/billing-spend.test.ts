import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const DAY_MS = 86_400_000;

let ctx: TestContext;
let adminToken: string;
let developer: TestDeveloper;
beforeAll(async () => {
  // Its own database: the SDK hands out the oldest open task of the whole platform. At 0.9, three agreeing
  // answers (0.9270) complete a task.
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9' } });
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
});
afterAll(() => ctx.close());

const spend = (buyer: TestBuyer, query = '') => request(ctx.app).get(`/api/v1/billing/spend${query}`).set(bearer(buyer.token));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const todayStart = () => Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());

/** A ledger row written at a chosen moment (the money routes write only "now"). */
async function ledgerRow(buyerId: string, type: 'TASK_CHARGE' | 'DEPOSIT' | 'BONUS' | 'ADJUSTMENT', amountCents: number, at: number) {
  await ctx.prisma.ledgerEntry.create({
    data: { id: newId(), buyerId, type, amountCents: BigInt(amountCents), balanceAfterCents: 0n, createdAt: new Date(at) },
  });
}

/** A 50 000-cent deposit paid through the sandbox checkout: a DEPOSIT row and a 2 500-cent BONUS row, today. */
async function deposit(buyer: TestBuyer) {
  const created = await request(ctx.app).post('/api/v1/billing/deposits').set(bearer(buyer.token)).send({ amountCents: 50_000, method: 'card' });
  expect(created.status).toBe(201);
  expect((await request(ctx.app).post(`${new URL(created.body.checkoutUrl).pathname}/pay`)).status).toBeLessThan(400);
}

/** A task completed by three agreeing annotators: one TASK_CHARGE row of 20 cents, today. */
async function completeTask(buyer: TestBuyer) {
  const created = await request(ctx.app)
    .post('/api/v1/tasks')
    .set(bearer(buyer.token))
    .send({ type: 'BINARY_CHOICE', content: 'Cat?', options: ['yes', 'no'] });
  expect(created.status).toBe(201);
  for (let i = 0; i < 3; i++) await sdk(ctx, developer.apiKey).answerNext(`spender-${newId()}`, 'yes');
  const task = await request(ctx.app).get(`/api/v1/tasks/${created.body.taskId}`).set(bearer(buyer.token));
  expect(task.body.status).toBe('COMPLETED');
}

describe('GET /billing/spend', () => {
  let buyer: TestBuyer;
  beforeAll(async () => {
    buyer = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, buyer.id, 1_000);
    await deposit(buyer);
    await completeTask(buyer);
    const today = todayStart();
    await ledgerRow(buyer.id, 'TASK_CHARGE', -20, today - 2 * DAY_MS);
    await ledgerRow(buyer.id, 'TASK_CHARGE', -30, today - 2 * DAY_MS - 1);
    await ledgerRow(buyer.id, 'DEPOSIT', 1_000, today - 1);
    await ledgerRow(buyer.id, 'BONUS', 50, today - 1);
    await ledgerRow(buyer.id, 'ADJUSTMENT', 7_000, today - DAY_MS);
    const other = await createBuyer(ctx);
    await ledgerRow(other.id, 'TASK_CHARGE', -20, today - 1);
    await ledgerRow(other.id, 'DEPOSIT', 5_000, today);
  });

  it('gives each UTC day of the period, oldest first and today last, from TASK_CHARGE, DEPOSIT, BONUS and ADJUSTMENT rows only', async () => {
    const res = await spend(buyer, '?days=3');
    expect(res.status).toBe(200);
    const today = todayStart();
    expect(res.body).toEqual({
      days: [
        { date: isoDay(today - 2 * DAY_MS), chargedCents: 20, depositedCents: 0, adjustedCents: 0, completedTasks: 1 },
        { date: isoDay(today - DAY_MS), chargedCents: 0, depositedCents: 1_050, adjustedCents: 7_000, completedTasks: 0 },
        { date: isoDay(today), chargedCents: 20, depositedCents: 52_500, adjustedCents: 1_000, completedTasks: 1 },
      ],
      totalChargedCents: 40,
      totalDepositedCents: 53_550,
      totalAdjustedCents: 8_000,
    });
  });

  it('covers the last 30 days by default, every day present with zeros where nothing happened', async () => {
    const res = await spend(buyer);
    expect(res.status).toBe(200);
    const days = res.body.days as Array<{ date: string; chargedCents: number; depositedCents: number; completedTasks: number }>;
    expect(days.map((day) => day.date)).toEqual(Array.from({ length: 30 }, (_, i) => isoDay(todayStart() - (29 - i) * DAY_MS)));
    expect(days.at(-4)).toEqual({ date: isoDay(todayStart() - 3 * DAY_MS), chargedCents: 30, depositedCents: 0, adjustedCents: 0, completedTasks: 1 });
    expect(days.slice(0, 26).every((day) => day.chargedCents === 0 && day.depositedCents === 0 && day.completedTasks === 0)).toBe(true);
    expect(res.body).toMatchObject({ totalChargedCents: 70, totalDepositedCents: 53_550, totalAdjustedCents: 8_000 });
  });

  it('takes 1 (today alone) to 366 days', async () => {
    const one = await spend(buyer, '?days=1');
    expect(one.body).toEqual({
      days: [{ date: isoDay(todayStart()), chargedCents: 20, depositedCents: 52_500, adjustedCents: 1_000, completedTasks: 1 }],
      totalChargedCents: 20,
      totalDepositedCents: 52_500,
      totalAdjustedCents: 1_000,
    });
    const year = await spend(buyer, '?days=366');
    expect(year.status).toBe(200);
    expect(year.body.days).toHaveLength(366);
    expect(year.body.days[0].date).toBe(isoDay(todayStart() - 365 * DAY_MS));
  });

  it('is all zeros for a buyer without money movements', async () => {
    const res = await spend(await createBuyer(ctx), '?days=2');
    expect(res.body).toEqual({
      days: [
        { date: isoDay(todayStart() - DAY_MS), chargedCents: 0, depositedCents: 0, adjustedCents: 0, completedTasks: 0 },
        { date: isoDay(todayStart()), chargedCents: 0, depositedCents: 0, adjustedCents: 0, completedTasks: 0 },
      ],
      totalChargedCents: 0,
      totalDepositedCents: 0,
      totalAdjustedCents: 0,
    });
  });

  it.each(['?days=0', '?days=367', '?days=1.5', '?days=-1', '?days=abc', '?days=', '?days=7&days=8', '?dayz=7'])(
    'returns 400 VALIDATION_ERROR for %s',
    async (query) => {
      const res = await spend(buyer, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  it('returns 401 UNAUTHORIZED without a credential and 403 FORBIDDEN to an admin or a developer key', async () => {
    expect((await request(ctx.app).get('/api/v1/billing/spend')).body.code).toBe('UNAUTHORIZED');
    for (const token of [adminToken, developer.apiKey]) {
      const res = await request(ctx.app).get('/api/v1/billing/spend').set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
  });

  it('returns 405 METHOD_NOT_ALLOWED to another method', async () => {
    const res = await request(ctx.app).post('/api/v1/billing/spend').set(bearer(buyer.token)).send({});
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});
