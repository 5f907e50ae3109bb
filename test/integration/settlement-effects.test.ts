// A decided task's settlement in two halves (commit d56dea6): the answer's transaction writes the answer,
// the task's state, the buyer's event (seq NULL) and one settlement_effects row; SettlementEffects applies
// the rows later (charge or release, the answerers' counters, earnings and label counts, budget.low) and
// numbers the events. These tests hold the two halves apart on purpose (a busy answerer's row, the
// applier's advisory lock, no background applier) and check what every reader may see in between and
// after, through real PostgreSQL and through HTTP.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

// GOLDEN_RATE 0: no golden task is served by chance. CONSENSUS_THRESHOLD 0.9: three new annotators who
// agree on a two-option task complete it (0.927), as in golden-payouts.test.ts; each of them earns
// floor(floor(20 × 0.5) / 3) = 3 cents of its 20-cent cost.
const ENV = { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9' };
const world = useAnnotationWorld({ env: ENV });

afterEach(() => {
  vi.restoreAllMocks();
});

const COST = 20;
const EARNING = 3;

const annotator = () => `se-${randomUUID().slice(0, 8)}`;
const trio = () => [annotator(), annotator(), annotator()];
const effects = () => world.ctx.services.settlementEffects;
const fundedBuyer = (cents: number) => createFundedBuyer(world.ctx, world.adminToken, cents);
const asBuyer = (buyer: TestBuyer) => ({
  get: (path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
});

async function createTask(buyer: TestBuyer, body: Record<string, unknown> = {}): Promise<string> {
  const res = await asBuyer(buyer).post('/tasks', {
    type: 'BINARY_CHOICE',
    content: `Is this a cat? ${randomUUID()}`,
    options: ['yes', 'no'],
    validationsNeeded: 3,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.taskId;
}

/** A task that fails at its second answer when the two disagree: its project allows two answers. */
async function createFailingTask(buyer: TestBuyer): Promise<string> {
  const project = await asBuyer(buyer).post('/projects', { name: `two answers ${randomUUID().slice(0, 6)}`, maxResponses: 2 });
  expect(project.status).toBe(201);
  return createTask(buyer, { projectId: project.body.id, validationsNeeded: 2 });
}

/** Each annotator in turn is handed `taskId` (the oldest open task) and answers it. */
async function answerTask(taskId: string, answers: Array<[annotatorId: string, answer: string]>, ctx: TestContext = world.ctx): Promise<void> {
  const client = sdk(ctx, world.developer.apiKey);
  for (const [id, answer] of answers) expect(await client.answerNext(id, answer)).toBe(taskId);
}
const agreeing = (ids: string[]): Array<[string, string]> => ids.map((id) => [id, 'yes']);

/**
 * Only the routes' own `settled()` and the test's explicit calls apply effects from here on: the pending
 * background run is cancelled (and one in progress awaited), and decisions no longer nudge it.
 */
async function withoutBackgroundApplier() {
  const spy = vi.spyOn(effects(), 'nudge').mockImplementation(() => undefined);
  await effects().stop();
  return spy;
}

interface SettlementState {
  effect: boolean;
  charges: number;
  earnings: number;
}

/** Whether the task's effect waits, and its TASK_CHARGE and EARNING rows: one statement, one snapshot. */
async function settlementState(taskId: string): Promise<SettlementState> {
  const rows = await world.ctx.prisma.$queryRaw<SettlementState[]>`
    SELECT EXISTS (SELECT 1 FROM settlement_effects WHERE task_id = ${taskId}) AS effect,
           (SELECT count(*)::int FROM ledger_entries WHERE task_id = ${taskId} AND type = 'TASK_CHARGE') AS charges,
           (SELECT count(*)::int FROM ledger_entries WHERE task_id = ${taskId} AND type = 'EARNING') AS earnings`;
  const [row] = rows;
  if (!row) throw new Error('no row');
  return row;
}
/** A completed task (three agreeing answerers) before and after its effect is applied. */
const PENDING: SettlementState = { effect: true, charges: 0, earnings: 0 };
const APPLIED: SettlementState = { effect: false, charges: 1, earnings: 3 };

async function buyerRow(buyer: TestBuyer) {
  const row = await world.ctx.prisma.buyer.findUniqueOrThrow({ where: { id: buyer.id } });
  return { creditBalance: Number(row.creditBalance), reservedCents: Number(row.reservedCents) };
}

const internalId = async (externalId: string) =>
  (await world.ctx.prisma.annotator.findUniqueOrThrow({ where: { developerId_externalId: { developerId: world.developer.id, externalId } } })).id;

async function annotatorRows(externalIds: string[]) {
  const rows = await world.ctx.prisma.annotator.findMany({ where: { developerId: world.developer.id, externalId: { in: externalIds } } });
  return Object.fromEntries(rows.map((a) => [a.externalId, { totalResponses: a.totalResponses, earnedCents: Number(a.earnedCents) }]));
}

/** The buyer's event numbers, in (created_at, id) order: null for an event not numbered yet. */
async function eventNumbers(buyerId: string): Promise<Array<number | null>> {
  const events = await world.ctx.prisma.event.findMany({ where: { buyerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return events.map((e) => (e.seq === null ? null : Number(e.seq)));
}

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('read-your-writes through HTTP', () => {
  it('right after the deciding 201, /auth/me, /billing/ledger, the earnings and /events show the charge, the release, the earnings and the event', async () => {
    const buyer = await fundedBuyer(1_000);
    const taskId = await createTask(buyer);
    const answerers = trio();
    await answerTask(taskId, agreeing(answerers));

    // The background applier (nudged ~20 ms after the decision) may or may not have run: either the
    // effect waits and nothing of it is written, or it is gone and everything is, exactly once.
    const justAfter = await settlementState(taskId);
    expect(justAfter).toEqual(justAfter.effect ? PENDING : APPLIED);

    const me = await asBuyer(buyer).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.buyer).toMatchObject({ creditBalance: 1_000 - COST, reservedCents: 0, availableCents: 1_000 - COST });
    const ledger = await asBuyer(buyer).get('/billing/ledger');
    expect(ledger.body.entries.filter((e: { type: string }) => e.type === 'TASK_CHARGE')).toEqual([
      expect.objectContaining({ taskId, amountCents: -COST, balanceAfterCents: 1_000 - COST }),
    ]);
    for (const id of answerers) {
      const earnings = await sdk(world.ctx, world.developer.apiKey).get(`/annotators/${id}/earnings`);
      expect(earnings.body).toEqual({ annotatorId: id, totalEarnedCents: EARNING, paidOutCents: 0, pendingPayoutCents: 0, availableCents: EARNING });
    }
    const events = await asBuyer(buyer).get('/events');
    expect(events.body.events.map((e: { type: string; taskId: string }) => [e.type, e.taskId])).toEqual([['task.completed', taskId]]);

    expect(await settlementState(taskId)).toEqual(APPLIED);
  });

  it('with no background applier the effect is certainly still waiting after the 201; each route applies it before it reads', async () => {
    const buyer = await fundedBuyer(1_000);
    const [forMe, forLedger, forEarnings] = [await createTask(buyer), await createTask(buyer), await createTask(buyer)] as [string, string, string];
    await withoutBackgroundApplier();
    const crowds = [trio(), trio(), trio()] as [string[], string[], string[]];

    await answerTask(forMe, agreeing(crowds[0]));
    expect(await settlementState(forMe)).toEqual(PENDING);
    expect(await buyerRow(buyer)).toEqual({ creditBalance: 1_000, reservedCents: 3 * COST });
    const me = await asBuyer(buyer).get('/auth/me');
    expect(me.body.buyer).toMatchObject({ creditBalance: 1_000 - COST, reservedCents: 2 * COST, availableCents: 1_000 - 3 * COST });
    expect(await settlementState(forMe)).toEqual(APPLIED);

    await answerTask(forLedger, agreeing(crowds[1]));
    expect(await settlementState(forLedger)).toEqual(PENDING);
    const ledger = await asBuyer(buyer).get('/billing/ledger');
    expect(
      ledger.body.entries
        .filter((e: { type: string }) => e.type === 'TASK_CHARGE')
        .map((e: { taskId: string; balanceAfterCents: number }) => [e.taskId, e.balanceAfterCents]),
    ).toEqual([
      [forLedger, 1_000 - 2 * COST],
      [forMe, 1_000 - COST],
    ]);
    expect(await settlementState(forLedger)).toEqual(APPLIED);

    await answerTask(forEarnings, agreeing(crowds[2]));
    expect(await settlementState(forEarnings)).toEqual(PENDING);
    // The deciding answer's own count waits with the rest of the decision.
    expect(await annotatorRows(crowds[2])).toEqual(Object.fromEntries(crowds[2].map((id, i) => [id, { totalResponses: i < 2 ? 1 : 0, earnedCents: 0 }])));
    const earnings = await sdk(world.ctx, world.developer.apiKey).get(`/annotators/${crowds[2][2]}/earnings`);
    expect(earnings.body).toMatchObject({ totalEarnedCents: EARNING, availableCents: EARNING });
    expect(await settlementState(forEarnings)).toEqual(APPLIED);
    expect(await annotatorRows(crowds[2])).toEqual(Object.fromEntries(crowds[2].map((id) => [id, { totalResponses: 1, earnedCents: EARNING }])));

    // The label counts came with the effects: one row per answerer in the buyer's scope.
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scope: { buyerId: buyer.id } } });
    expect(counts).toHaveLength(9);
    for (const row of counts) expect(row).toMatchObject({ answered: 1, correct: 1 });
  });
});

describe('an answerer whose row another transaction holds', () => {
  it('the applier skips that decision without waiting and applies the others; settled() applies it once the row is free, exactly once', async () => {
    const buyer = await fundedBuyer(1_000);
    const held = await createTask(buyer);
    const free = await createTask(buyer);
    const heldCrowd = trio();
    const freeCrowd = trio();
    await answerTask(held, agreeing(heldCrowd.slice(0, 1)));

    const blocker = new pg.Client({ connectionString: world.ctx.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM annotators WHERE id = $1 FOR UPDATE', [await internalId(heldCrowd[0] as string)]);
      // The other two decide the task: neither touches the first answerer's row any more.
      await answerTask(held, agreeing(heldCrowd.slice(1)));
      await answerTask(free, agreeing(freeCrowd));

      // Resolves while the row is held (were the applier to wait for it, this would hang).
      await effects().applyAll();
      expect(await settlementState(held)).toEqual(PENDING);
      expect(await settlementState(free)).toEqual(APPLIED);
      expect(await buyerRow(buyer)).toEqual({ creditBalance: 1_000 - COST, reservedCents: COST });

      let settledYet = false;
      const settling = effects()
        .settled()
        .then(() => {
          settledYet = true;
        });
      // Another whole pass while the row is still held: the effect is still skipped, and settled() —
      // which waits for every effect committed before it — cannot have returned.
      await effects().applyAll();
      expect(await settlementState(held)).toEqual(PENDING);
      expect(settledYet).toBe(false);

      await blocker.query('COMMIT');
      await settling;
      expect(settledYet).toBe(true);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }

    expect(await settlementState(held)).toEqual(APPLIED);
    expect(await settlementState(free)).toEqual(APPLIED);
    expect(await buyerRow(buyer)).toEqual({ creditBalance: 1_000 - 2 * COST, reservedCents: 0 });
    expect(await world.ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(1_000 - 2 * COST);
    expect(await annotatorRows(heldCrowd)).toEqual(Object.fromEntries(heldCrowd.map((id) => [id, { totalResponses: 1, earnedCents: EARNING }])));
    for (const id of heldCrowd) expect(await world.ctx.services.db.repos.annotators.ledgerSum(await internalId(id))).toBe(EARNING);
  });
});

describe('exactly once across appliers', () => {
  it(
    'decisions applied by three service containers on one database, at once and while answers arrive, are each charged and paid once',
    { timeout: 120_000 },
    async () => {
      const others = [
        createTestContext({ env: ENV, databaseUrl: world.ctx.databaseUrl }),
        createTestContext({ env: ENV, databaseUrl: world.ctx.databaseUrl }),
      ] as [TestContext, TestContext];
      const appliers = [world.ctx, ...others].map((ctx) => ctx.services.settlementEffects);
      try {
        const buyer = await fundedBuyer(2_000);
        const created = await asBuyer(buyer).post('/tasks/batch', {
          tasks: Array.from({ length: 32 }, (_, i) => ({ type: 'BINARY_CHOICE', content: `many ${i}`, options: ['yes', 'no'], validationsNeeded: 3 })),
        });
        expect(created.status).toBe(201);
        const crowd = trio();
        const decided: string[] = [];
        /** The crowd agrees on the oldest open task, through `ctx`'s app (its own applier is nudged). */
        const round = async (ctx: TestContext) => {
          const taskId = await sdk(ctx, world.developer.apiKey).answerNext(crowd[0] as string, 'yes');
          await answerTask(taskId, agreeing(crowd.slice(1)), ctx);
          decided.push(taskId);
        };

        // Phase 1: the applier's lock (the product's own) is held, so decisions pile up unapplied.
        const holder = others[1];
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        let locked = () => {};
        const lockTaken = new Promise<void>((resolve) => (locked = resolve));
        const holding = holder.services.db.rawTransaction(async (repos) => {
          await repos.settlementEffects.lock();
          locked();
          await released;
        });
        let racing: Promise<unknown> = Promise.resolve();
        try {
          await Promise.race([lockTaken, holding]);
          for (let i = 0; i < 15; i++) await round(world.ctx);
          expect(await world.ctx.prisma.settlementEffect.count({ where: { buyerId: buyer.id } })).toBe(15);
          expect(await world.ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } })).toBe(0);
          expect(await eventNumbers(buyer.id)).toEqual(Array.from({ length: 15 }, () => null));
          // Every applier of the three containers waits for the lock; all go at once when it is let go.
          racing = Promise.all([...appliers.map((a) => a.settled()), ...appliers.map((a) => a.applyAll())]);
        } finally {
          release();
          await holding;
        }
        await racing;
        expect(await world.ctx.prisma.settlementEffect.count({ where: { buyerId: buyer.id } })).toBe(0);
        expect(await world.ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } })).toBe(15);

        // Phase 2: two containers apply in a loop while decisions arrive through two apps (answers hold
        // the answerers' rows, so passes skip and retry).
        let answering = true;
        const loop = async (run: () => Promise<void>) => {
          while (answering) {
            await run();
            await new Promise((resolve) => setImmediate(resolve));
          }
        };
        const loops = [loop(() => others[0].services.settlementEffects.applyAll()), loop(() => others[1].services.settlementEffects.settled())];
        try {
          for (let i = 0; i < 15; i++) await round(i % 2 === 0 ? world.ctx : others[0]);
          // Two open tasks remain: one with an answer (VALIDATING), one untouched (PENDING).
          await sdk(world.ctx, world.developer.apiKey).answerNext(crowd[0] as string, 'yes');
        } finally {
          answering = false;
          await Promise.all(loops);
        }
        await Promise.all(appliers.map((a) => a.settled()));

        const tasks = await world.ctx.prisma.task.findMany({ where: { buyerId: buyer.id } });
        expect(
          tasks
            .filter((t) => t.status === 'COMPLETED')
            .map((t) => t.id)
            .sort(),
        ).toEqual([...decided].sort());
        expect(tasks.map((t) => t.status).sort()).toEqual([...Array.from({ length: 30 }, () => 'COMPLETED'), 'PENDING', 'VALIDATING']);
        const chargesPerTask = await world.ctx.prisma.ledgerEntry.groupBy({
          by: ['taskId'],
          where: { buyerId: buyer.id, type: 'TASK_CHARGE' },
          _count: { _all: true },
        });
        expect(Object.fromEntries(chargesPerTask.map((c) => [c.taskId, c._count._all]))).toEqual(Object.fromEntries(decided.map((id) => [id, 1])));
        const earningsPerTask = await world.ctx.prisma.ledgerEntry.groupBy({
          by: ['taskId'],
          where: { taskId: { in: decided }, type: 'EARNING' },
          _count: { _all: true },
        });
        expect(Object.fromEntries(earningsPerTask.map((c) => [c.taskId, c._count._all]))).toEqual(Object.fromEntries(decided.map((id) => [id, 3])));

        const balance = await buyerRow(buyer);
        expect(balance.creditBalance).toBe(2_000 - 30 * COST);
        expect(await world.ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(balance.creditBalance);
        const open = tasks.filter((t) => t.status === 'PENDING' || t.status === 'VALIDATING');
        expect(balance.reservedCents).toBe(open.reduce((sum, t) => sum + t.maxCents, 0));

        const rows = await world.ctx.prisma.annotator.findMany({ where: { developerId: world.developer.id, externalId: { in: crowd } } });
        expect(rows).toHaveLength(3);
        for (const row of rows) {
          const earned = await world.ctx.prisma.ledgerEntry.aggregate({ where: { annotatorId: row.id, type: 'EARNING' }, _sum: { amountCents: true } });
          expect(Number(row.earnedCents)).toBe(Number(earned._sum.amountCents ?? 0n));
          expect(Number(row.earnedCents)).toBe(30 * EARNING);
          expect(row.totalResponses).toBe(row.externalId === crowd[0] ? 31 : 30);
        }
        expect(await world.ctx.prisma.settlementEffect.count()).toBe(0);
        // Every event of the buyer numbered once, with no gap.
        expect((await eventNumbers(buyer.id)).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(oneTo(30));
      } finally {
        await Promise.all(others.map((ctx) => ctx.close()));
      }
    },
  );
});

describe('budget.low from the applier', () => {
  it.each([
    ['all three charges in one batch (no background applier)', true],
    ['the background applier running meanwhile', false],
  ])('530 → 510 → 490 → 470: one budget.low at 490, one e-mail — %s', async (_name, batched) => {
    const buyer = await fundedBuyer(530);
    const taskIds = [await createTask(buyer), await createTask(buyer), await createTask(buyer)];
    if (batched) await withoutBackgroundApplier();
    const crowd = trio();
    for (const taskId of taskIds) await answerTask(taskId, agreeing(crowd));
    if (batched) {
      expect(await world.ctx.prisma.settlementEffect.count({ where: { buyerId: buyer.id } })).toBe(3);
      expect(await world.ctx.prisma.ledgerEntry.count({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' } })).toBe(0);
    }
    await effects().settled();

    const charges = await world.ctx.prisma.ledgerEntry.findMany({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' }, orderBy: { seq: 'asc' } });
    expect(charges.map((c) => [c.taskId, Number(c.amountCents), Number(c.balanceAfterCents)])).toEqual([
      [taskIds[0], -COST, 510],
      [taskIds[1], -COST, 490],
      [taskIds[2], -COST, 470],
    ]);
    const lows = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'budget.low' } });
    expect(lows.map((e) => JSON.parse(e.payload))).toEqual([{ event: 'budget.low', creditBalance: 490, thresholdCents: 500, at: expect.any(String) }]);
    expect(lows[0]?.seq).not.toBeNull();
    expect(await world.ctx.prisma.mailOutbox.count({ where: { toAddress: buyer.email, kind: 'BUDGET_LOW' } })).toBe(1);
    expect(await buyerRow(buyer)).toEqual({ creditBalance: 470, reservedCents: 0 });
    expect(await world.ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(470);
  });
});

describe('event numbers', () => {
  it('decisions leave their events unnumbered; the applier numbers them 1..n in (created_at, id) order, and later ones continue without a gap', async () => {
    const buyer = await fundedBuyer(530);
    const completing = [await createTask(buyer), await createTask(buyer), await createTask(buyer)];
    const failing = await createFailingTask(buyer);
    const noBackground = await withoutBackgroundApplier();
    const crowd = trio();
    for (const taskId of completing) await answerTask(taskId, agreeing(crowd));
    await answerTask(failing, [
      [annotator(), 'yes'],
      [annotator(), 'no'],
    ]);

    // Three task.completed and a task.failed, committed and unnumbered; the buyer's counter untouched.
    expect(await eventNumbers(buyer.id)).toEqual([null, null, null, null]);
    expect(await world.ctx.prisma.eventSequence.findUnique({ where: { buyerId: buyer.id } })).toBeNull();

    await effects().settled();
    // Numbered in one pass with the budget.low the second charge records (530 → 510 → 490): 1..5 in
    // (created_at, id) order, and the counter at 5.
    expect(await eventNumbers(buyer.id)).toEqual(oneTo(5));
    const types = (await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id } })).map((e) => e.type).sort();
    expect(types).toEqual(['budget.low', 'task.completed', 'task.completed', 'task.completed', 'task.failed']);
    expect((await world.ctx.prisma.eventSequence.findUniqueOrThrow({ where: { buyerId: buyer.id } })).seq).toBe(5n);

    // With the background applier back, a later decision's event is either still unnumbered with its
    // effect waiting, or numbered 6 with its effect applied (both in one snapshot).
    noBackground.mockRestore();
    const later = await createTask(buyer);
    await answerTask(later, agreeing(trio()));
    const rows = await world.ctx.prisma.$queryRaw<Array<{ seq: bigint | null; effect: boolean }>>`
      SELECT e.seq, EXISTS (SELECT 1 FROM settlement_effects s WHERE s.task_id = ${later}) AS effect
      FROM events e WHERE e.buyer_id = ${buyer.id} AND e.payload::jsonb ->> 'taskId' = ${later}`;
    expect(rows).toHaveLength(1);
    const [justAfter] = rows;
    expect(justAfter).toEqual(justAfter?.effect ? { seq: null, effect: true } : { seq: 6n, effect: false });

    const listed = await asBuyer(buyer).get('/events');
    expect(listed.body.events.filter((e: { taskId: string | null }) => e.taskId === later).map((e: { type: string }) => e.type)).toEqual(['task.completed']);
    const numbers = await eventNumbers(buyer.id);
    expect(numbers).toHaveLength(6);
    expect(numbers.slice(0, 5)).toEqual(oneTo(5));
    expect(numbers[5]).toBe(6);
    expect((await world.ctx.prisma.eventSequence.findUniqueOrThrow({ where: { buyerId: buyer.id } })).seq).toBe(6n);
  });
});

describe('a FAILED task', () => {
  it('keeps its reservation until its effect is applied, then releases it with no charge and no earnings', async () => {
    const buyer = await fundedBuyer(1_000);
    const taskId = await createFailingTask(buyer);
    await withoutBackgroundApplier();
    const pair = [annotator(), annotator()];
    await answerTask(taskId, [
      [pair[0] as string, 'yes'],
      [pair[1] as string, 'no'],
    ]);

    expect((await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status).toBe('FAILED');
    const effect = await world.ctx.prisma.settlementEffect.findUniqueOrThrow({ where: { taskId } });
    expect(effect.effect).toMatchObject({ chargeCents: 0, releaseCents: COST });
    expect(await buyerRow(buyer)).toEqual({ creditBalance: 1_000, reservedCents: COST });

    const me = await asBuyer(buyer).get('/auth/me');
    expect(me.body.buyer).toMatchObject({ creditBalance: 1_000, reservedCents: 0, availableCents: 1_000 });
    const ledger = await asBuyer(buyer).get('/billing/ledger');
    expect(ledger.body.entries.map((e: { type: string }) => e.type)).toEqual(['ADJUSTMENT']);
    const task = await asBuyer(buyer).get(`/tasks/${taskId}`);
    expect(task.body).toMatchObject({ status: 'FAILED', failureReason: 'NO_CONSENSUS', totalResponses: 2 });

    expect(await settlementState(taskId)).toEqual({ effect: false, charges: 0, earnings: 0 });
    // The deciding answer's count arrived with the effect; nobody earned anything.
    expect(await annotatorRows(pair)).toEqual(Object.fromEntries(pair.map((id) => [id, { totalResponses: 1, earnedCents: 0 }])));
  });
});

describe('a plan that does not name its charge', () => {
  it('is refused by settle_task, leaving nothing written; one that names more than the reserve is too', async () => {
    const buyer = await fundedBuyer(1_000);
    const taskId = await createTask(buyer);
    const first = annotator();
    await answerTask(taskId, [[first, 'yes']]);
    const { developerId } = await world.ctx.prisma.annotator.findFirstOrThrow({ where: { externalId: first } });
    const { id: annotatorId } = await world.ctx.prisma.annotator.create({ data: { id: randomUUID(), developerId, externalId: annotator() } });
    const settle = (plan: object) =>
      world.ctx.prisma.$queryRaw`SELECT settle_task(${taskId}, ${annotatorId}, 'yes', 0, ${randomUUID()}, now(), ${JSON.stringify(plan)}::jsonb) AS outcome`;
    const complete = { kind: 'complete', result: 'yes', confidence: 0.99, updates: [], chargeLedgerId: randomUUID() };
    const before = await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });

    await expect(settle(complete)).rejects.toThrow(/names no charge within its reserve/);
    await expect(settle({ ...complete, chargeCents: COST + 1_000 })).rejects.toThrow(/names no charge within its reserve/);
    await expect(settle({ ...complete, kind: 'fail', failureReason: 'NO_CONSENSUS' })).rejects.toThrow(/names no charge within its reserve/);
    expect(await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).toEqual(before);
    expect(await world.ctx.prisma.settlementEffect.count({ where: { taskId } })).toBe(0);
    expect(await world.ctx.prisma.taskResponse.count({ where: { taskId } })).toBe(1);

    // The same plan naming the task's price settles, and the effect charges exactly that.
    expect(await settle({ ...complete, chargeCents: COST })).toEqual([{ outcome: 'SETTLED' }]);
    const effect = await world.ctx.prisma.settlementEffect.findUniqueOrThrow({ where: { taskId } });
    expect(effect.effect).toMatchObject({ chargeCents: COST, releaseCents: COST });
  });
});

