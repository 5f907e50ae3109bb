// The label quality a buyer can read: GET /projects/:id/quality and GET /quality/option-sets
// through HTTP — figures, golden evidence, warnings, 404s and isolation between buyers — and a skewed
// project whose results, after a re-fit has learned its class prior, beat majority vote on the same answers.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { prng } from '../../bench/quality/random.ts';
import { bearer, createBuyer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { sdk } from '../helpers/sdk.ts';

// A database of its own (the work queue is global). GOLDEN_RATE 1: a buyer's golden tasks are served
// before its regular ones, so a test that has golden tasks knows who answers them.
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '1' } });

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const get = (buyer: TestBuyer, path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token));
const post = (buyer: TestBuyer, path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);

async function createProject(buyer: TestBuyer, settings: object = {}): Promise<string> {
  const res = await post(buyer, '/projects', { name: unique('Quality'), ...settings });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function createTasks(buyer: TestBuyer, contents: string[], extra: object = {}): Promise<string[]> {
  const res = await post(buyer, '/tasks/batch', { tasks: contents.map((content) => ({ type: 'BINARY_CHOICE', content, options: ['yes', 'no'], ...extra })) });
  expect(res.status).toBe(201);
  return res.body.tasks.map((task: { taskId: string }) => task.taskId);
}

/** Annotators take `next` and answer by `answerOf` until nothing is left for any of them. */
async function answerAll(annotators: readonly string[], answerOf: (annotatorId: string, content: string) => string): Promise<void> {
  const client = sdk(world.ctx, world.developer.apiKey);
  for (let round = 0; round < 500; round++) {
    let answered = 0;
    for (const annotatorId of annotators) {
      const next = await client.next(annotatorId);
      if (next.status === 204) continue;
      expect(next.status).toBe(200);
      const done = await client.complete(next.body.task.id, annotatorId, answerOf(annotatorId, next.body.task.content));
      expect(done.status).toBe(201);
      answered += 1;
    }
    if (answered === 0) return;
  }
  throw new Error('the annotators never ran out of work');
}

describe('GET /projects/:id/quality', () => {
  it('reports the completed share, the expected accuracy with its interval, answers and cost per label, and the golden evidence with a warning while it is thin', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const projectId = await createProject(buyer);
    for (const content of ['Is 2 + 2 = 4?', 'Is water dry?']) {
      expect(
        (
          await post(buyer, '/golden-tasks', {
            type: 'BINARY_CHOICE',
            content,
            options: ['yes', 'no'],
            goldenAnswer: content.includes('4') ? 'yes' : 'no',
            projectId,
          })
        ).status,
      ).toBe(201);
    }
    const fresh = await get(buyer, `/projects/${projectId}/quality`);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ completed: 0, failed: 0, open: 0, completedShare: null, expectedAccuracy: null, expectedAccuracyInterval: null });
    expect(fresh.body.warnings.map((w: { code: string }) => w.code)).toEqual(['NO_COMPLETED_TASKS', 'THIN_GOLDEN_EVIDENCE']);

    await createTasks(buyer, ['a', 'b', 'c'], { projectId });
    // Five annotators: each answers the two golden tasks first (one gets the dry water wrong), then the tasks, all "yes".
    await answerAll(['q1', 'q2', 'q3', 'q4', 'q5'].map(unique), (annotatorId, content) =>
      content === 'Is water dry?' && annotatorId.startsWith('q1') ? 'yes' : content.includes('dry') ? 'no' : 'yes',
    );
    await world.ctx.services.settlementEffects.settled();

    const res = await get(buyer, `/projects/${projectId}/quality`);
    expect(res.status).toBe(200);
    const tasks = await world.ctx.prisma.task.findMany({
      where: { projectId },
      select: { status: true, confidence: true, totalResponses: true, costCents: true },
    });
    const completed = tasks.filter((task) => task.status === 'COMPLETED');
    expect(completed.length).toBe(3);
    const mean = completed.reduce((sum, task) => sum + (task.confidence ?? 0), 0) / completed.length;
    expect(res.body).toMatchObject({
      completed: 3,
      failed: 0,
      open: 0,
      completedShare: 1,
      failedShare: 0,
      expectedAccuracy: Math.round(mean * 10_000) / 10_000,
      meanAnswersPerCompleted: completed.reduce((sum, task) => sum + task.totalResponses, 0) / 3,
      costPerCompletedCents: 20,
      golden: { tasks: 2, answers: 10, correct: 9, shareCorrect: 0.9 },
    });
    expect(res.body.expectedAccuracyInterval.low).toBeLessThanOrEqual(res.body.expectedAccuracy);
    expect(res.body.expectedAccuracyInterval.high).toBeGreaterThanOrEqual(res.body.expectedAccuracy);
    // Wilson: 9 of 10 is 0.5958–0.9821.
    expect(res.body.golden.interval).toEqual({ low: 0.5958, high: 0.9821 });
    expect(res.body.warnings.map((w: { code: string }) => w.code)).toEqual(['THIN_GOLDEN_EVIDENCE']);
    expect(res.body.calibration).toMatchObject({ reliability: [] });
  });

  it('says NO_GOLDEN_TASKS for a project without golden tasks', async () => {
    const buyer = await createBuyer(world.ctx);
    const projectId = await createProject(buyer);
    const res = await get(buyer, `/projects/${projectId}/quality`);
    expect(res.body.warnings.map((w: { code: string }) => w.code)).toEqual(['NO_COMPLETED_TASKS', 'NO_GOLDEN_TASKS']);
    expect(res.body.golden).toEqual({ tasks: 0, answers: 0, correct: 0, shareCorrect: null, interval: null });
  });

  it("answers 404 PROJECT_NOT_FOUND for an unknown project and for another buyer's, and 401 without a token", async () => {
    const owner = await createBuyer(world.ctx);
    const other = await createBuyer(world.ctx);
    const projectId = await createProject(owner);
    for (const res of [await get(other, `/projects/${projectId}/quality`), await get(owner, '/projects/cnotaprojectid0000000000000/quality')]) {
      expect([res.status, res.body.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    }
    expect((await request(world.ctx.app).get(`/api/v1/projects/${projectId}/quality`)).status).toBe(401);
  });
});

