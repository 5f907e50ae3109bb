// Pairwise tasks through HTTP (docs/answer-kinds.md): created by every route with their candidates, shown
// in the order each assignment chose (B first for half the annotators here) and answered first/second/tie,
// mapped back to A/B; decided by the pairwise model, billed once, in the event and every export (the
// preference format and a group's ranking), golden pairwise tasks scored as shown, and the re-fit.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { bearer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

// Every roll the service draws (golden substitution, a pair's shown order) is `roll`: below 0.5 a pair is
// shown B first. GOLDEN_RATE 0: a golden task is served only to an annotator's first `next`.
let roll = 0.9;
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0' }, random: () => roll });
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

const candidates = {
  A: 'A mutex is a synchronization primitive.',
  B: 'A mutex is a lock only one thread holds at a time, so shared data is changed by one thread at once.',
};
const pairTask = (extra: object = {}) => ({
  type: 'AI_RESPONSE_RATING',
  answerKind: 'pairwise',
  content: 'Explain a mutex to a new programmer.',
  candidates,
  ...extra,
});

const post = (buyer: TestBuyer, path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);
const get = (buyer: TestBuyer, path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token));
const csv = (buyer: TestBuyer, text: string) =>
  request(world.ctx.app).post('/api/v1/tasks/batch/csv').set(bearer(buyer.token)).attach('file', Buffer.from(text), 'tasks.csv');

/** The answer naming the candidate `text` as the assignment showed it. */
const naming = (shown: { first: string; second: string }, text: string) => (shown.first === text ? 'first' : 'second');

/**
 * Annotators answer the open pair `taskId`, each picking `better` as shown (B first for every other one)
 * until it is decided; returns the shown orders in the order they answered.
 */
async function answerPair(taskId: string, better: (c: { A: string; B: string }) => string, pair = candidates): Promise<boolean[]> {
  const client = sdk(world.ctx, world.developer.apiKey);
  const swaps: boolean[] = [];
  for (let n = 0; n < 10; n++) {
    roll = n % 2 === 0 ? 0.1 : 0.9;
    const annotatorId = unique('judge');
    const next = await client.next(annotatorId);
    if (next.status === 204) return swaps;
    expect(next.body.task).toMatchObject({ id: taskId, answerKind: 'pairwise' });
    const shown = next.body.task.candidates as { first: string; second: string };
    swaps.push(shown.first === pair.B);
    expect((await client.complete(taskId, annotatorId, naming(shown, better(pair)))).status).toBe(201);
  }
  throw new Error('the pair was never decided');
}

