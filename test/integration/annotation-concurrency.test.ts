import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';
import { spawnServer } from '../helpers/server-process.ts';

const ENV = { GOLDEN_RATE: '0' };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createIsolatedTestContext({ env: ENV });
});
afterAll(() => ctx.close());

interface Crowd {
  buyer: TestBuyer;
  developers: TestDeveloper[];
  taskIds: string[];
}

/** Two apps and a buyer with `tasks` open tasks (three options each) and 1 000 cents. */
async function setUp(tasks: number): Promise<Crowd> {
  const admin = await createAdmin(ctx);
  const developers = [await createDeveloper(ctx, admin.token), await createDeveloper(ctx, admin.token)];
  const buyer = await createBuyer(ctx);
  await fundBuyer(ctx, admin.token, buyer.id, 1_000);
  const created = await request(ctx.app)
    .post('/api/v1/tasks/batch')
    .set(bearer(buyer.token))
    .send({ tasks: Array.from({ length: tasks }, (_, i) => ({ type: 'SENTIMENT_ANALYSIS', content: `review ${i}`, options: ['pos', 'neg', 'neu'] })) });
  expect(created.status).toBe(201);
  return { buyer, developers, taskIds: created.body.tasks.map((t: { taskId: string }) => t.taskId) };
}

async function allDecided(crowd: Crowd): Promise<boolean> {
  const open = await ctx.prisma.task.count({ where: { id: { in: crowd.taskIds }, status: { notIn: ['COMPLETED', 'FAILED'] } } });
  return open === 0;
}

/**
 * `annotators` annotators answer at once until nothing is left; `serverFor(n, call)` names the server
 * process that the n-th annotator's call goes to (undefined: the in-process app). Half the tasks get
 * clear agreement, the others a split crowd.
 */
async function answerAll(crowd: Crowd, annotators: number, serverFor: (n: number, call: number) => string | undefined): Promise<void> {
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: annotators }, async (_, n) => {
      const apiKey = crowd.developers[n % crowd.developers.length]?.apiKey as string;
      const annotatorId = `crowd-${n}`;
      for (let call = 0; ; call += 2) {
        const next = await sdk(ctx, apiKey, serverFor(n, call)).next(annotatorId);
        statuses.push(next.status);
        if (next.status === 204) {
          // Nothing to hand out now, but a task whose slots others hold may still need another answer
          // once they answer (a split crowd): a real annotator comes back later, so this one does too
          // while any task is undecided.
          if (await allDecided(crowd)) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        const task = next.body.task as { id: string; options: string[] };
        const answer = crowd.taskIds.indexOf(task.id) < crowd.taskIds.length / 2 ? 'pos' : (task.options[n % 3] as string);
        const done = await sdk(ctx, apiKey, serverFor(n, call + 1)).complete(task.id, annotatorId, answer);
        // A slot holder may find the task decided by the others before it answers: TASK_CLOSED.
        statuses.push(done.status === 409 && done.body.code === 'TASK_CLOSED' ? 201 : done.status);
      }
    }),
  );
  expect(statuses.filter((status) => ![200, 201, 204].includes(status))).toEqual([]);
}

/** Every task decided once, never over-answered, billed once if COMPLETED; the buyer's and the annotators' ledgers whole. */
async function expectSettledExactlyOnce({ buyer, developers, taskIds }: Crowd): Promise<void> {
  // Charges and earnings follow the decisions (SettlementEffects): check them once every decision is applied.
  await ctx.services.settlementEffects.settled();
  const tasks = await ctx.prisma.task.findMany({ where: { id: { in: taskIds } } });
  expect(tasks).toHaveLength(taskIds.length);
  for (const task of tasks) {
    const answers = await ctx.prisma.taskResponse.count({ where: { taskId: task.id } });
    expect(answers).toBe(task.totalResponses);
    expect(answers).toBeLessThanOrEqual(task.maxResponses);
    expect(['COMPLETED', 'FAILED']).toContain(task.status);
    const charges = await ctx.prisma.ledgerEntry.count({ where: { taskId: task.id, type: 'TASK_CHARGE' } });
    expect(charges).toBe(task.status === 'COMPLETED' ? 1 : 0);
    const events = await ctx.prisma.event.count({ where: { buyerId: buyer.id, payload: { contains: task.id } } });
    expect(events).toBe(1);
  }
  const completed = tasks.filter((task) => task.status === 'COMPLETED').length;
  expect(completed).toBeGreaterThanOrEqual(taskIds.length / 2);
  const balance = await ctx.services.db.repos.billing.getBalance(buyer.id);
  expect(balance).toEqual({ creditBalance: 1_000 - 20 * completed, reservedCents: 0, availableCents: 1_000 - 20 * completed });
  expect(await ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(balance?.creditBalance);

  const annotators = await ctx.prisma.annotator.findMany({ where: { developerId: { in: developers.map((d) => d.id) } } });
  let earned = 0;
  for (const annotator of annotators) {
    expect(await ctx.services.db.repos.annotators.ledgerSum(annotator.id)).toBe(Number(annotator.earnedCents));
    earned += Number(annotator.earnedCents);
  }
  // Each completed task pays at most half its cost to the annotators.
  expect(earned).toBeLessThanOrEqual(10 * completed);
}

describe('50 annotators answering 10 tasks at once', () => {
  it('never over-answers a task, decides and bills each exactly once, and keeps every ledger whole', { timeout: 120_000 }, async () => {
    const crowd = await setUp(10);
    await answerAll(crowd, 50, () => undefined);
    await expectSettledExactlyOnce(crowd);
  });
});

describe('annotators spread over three server processes on one database', () => {
  it('each call may reach another process; the same guarantees hold', { timeout: 180_000 }, async () => {
    const servers = await Promise.all([spawnServer(ctx.databaseUrl, ENV), spawnServer(ctx.databaseUrl, ENV)]);
    try {
      const crowd = await setUp(20);
      // The in-process app and the two children in turn, shifted per annotator: next and complete of
      // one answer always reach different processes.
      const urls = [undefined, servers[0]?.url, servers[1]?.url];
      await answerAll(crowd, 45, (n, call) => urls[(n + call) % urls.length]);
      await expectSettledExactlyOnce(crowd);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
    }
  });
});
