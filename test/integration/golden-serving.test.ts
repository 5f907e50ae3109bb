// Golden tasks are never certain to come first (CONTRACT §5): a new annotator is served one with
// probability GOLDEN_FIRST_RATE (0.5) while it has answered none, else GOLDEN_RATE, so throwaway annotator
// ids cannot list a buyer's golden tasks; and an annotator's first reputation snapshot is the annotator at
// its creation, so a first read right after a first (golden) answer shows nothing of it.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/lib/clock.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer, type TestDeveloper } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

const HOUR = 3_600_000;
let now = new Date('2026-11-26T09:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };

let ctx: TestContext;
let buyer: TestBuyer;
let developer: TestDeveloper;
const golden = new Set<string>();

beforeAll(async () => {
  // The contract's rates, not the tests' default (GOLDEN_FIRST_RATE 1).
  ctx = await createIsolatedTestContext({ env: { GOLDEN_FIRST_RATE: '0.5', GOLDEN_RATE: '0.1', REPUTATION_SNAPSHOT_MS: String(HOUR) }, clock });
  const admin = (await createAdmin(ctx)).token;
  buyer = await createBuyer(ctx);
  await fundBuyer(ctx, admin, buyer.id, 100_000);
  developer = await createDeveloper(ctx, admin);
  const post = (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);
  for (let i = 0; i < 5; i++) {
    const created = await post('/golden-tasks', {
      type: 'BINARY_CHOICE',
      content: `Golden ${i}: is the sky blue?`,
      options: ['yes', 'no'],
      goldenAnswer: 'yes',
    });
    expect(created.status).toBe(201);
    golden.add(created.body.id as string);
  }
  const batch = await post('/tasks/batch', {
    tasks: Array.from({ length: 60 }, (_, i) => ({ type: 'BINARY_CHOICE', content: `Regular ${i}`, options: ['yes', 'no'] })),
  });
  expect(batch.status).toBe(201);
});
afterAll(() => ctx.close());

describe('golden serving', () => {
  it('serves a fresh annotator id a golden task about half the time, never always: forty throwaway ids do not list the golden tasks', async () => {
    const app = sdk(ctx, developer.apiKey);
    let goldenFirst = 0;
    for (let i = 0; i < 40; i++) {
      const served = await app.next(`throwaway-${i}`);
      expect(served.status).toBe(200);
      if (golden.has(served.body.task.id as string)) goldenFirst += 1;
    }
    // Binomial(40, 0.5): outside 5..35 with probability below 1e-6. Before, all 40 were golden.
    expect(goldenFirst).toBeGreaterThanOrEqual(5);
    expect(goldenFirst).toBeLessThanOrEqual(35);
  });

  it('decides by the roll: below GOLDEN_FIRST_RATE before a first golden answer, below GOLDEN_RATE after', async () => {
    const assignments = ctx.services.db.rawRepos.assignments;
    const rates = { rate: 0.1, firstRate: 0.5 };
    const claim = async (externalId: string, goldenRoll: number) => {
      const expiresAt = new Date(now.getTime() + 600_000);
      const [outcome] = await assignments.nextBatch(
        [{ developerId: developer.id, externalId, filters: {}, goldenRoll, orderRoll: 0.5 }],
        now,
        expiresAt,
        rates,
      );
      if (outcome?.outcome !== 'SERVED') throw new Error(`nothing served: ${JSON.stringify(outcome)}`);
      return outcome.task.id;
    };
    expect(golden.has(await claim('roll-high', 0.6))).toBe(false);
    expect(golden.has(await claim('roll-low', 0.4))).toBe(true);
    // roll-low answers its golden task: from now on only GOLDEN_RATE applies.
    const app = sdk(ctx, developer.apiKey);
    const live = await app.next('roll-low');
    expect((await app.complete(live.body.task.id as string, 'roll-low', 'yes')).status).toBe(201);
    expect(golden.has(await claim('roll-low', 0.4))).toBe(false);
  });

  it('shows a first reputation read right after a first golden answer as the annotator was created', async () => {
    const app = sdk(ctx, developer.apiKey);
    const created = now;
    // GOLDEN_FIRST_RATE is 0.5: new ids until one is served a golden task first.
    let annotator = '';
    let taskId = '';
    for (let i = 0; i < 60 && !annotator; i++) {
      const served = await app.next(`probe-${i}`);
      if (golden.has(served.body.task.id as string)) [annotator, taskId] = [`probe-${i}`, served.body.task.id as string];
    }
    expect(annotator).not.toBe('');
    now = new Date(created.getTime() + 60_000);
    expect((await app.complete(taskId, annotator, 'no')).status).toBe(201);
    now = new Date(created.getTime() + 120_000);
    const first = await app.get(`/annotators/${annotator}/reputation`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ goldenAnswered: 0, goldenAccuracy: null, reliability: 0.7, level: 'NOVICE', asOf: created.toISOString() });
    // An hour after the creation the snapshot is taken again: the golden answer shows, with the others.
    now = new Date(created.getTime() + HOUR + 1_000);
    const later = await app.get(`/annotators/${annotator}/reputation`);
    expect(later.body).toMatchObject({ goldenAnswered: 1, goldenAccuracy: 0, asOf: now.toISOString() });
  });
});
