// An app cannot tell a golden task from a regular one by anything the SDK routes answer (contract §5).
// Before the reputation snapshot, goldenAnswered/goldenAccuracy moved right after a golden answer, and
// only then, which told an app which tasks were golden and whether it had got them right.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/lib/clock.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';
import { shape } from '../helpers/json-shape.ts';

const HOUR = 3_600_000;
let now = new Date('2026-11-25T10:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };

let ctx: TestContext;
let buyer: TestBuyer;
let developer: TestDeveloper;
beforeAll(async () => {
  ctx = await createIsolatedTestContext({ env: { REPUTATION_SNAPSHOT_MS: String(HOUR), GOLDEN_RATE: '0' }, clock });
  const admin = (await createAdmin(ctx)).token;
  buyer = await createBuyer(ctx);
  await fundBuyer(ctx, admin, buyer.id, 10_000);
  developer = await createDeveloper(ctx, admin);
});
afterAll(() => ctx.close());

const post = (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);

describe('golden tasks cannot be told apart from regular ones', () => {
  it('next, complete, repeated and stray answers, and the reputation look the same', async () => {
    const content = 'Is this sentence positive?';
    const goldenTask = await post('/golden-tasks', { type: 'BINARY_CHOICE', content, options: ['yes', 'no'], goldenAnswer: 'yes' });
    const regularTask = await post('/tasks', { type: 'BINARY_CHOICE', content, options: ['yes', 'no'], validationsNeeded: 1 });
    expect([goldenTask.status, regularTask.status]).toEqual([201, 201]);
    const app = sdk(ctx, developer.apiKey);
    const alice = 'alice';
    // A first next creates alice; her reputation is read (and snapshotted) before any answer.
    const served: Array<{ status: number; body: { task: { id: string } } & Record<string, unknown> }> = [];
    served.push(await app.next(alice));
    const before = await app.get(`/annotators/${alice}/reputation`);
    expect(before.status).toBe(200);
    expect(before.body.asOf).toBe(now.toISOString());

    // Alice has answered no golden task: the golden one comes first, then the regular one.
    const goldenId = served[0]?.body.task.id as string;
    expect(goldenId).toBe(goldenTask.body.id);
    const answers = [await app.complete(goldenId, alice, 'no')];
    served.push(await app.next(alice));
    const regularId = served[1]?.body.task.id as string;
    expect(regularId).toBe(regularTask.body.taskId);
    answers.push(await app.complete(regularId, alice, 'no'));

    expect(served.map((r) => r.status)).toEqual([200, 200]);
    expect(shape(served[0]?.body)).toEqual(shape(served[1]?.body));
    expect(served.map((r) => Object.keys(r.body.task))).toEqual([
      ['id', 'type', 'content', 'options', 'locale'],
      ['id', 'type', 'content', 'options', 'locale'],
    ]);
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [201, { accepted: true }],
      [201, { accepted: true }],
    ]);

    // Repeats, wrong answers and strangers without an assignment get the same codes for both.
    for (const id of [goldenId, regularId]) {
      expect((await app.complete(id, alice, 'no')).body.code).toBe('ALREADY_ANSWERED');
      const stranger = await app.complete(id, `stranger-${id}`, 'yes');
      expect([stranger.status, stranger.body.code]).toEqual([409, 'NO_ASSIGNMENT']);
      expect((await app.get(`/annotators/stranger-${id}/reputation`)).body.code).toBe('ANNOTATOR_NOT_FOUND');
    }

    // Right after the golden answer (wrong, as it happens) nothing the app reads has moved.
    now = new Date(now.getTime() + 10 * 60_000);
    const after = await app.get(`/annotators/${alice}/reputation`);
    expect(after.body).toEqual(before.body);
    // The snapshot is taken again once it is an hour old: the figures arrive together, later.
    now = new Date(now.getTime() + HOUR);
    const later = await app.get(`/annotators/${alice}/reputation`);
    expect(later.body).toMatchObject({ goldenAnswered: 1, goldenAccuracy: 0, asOf: now.toISOString() });
  });

  it('a refused answer by an annotator never seen creates no annotator', async () => {
    const app = sdk(ctx, developer.apiKey);
    const task = await post('/tasks', { type: 'BINARY_CHOICE', content: 'x', options: ['yes', 'no'] });
    const before = await ctx.prisma.annotator.count();
    const refused = [
      await app.complete(task.body.taskId, 'ghost-1', 'yes'), // NO_ASSIGNMENT
      await app.complete('c000000000000000000000000', 'ghost-2', 'yes'), // TASK_NOT_FOUND
      await app.complete(task.body.taskId, 'ghost-3', 'maybe'), // NO_ASSIGNMENT before INVALID_ANSWER
    ];
    expect(refused.map((r) => r.body.code)).toEqual(['NO_ASSIGNMENT', 'TASK_NOT_FOUND', 'NO_ASSIGNMENT']);
    expect(await ctx.prisma.annotator.count()).toBe(before);
    for (const ghost of ['ghost-1', 'ghost-2', 'ghost-3']) {
      expect((await app.get(`/annotators/${ghost}/reputation`)).body.code).toBe('ANNOTATOR_NOT_FOUND');
    }
  });
});