describe('a re-fit between a decision and its effect', () => {
  it('does not count the decided task twice: the fit leaves it to the effect, which adds it once', async () => {
    const buyer = await fundedBuyer(1_000);
    const project = await asBuyer(buyer).post('/projects', { name: `refit ${randomUUID().slice(0, 6)}` });
    expect(project.status).toBe(201);
    const scopeKey = `project:${project.body.id}`;
    const crowd = trio();
    const answeredInScope = async () => {
      const rows = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey } });
      return rows.reduce((sum, row) => sum + row.answered, 0);
    };
    await answerTask(await createTask(buyer, { projectId: project.body.id }), agreeing(crowd));
    await effects().settled();
    expect(await answeredInScope()).toBe(3);

    const spy = await withoutBackgroundApplier();
    try {
      const second = await createTask(buyer, { projectId: project.body.id });
      await answerTask(second, agreeing(crowd));
      expect(await settlementState(second)).toEqual(PENDING);
      const outcome = await world.ctx.services.quality.refitScope(scopeKey);
      expect(outcome).toMatchObject({ kind: 'refitted', scope: scopeKey, countedAnswers: 3 });
      // The fit counted the first task only: the second's answers are still its effect's to add.
      expect(await answeredInScope()).toBeCloseTo(3, 9);
      await effects().settled();
      expect(await settlementState(second)).toEqual(APPLIED);
      expect(await answeredInScope()).toBeCloseTo(6, 9);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('an effect that cannot be applied', () => {
  it('is rolled back alone and marked failed; the others are applied, events numbered, reads answer at once; once mended it applies exactly once', async () => {
    const buyer = await fundedBuyer(1_000);
    const spy = await withoutBackgroundApplier();
    try {
      // Both created before either is decided: creating a task applies what is pending (a route).
      const broken = await createTask(buyer);
      const healthy = await createTask(buyer);
      await answerTask(broken, agreeing(trio()));
      await answerTask(healthy, agreeing(trio()));
      // Bad data: the participants' updates are no longer a list (apply_decision cannot read them).
      const original = await world.ctx.prisma.settlementEffect.findUniqueOrThrow({ where: { taskId: broken } });
      await world.ctx.prisma.settlementEffect.update({ where: { taskId: broken }, data: { effect: { ...(original.effect as object), updates: 'garbled' } } });

      const me = await asBuyer(buyer).get('/auth/me');
      expect(me.status).toBe(200);
      // The healthy decision is charged; the broken one is not, and keeps its reservation.
      expect(me.body.buyer).toMatchObject({ creditBalance: 980, reservedCents: 20 });
      expect(await settlementState(healthy)).toEqual(APPLIED);
      expect(await settlementState(broken)).toEqual(PENDING);
      const failed = await world.ctx.prisma.settlementEffect.findUniqueOrThrow({ where: { taskId: broken } });
      expect(failed.failedAt).toBeInstanceOf(Date);
      expect(failed.lastError).toMatch(/non-array|scalar/i);
      // Its event is numbered all the same: a stuck effect does not hold up the event stream.
      expect(await eventNumbers(buyer.id)).toEqual(oneTo(2));

      // Mended (an operator's fix), it is retried by the next pass and applied once.
      await world.ctx.prisma.settlementEffect.update({ where: { taskId: broken }, data: { effect: original.effect as object } });
      await effects().applyAll();
      expect(await settlementState(broken)).toEqual(APPLIED);
      expect(await buyerRow(buyer)).toEqual({ creditBalance: 960, reservedCents: 0 });
    } finally {
      spy.mockRestore();
    }
  });
});
