import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { decisionUpdates } from '../../src/modules/settlement/plan.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, createFundedBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';
import { createIsolatedTestContext } from '../helpers/context.ts';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { sdk } from '../helpers/sdk.ts';

// Three agreeing new annotators complete a task at 0.9 (0.927): the budget.low tests charge by them.
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9' } });

const annotator = () => `ann-${randomUUID().slice(0, 8)}`;
const asBuyer = (buyer: TestBuyer) => ({
  get: (path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token)),
  post: (path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body),
  delete: (path: string) => request(world.ctx.app).delete(`/api/v1${path}`).set(bearer(buyer.token)),
});
const admin = (method: 'get' | 'post', path: string) => request(world.ctx.app)[method](`/api/v1${path}`).set(bearer(world.adminToken));

const fundedBuyer = (cents = 100_000) => createFundedBuyer(world.ctx, world.adminToken, cents);

const golden = (overrides: Record<string, unknown> = {}) => ({
  type: 'BINARY_CHOICE',
  content: 'Is the sky blue on a clear day?',
  options: ['yes', 'no'],
  goldenAnswer: 'yes',
  ...overrides,
});
const regular = { type: 'BINARY_CHOICE', content: 'Is this a dog?', options: ['yes', 'no'] };

describe('golden tasks', () => {
  it('are created, listed with their scores and deleted; they never appear under /tasks', async () => {
    const buyer = await fundedBuyer();
    const created = await asBuyer(buyer).post('/golden-tasks', golden({ locale: 'de' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      type: 'BINARY_CHOICE',
      content: 'Is the sky blue on a clear day?',
      options: ['yes', 'no'],
      goldenAnswer: 'yes',
      locale: 'de',
      projectId: null,
      timesServed: 0,
      timesAnswered: 0,
      correctRate: null,
      createdAt: expect.any(String),
    });
    expect((await asBuyer(buyer).get('/golden-tasks')).body.goldenTasks.map((g: { id: string }) => g.id)).toEqual([created.body.id]);
    expect((await asBuyer(buyer).get('/tasks')).body.tasks).toEqual([]);
    expect((await asBuyer(buyer).get('/auth/me')).body.buyer.reservedCents).toBe(0);
    expect((await asBuyer(buyer).delete(`/golden-tasks/${created.body.id}`)).status).toBe(204);
    const again = await asBuyer(buyer).delete(`/golden-tasks/${created.body.id}`);
    expect([again.status, again.body.code]).toEqual([404, 'GOLDEN_TASK_NOT_FOUND']);
  });

  it('are validated like tasks, and a goldenAnswer outside the options is VALIDATION_ERROR', async () => {
    const buyer = await fundedBuyer();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...golden(), content: undefined }, 'MISSING_FIELDS'],
      [golden({ type: 'NOPE' }), 'INVALID_TYPE'],
      [golden({ options: ['yes'] }), 'OPTIONS_REQUIRED'],
      [golden({ goldenAnswer: 'maybe' }), 'VALIDATION_ERROR'],
      [golden({ maxCents: 20 }), 'VALIDATION_ERROR'],
      [golden({ projectId: newId() }), 'INVALID_PROJECT'],
    ];
    for (const [body, code] of cases) {
      const res = await asBuyer(buyer).post('/golden-tasks', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
    }
  });

  it("another buyer's golden task is GOLDEN_TASK_NOT_FOUND", async () => {
    const owner = await fundedBuyer();
    const other = await fundedBuyer();
    const { body } = await asBuyer(owner).post('/golden-tasks', golden());
    expect((await asBuyer(other).delete(`/golden-tasks/${body.id}`)).body.code).toBe('GOLDEN_TASK_NOT_FOUND');
    expect((await asBuyer(other).get('/golden-tasks')).body.goldenTasks).toEqual([]);
  });

  it('are served blind, first, to an annotator who has answered none, scored, and never billed', async () => {
    const buyer = await fundedBuyer(1_000);
    const { body: g } = await asBuyer(buyer).post('/golden-tasks', golden());
    const { body: t } = await asBuyer(buyer).post('/tasks', regular);
    const client = sdk(world.ctx, world.developer.apiKey);
    const id = annotator();
    const first = await client.next(id);
    expect(first.body.task).toEqual({ id: g.id, type: 'BINARY_CHOICE', content: golden().content, options: ['yes', 'no'], locale: 'en' });
    expect(Object.keys(first.body).sort()).toEqual(['assignmentId', 'expiresAt', 'task']);
    expect((await client.complete(g.id, id, 'no')).body).toEqual({ accepted: true });
    // Answered one golden task already; GOLDEN_RATE is 0 here, so the regular task comes next.
    expect((await client.next(id)).body.task.id).toBe(t.taskId);
    const reputation = await client.get(`/annotators/${id}/reputation`);
    expect(reputation.body).toMatchObject({ goldenAnswered: 1, goldenAccuracy: 0, reliability: 0.6364, totalResponses: 0 });
    const listed = (await asBuyer(buyer).get('/golden-tasks')).body.goldenTasks[0];
    expect(listed).toMatchObject({ timesServed: 1, timesAnswered: 1, correctRate: 0 });
    expect(await world.ctx.services.db.repos.billing.getBalance(buyer.id)).toEqual({ creditBalance: 1_000, reservedCents: 20, availableCents: 980 });
    const answeredTwice = await client.complete(g.id, id, 'yes');
    expect(answeredTwice.body.code).toBe('ALREADY_ANSWERED');
  });

  it('serves golden tasks only of the same buyer, type and locale', async () => {
    const buyer = await fundedBuyer();
    const other = await fundedBuyer();
    await asBuyer(other).post('/golden-tasks', golden());
    await asBuyer(buyer).post('/golden-tasks', golden({ locale: 'fr' }));
    await asBuyer(buyer).post('/golden-tasks', golden({ type: 'SENTIMENT_ANALYSIS', options: ['yes', 'no'] }));
    const { body: t } = await asBuyer(buyer).post('/tasks', regular);
    expect((await sdk(world.ctx, world.developer.apiKey).next(annotator())).body.task.id).toBe(t.taskId);
  });

  it('suspends an annotator whose first 10 golden answers are less than half right; an admin reinstates', async () => {
    // GOLDEN_RATE 1: every assignment on this buyer's tasks is a golden task while one is left unanswered.
    const always = await createIsolatedTestContext({ env: { GOLDEN_RATE: '1' } });
    try {
      const adminOfAlways = await createAdmin(always);
      const dev = await createDeveloper(always, adminOfAlways.token);
      const buyer = await createBuyer(always);
      await fundBuyer(always, adminOfAlways.token, buyer.id, 1_000);
      for (let i = 0; i < 10; i++) {
        expect(
          (
            await request(always.app)
              .post('/api/v1/golden-tasks')
              .set(bearer(buyer.token))
              .send(golden({ content: `golden ${i}` }))
          ).status,
        ).toBe(201);
      }
      await request(always.app).post('/api/v1/tasks').set(bearer(buyer.token)).send(regular);
      const client = sdk(always, dev.apiKey);
      const id = annotator();
      for (let i = 0; i < 10; i++) {
        const next = await client.next(id);
        expect(next.body.task.content).toMatch(/^golden /);
        expect((await client.complete(next.body.task.id, id, i < 4 ? 'yes' : 'no')).status).toBe(201);
      }
      const suspended = await client.next(id);
      expect([suspended.status, suspended.body.code]).toEqual([403, 'ANNOTATOR_SUSPENDED']);
      const answer = await client.complete(newId(), id, 'yes');
      expect([answer.status, answer.body.code]).toEqual([403, 'ANNOTATOR_SUSPENDED']);
      expect((await client.get(`/annotators/${id}/reputation`)).body).toMatchObject({ suspended: true, goldenAnswered: 10, goldenAccuracy: 0.4 });

      const reinstated = await request(always.app).post(`/api/v1/admin/annotators/${dev.id}/${id}/reinstate`).set(bearer(adminOfAlways.token));
      expect(reinstated.status).toBe(200);
      expect(reinstated.body).toMatchObject({ annotatorId: id, suspended: false, goldenAnswered: 10 });
      // Golden tasks are used up: the regular task comes, and the annotator works again.
      const back = await client.next(id);
      expect(back.status).toBe(200);
      expect(back.body.task.content).toBe(regular.content);
      const unknown = await request(always.app).post(`/api/v1/admin/annotators/${dev.id}/${annotator()}/reinstate`).set(bearer(adminOfAlways.token));
      expect([unknown.status, unknown.body.code]).toEqual([404, 'ANNOTATOR_NOT_FOUND']);
    } finally {
      await always.close();
    }
  });
});