describe('pairwise tasks', () => {
  it('are created by every route with their candidates, and refused with the field named when the shape is wrong', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const single = await post(buyer, '/tasks', pairTask({ group: 'mutex' }));
    expect(single.status).toBe(201);
    const batch = await post(buyer, '/tasks/batch', { tasks: [pairTask({ allowTie: true })] });
    expect(batch.status).toBe(201);
    const imported = await csv(
      buyer,
      `type,content,options,answerKind,candidateA,candidateB,allowTie,group\nAI_RESPONSE_RATING,Say hi,,pairwise,Hi,Hello there,TRUE,greetings\n`,
    );
    expect(imported.body).toMatchObject({ created: 1, errors: [] });

    const read = async (id: string) => (await get(buyer, `/tasks/${id}`)).body;
    // Listed and counted by kind.
    await post(buyer, '/tasks', { type: 'BINARY_CHOICE', content: 'Yes?', options: ['yes', 'no'] });
    expect((await get(buyer, '/tasks?answerKind=pairwise')).body.tasks).toHaveLength(3);
    expect((await get(buyer, '/tasks/counts?answerKind=single')).body.total).toBe(1);
    expect(await read(single.body.taskId)).toMatchObject({
      answerKind: 'pairwise',
      options: ['A', 'B'],
      candidates,
      allowTie: false,
      group: 'mutex',
      result: null,
    });
    expect(await read(batch.body.tasks[0].taskId)).toMatchObject({ options: ['A', 'B', 'tie'], allowTie: true, group: null });
    expect(await read(imported.body.tasks[0].taskId)).toMatchObject({
      candidates: { A: 'Hi', B: 'Hello there' },
      allowTie: true,
      group: 'greetings',
      options: ['A', 'B', 'tie'],
    });

    const refused = async (body: object) => (await post(buyer, '/tasks', body)).body;
    expect(await refused({ ...pairTask(), candidates: undefined })).toMatchObject({ code: 'MISSING_FIELDS', details: { fields: ['candidates'] } });
    expect(await refused(pairTask({ options: ['A', 'B'] }))).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'options' }] } });
    expect(await refused(pairTask({ candidates: { A: 'same', B: 'same' } }))).toMatchObject({ details: { issues: [{ path: 'candidates' }] } });
    expect(await refused(pairTask({ candidates: { A: 'only one' } }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: 'candidates.B' }] },
    });
    const plain = { type: 'BINARY_CHOICE', content: 'Yes?', options: ['yes', 'no'] };
    for (const field of ['allowTie', 'group', 'candidates'] as const) {
      const value = field === 'allowTie' ? true : field === 'group' ? 'g' : candidates;
      expect(await refused({ ...plain, [field]: value })).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: field }] } });
    }
    const badRow = await csv(buyer, 'type,content,options,answerKind,candidateA\nAI_RESPONSE_RATING,Say hi,,pairwise,Hi\n');
    expect(badRow.body.errors).toEqual([expect.objectContaining({ row: 1, code: 'VALIDATION_ERROR', error: expect.stringContaining('candidates.B') })]);
  });

  it('show each assignment its own order, map first/second back to A/B, and are decided, billed once and exported', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const taskId: string = (await post(buyer, '/tasks', pairTask())).body.taskId;

    // The order is the assignment's: B first here, kept on a repeated next, and A/B is not an answer.
    const client = sdk(world.ctx, world.developer.apiKey);
    const probe = unique('probe');
    roll = 0.1;
    const first = await client.next(probe);
    expect(first.body.task).toMatchObject({ options: ['first', 'second'], candidates: { first: candidates.B, second: candidates.A } });
    roll = 0.9;
    expect((await client.next(probe)).body.task.candidates).toEqual({ first: candidates.B, second: candidates.A });
    for (const wrong of ['A', 'B', 'tie']) {
      const refused = await client.complete(taskId, probe, wrong);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'INVALID_ANSWER',
        error: expect.stringContaining('first, second'),
        details: { issues: [{ path: 'answer' }], accepted: ['first', 'second'] },
      });
    }
    // "first" under B-first is B.
    expect((await client.complete(taskId, probe, 'first')).status).toBe(201);

    const swaps = await answerPair(taskId, (pair) => pair.B);
    expect(swaps).toContain(true);
    expect(swaps).toContain(false);
    const task = (await get(buyer, `/tasks/${taskId}`)).body;
    expect(task).toMatchObject({ status: 'COMPLETED', answerKind: 'pairwise', result: 'B', totalResponses: swaps.length + 1 });
    expect(task.confidence).toBeGreaterThanOrEqual(0.95);
    // Every answer is B, whichever side it was shown on; each says the order it was given in.
    expect(task.responses.map((r: { answer: string }) => r.answer)).toEqual(new Array(swaps.length + 1).fill('B'));
    expect(task.responses.map((r: { shownOrder: string }) => r.shownOrder)).toEqual(['BA', ...swaps.map((s) => (s ? 'BA' : 'AB'))]);

    await world.ctx.services.settlementEffects.settled();
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { taskId, type: 'TASK_CHARGE' } })).toBe(1);
    const event = await world.ctx.prisma.event.findFirstOrThrow({ where: { buyerId: buyer.id, type: 'task.completed' } });
    expect(JSON.parse(event.payload)).toMatchObject({ taskId, result: 'B', answerKind: 'pairwise', confidence: task.confidence });

    const jsonl = JSON.parse((await get(buyer, '/exports?format=jsonl')).text.trim());
    expect(jsonl).toEqual({
      id: taskId,
      type: 'AI_RESPONSE_RATING',
      content: task.content,
      label: 'B',
      answerKind: 'pairwise',
      candidates,
      group: null,
      groupRanking: null,
    });
    const preference = JSON.parse((await get(buyer, '/exports?format=preference')).text.trim());
    expect(preference).toEqual({ prompt: task.content, chosen: candidates.B, rejected: candidates.A, confidence: task.confidence, id: taskId });
    const alpaca = JSON.parse((await get(buyer, '/exports?format=alpaca')).text.trim());
    expect(alpaca.output).toBe('B');
    expect(alpaca.input).toContain(`Response A:\n${candidates.A}`);
    const hf = JSON.parse((await get(buyer, '/exports?format=huggingface')).text.trim());
    expect(hf).toEqual({ text: task.content, candidate_a: candidates.A, candidate_b: candidates.B, label: 'B', label_id: 1 });
    expect((await get(buyer, '/exports?format=csv')).text).toContain(`Response B:\n${candidates.B}`);

    // The scope's counts are 3×3 tables as shown: an answerer who saw B first has its count at (left, left).
    const scope = await world.ctx.prisma.labelScope.findFirstOrThrow({ where: { buyerId: buyer.id } });
    expect(scope).toMatchObject({ answerKind: 'pairwise', options: ['A', 'B', 'tie'] });
    expect(scope.key.startsWith('pairwise:buyer:')).toBe(true);
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey: scope.key } });
    expect(counts).toHaveLength(swaps.length + 1);
    const cells = counts.map((row) => row.matrix.findIndex((n) => n === 1)).sort();
    expect(cells).toEqual(['BA', ...swaps.map((s) => (s ? 'BA' : 'AB'))].map((order) => (order === 'BA' ? 0 : 4)).sort());

    // The re-fit fits the pairwise model: the typical annotator [bias, reliability] and a class prior over A, B, tie.
    expect((await world.ctx.services.quality.refitScope(scope.key)).kind).toBe('refitted');
    const refitted = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scope.key } });
    expect(refitted.priorShape).toHaveLength(2);
    expect(refitted.classPrior).toHaveLength(3);
    expect(refitted.classPrior[1]).toBeGreaterThan(refitted.classPrior[0] ?? 1);
  });

  it('take a tie only where the task allows it, and leave ties out of the preference export unless asked', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const strict: string = (await post(buyer, '/tasks', pairTask())).body.taskId;
    const client = sdk(world.ctx, world.developer.apiKey);
    const annotatorId = unique('tie');
    expect((await client.next(annotatorId)).body.task.options).toEqual(['first', 'second']);
    const refused = await client.complete(strict, annotatorId, 'tie');
    expect(refused.body).toMatchObject({ code: 'INVALID_ANSWER' });
    expect(await world.ctx.prisma.taskResponse.count({ where: { taskId: strict } })).toBe(0);
    await world.ctx.prisma.task.update({ where: { id: strict }, data: { status: 'FAILED' } });

    const tied: string = (await post(buyer, '/tasks', pairTask({ allowTie: true }))).body.taskId;
    for (let n = 0; n < 10; n++) {
      const judge = unique('judge');
      const next = await client.next(judge);
      if (next.status === 204) break;
      expect(next.body.task.options).toEqual(['first', 'second', 'tie']);
      expect((await client.complete(tied, judge, 'tie')).status).toBe(201);
    }
    expect((await get(buyer, `/tasks/${tied}`)).body).toMatchObject({ status: 'COMPLETED', result: 'tie' });
    expect((await get(buyer, '/exports?format=preference')).text).toBe('');
    expect((await get(buyer, '/exports?format=jsonl&includeTies=true')).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: 'includeTies' }] },
    });
    const withTies = JSON.parse((await get(buyer, '/exports?format=preference&includeTies=true')).text.trim());
    expect(withTies).toMatchObject({ chosen: candidates.A, rejected: candidates.B, tie: true, id: tied });
  });

  it("rank a group's candidates from its decided pairs in the json export and the project's pairwise report", async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const projectId: string = (await post(buyer, '/projects', { name: unique('pairs') })).body.id;
    const [good, fair, poor] = ['Paris is the capital of France.', 'Paris, I think.', 'Lyon.'];
    const quality = new Map([
      [good, 3],
      [fair, 2],
      [poor, 1],
    ]);
    const pairs = [
      { A: fair, B: good },
      { A: fair, B: poor },
      { A: good, B: poor },
    ];
    for (const pair of pairs) {
      const taskId: string = (
        await post(buyer, '/tasks', pairTask({ content: 'What is the capital of France?', candidates: pair, group: 'capital', projectId }))
      ).body.taskId;
      await answerPair(taskId, (c) => ((quality.get(c.A) ?? 0) > (quality.get(c.B) ?? 0) ? c.A : c.B), pair);
    }
    const records = (await get(buyer, '/exports?format=json')).body as Array<{ group: string; groupRanking: Array<{ candidate: string; rank: number }> }>;
    expect(records).toHaveLength(3);
    for (const record of records) {
      expect(record.group).toBe('capital');
      expect(record.groupRanking.map(({ candidate, rank }) => [candidate, rank])).toEqual([
        [good, 1],
        [fair, 2],
        [poor, 3],
      ]);
    }

    const report = await get(buyer, `/projects/${projectId}/pairwise`);
    expect(report.status).toBe(200);
    expect(report.body.groups).toEqual([
      {
        group: 'capital',
        pairs: 3,
        ranking: [good, fair, poor].map((candidate, i) => ({ candidate, score: expect.any(Number), rank: i + 1 })),
        winRate: [
          [null, 1, 1],
          [0, null, 1],
          [0, 0, null],
        ],
      },
    ]);
    // Anonymous: no annotator ids, only their figures; every one of them answered pairs in both orders or not.
    expect(report.body.annotators.length).toBeGreaterThan(3);
    for (const annotator of report.body.annotators) expect(Object.keys(annotator).sort()).toEqual(['answers', 'positionBias', 'reliability']);
    const stranger = await createFundedBuyer(world.ctx, world.adminToken, 100);
    expect((await get(stranger, `/projects/${projectId}/pairwise`)).body).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
  });

  it('serve golden pairwise tasks in their own shown order and score the answer as the candidate it names', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const golden = await post(buyer, '/golden-tasks', { ...pairTask(), goldenAnswer: 'B' });
    expect(golden.status).toBe(201);
    expect(golden.body).toMatchObject({ answerKind: 'pairwise', candidates, allowTie: false, goldenAnswer: 'B', options: ['A', 'B'] });
    const badGolden = await post(buyer, '/golden-tasks', { ...pairTask(), goldenAnswer: 'tie' });
    expect(badGolden.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'goldenAnswer' }] } });
    await post(buyer, '/tasks', pairTask());

    const client = sdk(world.ctx, world.developer.apiKey);
    const annotatorId = unique('newcomer');
    roll = 0.1;
    const next = await client.next(annotatorId);
    expect(next.body.task).toMatchObject({ id: golden.body.id, answerKind: 'pairwise', candidates: { first: candidates.B, second: candidates.A } });
    expect((await client.complete(golden.body.id, annotatorId, 'A')).body).toMatchObject({ code: 'INVALID_ANSWER' });
    // B was shown first: "first" is B, the golden answer.
    expect((await client.complete(golden.body.id, annotatorId, 'first')).status).toBe(201);
    const response = await world.ctx.prisma.goldenResponse.findFirstOrThrow({ where: { goldenTaskId: golden.body.id } });
    expect(response).toMatchObject({ answer: 'B', correct: true, swapped: true });

    const scope = await world.ctx.prisma.labelScope.findFirstOrThrow({ where: { buyerId: buyer.id } });
    const counts = await world.ctx.prisma.annotatorScopeCounts.findFirstOrThrow({ where: { scopeKey: scope.key } });
    // One count at (truth shown left, answer left) of the 3×3 table.
    expect(counts.matrix).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
