import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0' } });
});
afterAll(() => ctx.close());

describe('50 annotators answering 10 tasks at once', () => {
  it('never over-answers a task, decides and bills each exactly once, and keeps every ledger whole', { timeout: 120_000 }, async () => {
    const admin = await createAdmin(ctx);
    const developers = [await createDeveloper(ctx, admin.token), await createDeveloper(ctx, admin.token)];
    const buyer = await createBuyer(ctx);
    await fundBuyer(ctx, admin.token, buyer.id, 1_000);
    const created = await request(ctx.app)
      .post('/api/v1/tasks/batch')
      .set(bearer(buyer.token))
      .send({ tasks: Array.from({ length: 10 }, (_, i) => ({ type: 'SENTIMENT_ANALYSIS', content: `review ${i}`, options: ['pos', 'neg', 'neu'] })) });
    expect(created.status).toBe(201);
    const taskIds: string[] = created.body.tasks.map((t: { taskId: string }) => t.taskId);

    // Half the tasks get clear agreement, the others a split crowd; annotators answer until nothing is left.
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, n) => {
        const client = sdk(ctx, developers[n % 2]?.apiKey as string);
        const annotatorId = `crowd-${n}`;
        for (;;) {
          const next = await client.next(annotatorId);
          statuses.push(next.status);
          if (next.status === 204) return;
          const task = next.body.task as { id: string; options: string[] };
          const index = taskIds.indexOf(task.id);
          const answer = index < 5 ? 'pos' : (task.options[n % 3] as string);
          const done = await client.complete(task.id, annotatorId, answer);
          // A slot holder may find the task decided by the others before it answers: TASK_CLOSED.
          statuses.push(done.status === 409 && done.body.code === 'TASK_CLOSED' ? 201 : done.status);
        }
      }),
    );
    expect(statuses.filter((status) => ![200, 201, 204].includes(status))).toEqual([]);

    const tasks = await ctx.prisma.task.findMany({ where: { id: { in: taskIds } } });
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
    expect(completed).toBeGreaterThanOrEqual(5);
    const balance = await ctx.services.db.repos.billing.getBalance(buyer.id);
    expect(balance).toEqual({ creditBalance: 1_000 - 20 * completed, reservedCents: 0, availableCents: 1_000 - 20 * completed });
    expect(await ctx.services.db.repos.billing.ledgerSum(buyer.id)).toBe(balance?.creditBalance);

    const annotators = await ctx.prisma.annotator.findMany();
    let earned = 0;
    for (const annotator of annotators) {
      expect(await ctx.services.db.repos.annotators.ledgerSum(annotator.id)).toBe(Number(annotator.earnedCents));
      earned += Number(annotator.earnedCents);
    }
    // Each completed task pays at most half its cost to the annotators.
    expect(earned).toBeLessThanOrEqual(10 * completed);
    expect(await ctx.prisma.assignment.count({ where: { task: { status: { in: ['PENDING', 'VALIDATING'] } } } })).toBe(0);
  });
});