describe('earnings and payouts', () => {
  /** An annotator with `cents` earned, credited the way a completed task credits it. */
  async function earner(cents: number): Promise<string> {
    const id = annotator();
    const record = await world.ctx.services.db.repos.annotators.ensure(world.developer.id, id, world.ctx.services.clock.now());
    const updates = decisionUpdates([{ annotatorId: record.id, answered: 0, resolved: 0, agreed: 0, earnedCents: cents }]);
    await world.ctx.prisma.$executeRaw`SELECT apply_decision('test-task', ${JSON.stringify(updates)}::jsonb)`;
    return id;
  }

  it('a payout reserves the cents at once; approval pays them; the ledger matches', async () => {
    const id = await earner(800);
    const client = sdk(world.ctx, world.developer.apiKey);
    const payout = await client.post(`/annotators/${id}/payouts`, { amountCents: 600, method: 'mobile_money', destination: '+254700000000' });
    expect(payout.status).toBe(201);
    expect(payout.body).toMatchObject({ id: expect.any(String), status: 'PENDING', amountCents: 600, method: 'mobile_money', createdAt: expect.any(String) });
    expect((await client.get(`/annotators/${id}/earnings`)).body).toEqual({
      annotatorId: id,
      totalEarnedCents: 800,
      paidOutCents: 0,
      pendingPayoutCents: 600,
      availableCents: 200,
    });
    const pending = await admin('get', '/admin/payouts?status=PENDING');
    expect(pending.body.payouts.find((p: { id: string }) => p.id === payout.body.id)).toMatchObject({ annotatorId: id, developerId: world.developer.id });
    const approved = await admin('post', `/admin/payouts/${payout.body.id}/approve`).send({ note: 'sent' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'PAID', note: 'sent', decidedAt: expect.any(String) });
    expect((await client.get(`/annotators/${id}/earnings`)).body).toMatchObject({ paidOutCents: 600, pendingPayoutCents: 0, availableCents: 200 });
    const record = await world.ctx.services.db.repos.annotators.find(world.developer.id, id);
    expect(await world.ctx.services.db.repos.annotators.ledgerSum(record?.id as string)).toBe(200);
    const twice = await admin('post', `/admin/payouts/${payout.body.id}/reject`).send({});
    expect([twice.status, twice.body.code]).toEqual([409, 'PAYOUT_NOT_PENDING']);
    expect((await client.get(`/annotators/${id}/payouts`)).body.payouts).toHaveLength(1);
  });

  it('a rejected payout gives the cents back (PAYOUT_REVERSAL)', async () => {
    const id = await earner(500);
    const client = sdk(world.ctx, world.developer.apiKey);
    const payout = await client.post(`/annotators/${id}/payouts`, { amountCents: 500, method: 'paypal', destination: 'me@example.test' });
    const rejected = await admin('post', `/admin/payouts/${payout.body.id}/reject`).send({ note: 'wrong destination' });
    expect(rejected.body.status).toBe('REJECTED');
    expect((await client.get(`/annotators/${id}/earnings`)).body).toMatchObject({ availableCents: 500, pendingPayoutCents: 0, paidOutCents: 0 });
    const record = await world.ctx.services.db.repos.annotators.find(world.developer.id, id);
    const types = (await world.ctx.prisma.ledgerEntry.findMany({ where: { annotatorId: record?.id }, orderBy: { createdAt: 'asc' } })).map((e) => e.type);
    expect(types).toEqual(['EARNING', 'PAYOUT', 'PAYOUT_REVERSAL']);
  });

  it('PAYOUT_TOO_SMALL below 500 cents, INSUFFICIENT_EARNINGS above what is available, PAYOUT_NOT_FOUND', async () => {
    const id = await earner(700);
    const client = sdk(world.ctx, world.developer.apiKey);
    const small = await client.post(`/annotators/${id}/payouts`, { amountCents: 499, method: 'bank_transfer', destination: 'DE00' });
    expect([small.status, small.body.code]).toEqual([400, 'PAYOUT_TOO_SMALL']);
    const big = await client.post(`/annotators/${id}/payouts`, { amountCents: 701, method: 'bank_transfer', destination: 'DE00' });
    expect([big.status, big.body.code]).toEqual([400, 'INSUFFICIENT_EARNINGS']);
    expect(big.body.details).toEqual({ requestedCents: 701, availableCents: 700 });
    const method = await client.post(`/annotators/${id}/payouts`, { amountCents: 600, method: 'cash', destination: 'x' });
    expect(method.body.code).toBe('VALIDATION_ERROR');
    const missing = await admin('post', `/admin/payouts/${newId()}/approve`).send({});
    expect([missing.status, missing.body.code]).toEqual([404, 'PAYOUT_NOT_FOUND']);
  });

  it('concurrent payout requests never reserve more than was earned', async () => {
    const id = await earner(1_600);
    const client = sdk(world.ctx, world.developer.apiKey);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => client.post(`/annotators/${id}/payouts`, { amountCents: 500, method: 'paypal', destination: 'x@y.test' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect((await client.get(`/annotators/${id}/earnings`)).body).toMatchObject({ pendingPayoutCents: 1_500, availableCents: 100 });
  });

  it('admin routes refuse a buyer', async () => {
    const buyer = await fundedBuyer();
    expect((await request(world.ctx.app).get('/api/v1/admin/payouts').set(bearer(buyer.token))).status).toBe(403);
  });
});

describe('budget.low', () => {
  it('a charge that takes the balance below 500 cents records budget.low once and queues an e-mail', async () => {
    const buyer = await fundedBuyer(515);
    const { body } = await asBuyer(buyer).post('/tasks', { ...regular, validationsNeeded: 3 });
    const client = sdk(world.ctx, world.developer.apiKey);
    for (let i = 0; i < 3; i++) await client.answerNext(annotator(), 'yes');
    expect((await asBuyer(buyer).get(`/tasks/${body.taskId}`)).body.status).toBe('COMPLETED');
    const events = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'budget.low' } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.payload as string)).toEqual({ event: 'budget.low', creditBalance: 495, thresholdCents: 500, at: expect.any(String) });
    expect(await world.ctx.prisma.mailOutbox.count({ where: { toAddress: buyer.email, kind: 'BUDGET_LOW' } })).toBe(1);
  });

  it('of three charges 530 → 510 → 490 → 470 only the one that crosses below 500 records it; every charge is on the ledger', async () => {
    const buyer = await fundedBuyer(530);
    const taskIds: string[] = [];
    for (let i = 0; i < 3; i++) taskIds.push((await asBuyer(buyer).post('/tasks', { ...regular, content: `crossing ${i}`, validationsNeeded: 3 })).body.taskId);
    const client = sdk(world.ctx, world.developer.apiKey);
    const crowd = [annotator(), annotator(), annotator()];
    for (const taskId of taskIds) {
      for (const id of crowd) expect(await client.answerNext(id, 'yes')).toBe(taskId);
    }
    await world.ctx.services.settlementEffects.settled();
    const charges = await world.ctx.prisma.ledgerEntry.findMany({ where: { buyerId: buyer.id, type: 'TASK_CHARGE' }, orderBy: { balanceAfterCents: 'desc' } });
    expect(charges.map((c) => [c.taskId, c.amountCents, c.balanceAfterCents])).toEqual([
      [taskIds[0], -20n, 510n],
      [taskIds[1], -20n, 490n],
      [taskIds[2], -20n, 470n],
    ]);
    const events = await world.ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'budget.low' } });
    expect(events.map((e) => JSON.parse(e.payload).creditBalance)).toEqual([490]);
    expect(await world.ctx.prisma.mailOutbox.count({ where: { toAddress: buyer.email, kind: 'BUDGET_LOW' } })).toBe(1);
    expect(await world.ctx.services.db.repos.billing.getBalance(buyer.id)).toEqual({ creditBalance: 470, reservedCents: 0, availableCents: 470 });
  });
});