describe('GET /quality/option-sets', () => {
  it("reports each option set of the buyer's tasks without a project, largest first, and none of another buyer's", async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 1_000);
    const other = await createFundedBuyer(world.ctx, world.adminToken, 1_000);
    await createTasks(buyer, ['x', 'y']);
    const three = await post(buyer, '/tasks/batch', { tasks: [{ type: 'SENTIMENT_ANALYSIS', content: 'z', options: ['positive', 'negative', 'neutral'] }] });
    expect(three.status).toBe(201);
    await createTasks(other, ['w']);
    const res = await get(buyer, '/quality/option-sets');
    expect(res.status).toBe(200);
    expect(res.body.optionSets.map((set: { options: string[]; open: number }) => [set.options, set.open])).toEqual([
      [['no', 'yes'], 2],
      [['negative', 'neutral', 'positive'], 1],
    ]);
    expect((await get(await createBuyer(world.ctx), '/quality/option-sets')).body).toEqual({ optionSets: [] });
  });
});

describe('a skewed project', () => {
  it('after a re-fit has learned its class prior, its three-answer results beat majority vote on the same answers', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 100_000);
    // Every task stops at its third answer with the model's most probable option: the result is always there to compare.
    const projectId = await createProject(buyer, { targetConfidence: 0.5, maxResponses: 3 });
    const random = prng(27);
    const annotators = Array.from({ length: 8 }, (_, i) => unique(`skew${i}`));
    const truthOf = new Map<string, string>();
    const votes = new Map<string, string[]>();
    // 95 % of the items are "no" (most pairs do not match); the crowd is mixed, from 95 % right to 60 %.
    const accuracy = new Map(annotators.map((annotatorId, i) => [annotatorId, [0.95, 0.95, 0.9, 0.9, 0.75, 0.7, 0.65, 0.6][i] ?? 0.6]));
    const answerOf = (annotatorId: string, content: string) => {
      const truth = truthOf.get(content) as string;
      const answer = random() < (accuracy.get(annotatorId) ?? 0.6) ? truth : truth === 'yes' ? 'no' : 'yes';
      votes.set(content, [...(votes.get(content) ?? []), answer]);
      return answer;
    };
    const batch = async (n: number) => {
      const contents = Array.from({ length: n }, () => unique('item'));
      for (const content of contents) truthOf.set(content, random() < 0.05 ? 'yes' : 'no');
      await createTasks(buyer, contents, { projectId, validationsNeeded: 3 });
      await answerAll(annotators, answerOf);
      await world.ctx.services.settlementEffects.settled();
      return contents;
    };
    await batch(200);
    const refit = await world.ctx.services.quality.refitScope(`project:${projectId}`);
    expect(refit.kind).toBe('refitted');
    const scope = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: `project:${projectId}` } });
    // Options sorted: ['no', 'yes'].
    expect(scope.classPrior[0]).toBeGreaterThan(0.8);

    const contents = await batch(200);
    const tasks = await world.ctx.prisma.task.findMany({
      where: { projectId, content: { in: contents } },
      select: { content: true, result: true, status: true },
    });
    expect(tasks.every((task) => task.status === 'COMPLETED')).toBe(true);
    let model = 0;
    let majority = 0;
    for (const task of tasks) {
      const truth = truthOf.get(task.content);
      const answers = votes.get(task.content) ?? [];
      const yes = answers.filter((answer) => answer === 'yes').length;
      if (task.result === truth) model += 1;
      if ((yes * 2 > answers.length ? 'yes' : 'no') === truth) majority += 1;
    }
    expect(model).toBeGreaterThan(majority);
  });
});
