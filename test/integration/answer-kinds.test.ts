// Answer kinds through HTTP (docs/answer-kinds.md): a rating task from creation (single, batch, CSV,
// golden) to its decision by the rating model, billed once, in its event and its export, and its scope
// apart from single-choice tasks with the same options, re-fitted by the rating model.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { bearer, createFundedBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';

// GOLDEN_RATE 0: a golden task is served only to an annotator's first `next` (GOLDEN_FIRST_RATE 1 in tests).
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '0' } });
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const levels = ['1', '2', '3', '4', '5'];
const ratingTask = (content: string) => ({ type: 'AI_RESPONSE_RATING', answerKind: 'rating', content, options: levels });

const post = (buyer: TestBuyer, path: string, body: object) => request(world.ctx.app).post(`/api/v1${path}`).set(bearer(buyer.token)).send(body);
const get = (buyer: TestBuyer, path: string) => request(world.ctx.app).get(`/api/v1${path}`).set(bearer(buyer.token));

/** Annotators answer the only open task until it is decided; returns how many answered. */
async function answerUntilDecided(taskId: string, answer: string): Promise<number> {
  const client = sdk(world.ctx, world.developer.apiKey);
  for (let n = 0; n < 12; n++) {
    const annotatorId = unique('rater');
    const next = await client.next(annotatorId);
    if (next.status === 204) return n;
    expect(next.body.task).toMatchObject({ id: taskId, answerKind: 'rating', options: levels });
    expect((await client.complete(taskId, annotatorId, answer)).status).toBe(201);
  }
  throw new Error('the task was never decided');
}

describe('rating tasks', () => {
  it('are created by every route with answerKind, and refused with the field named when the shape is wrong', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const single = await post(buyer, '/tasks', ratingTask('Rate: "Paris is the capital of France."'));
    expect(single.status).toBe(201);
    const batch = await post(buyer, '/tasks/batch', { tasks: [ratingTask('Rate: "2 + 2 = 5"'), { ...ratingTask('plain'), answerKind: undefined }] });
    expect(batch.status).toBe(201);
    const csv = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach('file', Buffer.from('type,content,options,answerKind\nAI_RESPONSE_RATING,Rate this,1|2|3,rating\nBINARY_CHOICE,Yes?,yes|no,\n'), 'tasks.csv');
    expect(csv.status).toBe(201);
    expect(csv.body.created).toBe(2);

    const kinds = async (id: string) => (await get(buyer, `/tasks/${id}`)).body;
    expect(await kinds(single.body.taskId)).toMatchObject({ answerKind: 'rating', options: levels, result: null, rating: null });
    // A single-choice task reads exactly as before answer kinds: no answerKind, no rating.
    expect(Object.keys(await kinds(batch.body.tasks[1].taskId))).not.toContain('answerKind');
    expect(Object.keys(await kinds(batch.body.tasks[1].taskId))).not.toContain('rating');
    expect((await kinds(csv.body.tasks[0].taskId)).answerKind).toBe('rating');
    expect((await kinds(csv.body.tasks[1].taskId)).answerKind).toBeUndefined();

    const tooLong = await post(buyer, '/tasks', { ...ratingTask('x'), options: Array.from({ length: 12 }, (_, i) => String(i)) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'options' }] } });
    const unknown = await post(buyer, '/tasks', { ...ratingTask('x'), answerKind: 'essay' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'answerKind' }] } });
    const badRow = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach('file', Buffer.from('type,content,options,answerKind\nAI_RESPONSE_RATING,Rate,1|2,stars\n'), 'tasks.csv');
    expect(badRow.body.errors).toEqual([expect.objectContaining({ row: 1, code: 'VALIDATION_ERROR', error: expect.stringContaining('answerKind') })]);
  });

  it('are decided by the rating model: the level, its posterior mean and interval, one charge, the event and the export', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const created = await post(buyer, '/tasks', ratingTask('Rate: "Water boils at 100 °C at sea level."'));
    const taskId: string = created.body.taskId;
    const answered = await answerUntilDecided(taskId, '4');
    // New raters (30 % lapse, about ±1 level of noise) need several agreeing answers to reach 0.95.
    expect(answered).toBeGreaterThan(3);

    const task = (await get(buyer, `/tasks/${taskId}`)).body;
    expect(task).toMatchObject({ status: 'COMPLETED', answerKind: 'rating', result: '4', totalResponses: answered });
    expect(task.confidence).toBeGreaterThanOrEqual(0.95);
    expect(task.rating.interval).toEqual([3, 3]);
    expect(task.rating.mean).toBeGreaterThan(2.9);
    expect(task.rating.mean).toBeLessThan(3.1);

    await world.ctx.services.settlementEffects.settled();
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { taskId, type: 'TASK_CHARGE' } })).toBe(1);
    const event = await world.ctx.prisma.event.findFirstOrThrow({ where: { buyerId: buyer.id, type: 'task.completed' } });
    expect(JSON.parse(event.payload)).toMatchObject({ taskId, result: '4', answerKind: 'rating', rating: task.rating, confidence: task.confidence });

    const exported = await get(buyer, '/exports?format=jsonl');
    expect(exported.status).toBe(200);
    expect(JSON.parse(exported.text.trim())).toEqual({
      id: taskId,
      type: 'AI_RESPONSE_RATING',
      content: task.content,
      label: '4',
      answerKind: 'rating',
      rating: task.rating,
    });

    // The scope is the buyer's rating tasks on these levels, apart from single-choice tasks with the same options.
    const scope = await world.ctx.prisma.labelScope.findFirstOrThrow({ where: { buyerId: buyer.id } });
    expect(scope).toMatchObject({ answerKind: 'rating', options: levels });
    expect(scope.key.startsWith('rating:buyer:')).toBe(true);
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey: scope.key } });
    expect(counts).toHaveLength(answered);
    // Each answerer's table gained one count at (result 4, answer 4): row 3, column 3 of a 5×5 table.
    for (const row of counts) expect(row.matrix[3 * 5 + 3]).toBe(1);

    // The re-fit fits the rating model: the typical rater [bias, spread, lapse] and a class prior over the levels.
    const refit = await world.ctx.services.quality.refitScope(scope.key);
    expect(refit.kind).toBe('refitted');
    const refitted = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scope.key } });
    expect(refitted.priorShape).toHaveLength(3);
    expect(refitted.priorShape[0]).toBe(0);
    expect(refitted.classPrior).toHaveLength(5);
    expect(refitted.classPrior.indexOf(Math.max(...refitted.classPrior))).toBe(3);
  });

  it('take one level of the scale as the answer: a level off the scale or a list is INVALID_ANSWER naming the field, and changes nothing', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const { taskId } = (await post(buyer, '/tasks', ratingTask('Rate: "The moon is made of cheese."'))).body as { taskId: string };
    const client = sdk(world.ctx, world.developer.apiKey);
    const annotatorId = unique('rater');
    expect((await client.next(annotatorId)).body.task).toMatchObject({ id: taskId, answerKind: 'rating' });
    // An empty answer is no answer at all: the body's schema refuses it, naming the field too.
    const empty = await client.post(`/tasks/${taskId}/complete`, { annotatorId, answer: '', timeSpentMs: 900 });
    expect(empty.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'answer' }] } });
    for (const answer of ['6', '0', '4.5', ['4'], ['3', '4']]) {
      const res = await client.post(`/tasks/${taskId}/complete`, { annotatorId, answer, timeSpentMs: 900 });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_ANSWER', details: { issues: [{ path: 'answer' }], accepted: levels } });
      expect(res.body.error).toContain('1, 2, 3, 4, 5');
    }
    expect(await world.ctx.prisma.taskResponse.count({ where: { taskId } })).toBe(0);
    expect(await world.ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: 'PENDING', totalResponses: 0 });
    // The annotator still holds the assignment: a level of the scale is then taken.
    expect((await client.complete(taskId, annotatorId, '2')).status).toBe(201);
  });

  it('serve golden rating tasks in place of rating tasks only, and their answers teach the rating scope', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const golden = await post(buyer, '/golden-tasks', { ...ratingTask('Rate: "The Earth is flat."'), goldenAnswer: '1' });
    expect(golden.status).toBe(201);
    expect(golden.body.answerKind).toBe('rating');
    const singleGolden = await post(buyer, '/golden-tasks', {
      type: 'AI_RESPONSE_RATING',
      content: 'Single-choice golden',
      options: levels,
      goldenAnswer: '1',
    });
    expect(singleGolden.body.answerKind).toBeUndefined();
    await post(buyer, '/tasks', ratingTask('Rate: "The Moon orbits the Earth."'));

    const client = sdk(world.ctx, world.developer.apiKey);
    const annotatorId = unique('newcomer');
    const next = await client.next(annotatorId);
    expect(next.body.task).toMatchObject({ id: golden.body.id, answerKind: 'rating' });
    expect((await client.complete(golden.body.id, annotatorId, '2')).status).toBe(201);

    const scope = await world.ctx.prisma.labelScope.findFirstOrThrow({ where: { buyerId: buyer.id } });
    expect(scope).toMatchObject({ answerKind: 'rating', options: levels });
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey: scope.key } });
    // Truth 1 (row 0), answer 2 (column 1).
    expect(counts.map((row) => row.matrix.indexOf(1))).toEqual([1]);
  });
});

describe('multi-select tasks', () => {
  const tags = ['spam', 'offensive', 'off-topic', 'fine'];
  const multiTask = (content: string, extra: object = {}) => ({ type: 'BINARY_CHOICE', answerKind: 'multi', content, options: tags, ...extra });

  it('are created with allowEmpty where it fits, and refused with the field named otherwise', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const created = await post(buyer, '/tasks', multiTask('Buy cheap pills now!!!', { allowEmpty: true }));
    expect(created.status).toBe(201);
    expect((await get(buyer, `/tasks/${created.body.taskId}`)).body).toMatchObject({
      answerKind: 'multi',
      allowEmpty: true,
      result: null,
      choices: null,
      optionConfidence: null,
    });
    const piped = await post(buyer, '/tasks', multiTask('x', { options: ['a|b', 'c'] }));
    expect(piped.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'options' }] } });
    const onSingle = await post(buyer, '/tasks', { type: 'BINARY_CHOICE', content: 'x', options: ['yes', 'no'], allowEmpty: true });
    expect(onSingle.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'allowEmpty' }] } });
    const tooMany = await post(buyer, '/tasks', multiTask('x', { options: Array.from({ length: 21 }, (_, i) => `tag${i}`) }));
    expect(tooMany.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'options' }] } });
    const csv = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach(
        'file',
        Buffer.from('type,content,options,answerKind,allowEmpty\nBINARY_CHOICE,Tag it,a|b|c,multi,TRUE\nBINARY_CHOICE,Tag,a|b,multi,maybe\n'),
        'tasks.csv',
      );
    expect(csv.body.created).toBe(1);
    expect((await get(buyer, `/tasks/${csv.body.tasks[0].taskId}`)).body).toMatchObject({ answerKind: 'multi', allowEmpty: true });
    expect(csv.body.errors).toEqual([expect.objectContaining({ row: 2, code: 'VALIDATION_ERROR', error: expect.stringContaining('allowEmpty') })]);
  });

  it('take a set of options as the answer, and refuse anything else with INVALID_ANSWER, changing nothing', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const { taskId } = (await post(buyer, '/tasks', multiTask('You are an idiot, buy my course'))).body as { taskId: string };
    const client = sdk(world.ctx, world.developer.apiKey);
    const annotatorId = unique('tagger');
    expect((await client.next(annotatorId)).body.task).toMatchObject({ id: taskId, answerKind: 'multi', options: tags });
    const refused = async (answer: unknown) => {
      const res = await client.post(`/tasks/${taskId}/complete`, { annotatorId, answer, timeSpentMs: 1000 });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_ANSWER');
      expect(res.body.details).toEqual({ issues: [{ path: 'answer', message: res.body.error }], accepted: tags });
    };
    await refused('spam|spam');
    await refused(['spam', 'spam']);
    await refused(['spam', 'nonsense']);
    await refused([]);
    expect(await world.ctx.prisma.taskResponse.count({ where: { taskId } })).toBe(0);
    expect((await client.post(`/tasks/${taskId}/complete`, { annotatorId, answer: ['offensive', 'spam'], timeSpentMs: 1000 })).status).toBe(201);
    // The same set joined by | is the same answer: a second annotator's, as text.
    const second = unique('tagger');
    await client.next(second);
    expect((await client.post(`/tasks/${taskId}/complete`, { annotatorId: second, answer: 'offensive|spam', timeSpentMs: 800 })).status).toBe(201);
    // Stored and shown in the task's option order.
    expect((await get(buyer, `/tasks/${taskId}`)).body.responses).toEqual([
      { answer: 'spam|offensive', timeSpentMs: 1000 },
      { answer: 'spam|offensive', timeSpentMs: 800 },
    ]);

    // A set for a single-choice task is refused too.
    await world.ctx.prisma.task.updateMany({ where: { status: { in: ['PENDING', 'VALIDATING'] } }, data: { status: 'FAILED', heldAt: null } });
    const single = (await post(buyer, '/tasks', { type: 'BINARY_CHOICE', content: 'Spam?', options: ['yes', 'no'] })).body as { taskId: string };
    const other = unique('tagger');
    await client.next(other);
    const res = await client.post(`/tasks/${single.taskId}/complete`, { annotatorId: other, answer: ['yes'], timeSpentMs: 1000 });
    expect(res.body.code).toBe('INVALID_ANSWER');
  });

  it('are decided option by option: the set, each option’s confidence, one charge, the event, the exports and the re-fit', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const { taskId } = (await post(buyer, '/tasks', multiTask('Click here to win, you fool'))).body as { taskId: string };
    const client = sdk(world.ctx, world.developer.apiKey);
    let answered = 0;
    for (; answered < 12; answered++) {
      const annotatorId = unique('tagger');
      const next = await client.next(annotatorId);
      if (next.status === 204) break;
      expect((await client.post(`/tasks/${taskId}/complete`, { annotatorId, answer: ['offensive', 'spam'], timeSpentMs: 900 })).status).toBe(201);
    }
    expect(answered).toBeGreaterThanOrEqual(3);
    const task = (await get(buyer, `/tasks/${taskId}`)).body;
    expect(task).toMatchObject({ status: 'COMPLETED', answerKind: 'multi', result: 'spam|offensive', choices: ['spam', 'offensive'] });
    expect(Object.keys(task.optionConfidence).sort()).toEqual([...tags].sort());
    expect(task.confidence).toBe(Math.min(...(Object.values(task.optionConfidence) as number[])));
    expect(task.confidence).toBeGreaterThanOrEqual(0.95);

    await world.ctx.services.settlementEffects.settled();
    expect(await world.ctx.prisma.ledgerEntry.count({ where: { taskId, type: 'TASK_CHARGE' } })).toBe(1);
    // Every answer was the decided set: all of them share the annotators' part.
    const earnings = await world.ctx.prisma.ledgerEntry.count({ where: { taskId, type: 'EARNING' } });
    expect(earnings).toBe(answered);
    const event = await world.ctx.prisma.event.findFirstOrThrow({ where: { buyerId: buyer.id, type: 'task.completed' } });
    expect(JSON.parse(event.payload)).toMatchObject({
      taskId,
      result: 'spam|offensive',
      choices: ['spam', 'offensive'],
      answerKind: 'multi',
      optionConfidence: task.optionConfidence,
    });

    const jsonl = await get(buyer, '/exports?format=jsonl');
    expect(JSON.parse(jsonl.text.trim())).toMatchObject({ id: taskId, label: 'spam|offensive', choices: ['spam', 'offensive'], answerKind: 'multi' });
    const csv = await get(buyer, '/exports?format=csv');
    expect(csv.text).toContain(',spam|offensive,');
    const huggingface = await get(buyer, '/exports?format=huggingface');
    expect(JSON.parse(huggingface.text.trim())).toEqual({ text: task.content, label: ['spam', 'offensive'], label_id: [0, 1] });

    const scope = await world.ctx.prisma.labelScope.findFirstOrThrow({ where: { buyerId: buyer.id } });
    expect(scope).toMatchObject({ answerKind: 'multi', options: [...tags].sort() });
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey: scope.key } });
    expect(counts).toHaveLength(answered);
    // Four counts each: two options absent and left, two present and ticked.
    for (const row of counts) expect(row.matrix).toEqual([2, 0, 0, 2]);

    const refit = await world.ctx.services.quality.refitScope(scope.key);
    expect(refit.kind).toBe('refitted');
    const refitted = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scope.key } });
    expect(refitted.priorShape).toHaveLength(2);
    expect(refitted.classPrior).toHaveLength(4);
    const after = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey: scope.key } });
    for (const row of after) expect(row.matrix).toHaveLength(4);
  });

  it('count once per option of their set in their project’s result distribution', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const project = (await post(buyer, '/projects', { name: unique('Moderation') })).body as { id: string };
    const { taskId } = (await post(buyer, '/tasks', multiTask('Idiot! Buy my pills', { projectId: project.id }))).body as { taskId: string };
    const client = sdk(world.ctx, world.developer.apiKey);
    for (let n = 0; n < 12; n++) {
      const annotatorId = unique('tagger');
      if ((await client.next(annotatorId)).status === 204) break;
      await client.post(`/tasks/${taskId}/complete`, { annotatorId, answer: ['spam', 'offensive'], timeSpentMs: 500 });
    }
    const distribution = (await get(buyer, `/projects/${project.id}/distribution`)).body;
    expect(distribution.completed).toBe(1);
    expect(distribution.labels).toEqual([
      { label: 'offensive', count: 1 },
      { label: 'spam', count: 1 },
    ]);
    // The chart by kind: each option's share of the multi-select tasks that offered it.
    expect(distribution.kinds).toEqual({ single: 0, rating: 0, multi: 1, pairwise: 0, text: 0 });
    expect(distribution.multiOptions).toEqual(
      multiTask('')
        .options.map((option) => ({ option, count: ['spam', 'offensive'].includes(option) ? 1 : 0, rate: ['spam', 'offensive'].includes(option) ? 1 : 0 }))
        .sort((a, b) => b.count - a.count || (a.option < b.option ? -1 : 1)),
    );
    expect(distribution.ratingScales).toEqual([]);
  });

  it('serve golden multi-select tasks and score a golden answer by its set', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const golden = await post(buyer, '/golden-tasks', { ...multiTask('Golden: you moron, buy now'), goldenAnswer: ['offensive', 'spam'] });
    expect(golden.status).toBe(201);
    expect(golden.body).toMatchObject({ answerKind: 'multi', allowEmpty: false, goldenAnswer: 'spam|offensive', goldenChoices: ['spam', 'offensive'] });
    const wrongShape = await post(buyer, '/golden-tasks', { ...multiTask('x'), goldenAnswer: ['spam', 'nonsense'] });
    expect(wrongShape.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'goldenAnswer' }] } });
    await post(buyer, '/tasks', multiTask('Regular: nice weather today'));

    const client = sdk(world.ctx, world.developer.apiKey);
    const annotatorId = unique('newcomer');
    expect((await client.next(annotatorId)).body.task).toMatchObject({ id: golden.body.id, answerKind: 'multi' });
    expect((await client.post(`/tasks/${golden.body.id}/complete`, { annotatorId, answer: 'offensive|spam', timeSpentMs: 700 })).status).toBe(201);
    const listed = (await get(buyer, '/golden-tasks')).body.goldenTasks.find((g: { id: string }) => g.id === golden.body.id);
    expect(listed).toMatchObject({ timesAnswered: 1, correctRate: 1 });
    const scope = await world.ctx.prisma.labelScope.findFirstOrThrow({ where: { buyerId: buyer.id } });
    const counts = await world.ctx.prisma.annotatorScopeCounts.findMany({ where: { scopeKey: scope.key } });
    expect(counts.map((row) => row.matrix)).toEqual([[2, 0, 0, 2]]);
  });
});

describe("a project's default answer kind", () => {
  it('is the kind of its tasks that name none, on every route; a task naming its kind keeps it', async () => {
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 10_000);
    const created = await post(buyer, '/projects', { name: unique('scales'), defaultAnswerKind: 'rating' });
    expect(created.status).toBe(201);
    expect(created.body.defaultAnswerKind).toBe('rating');
    const projectId: string = created.body.id;
    const plain = { type: 'AI_RESPONSE_RATING', content: 'Rate: "The sky is green."', options: levels, projectId };

    const single = await post(buyer, '/tasks', plain);
    const batch = await post(buyer, '/tasks/batch', { tasks: [plain, { ...plain, answerKind: 'single' }] });
    const csv = await request(world.ctx.app)
      .post('/api/v1/tasks/batch/csv')
      .set(bearer(buyer.token))
      .attach(
        'file',
        Buffer.from(`type,content,options,projectId\nAI_RESPONSE_RATING,Rate this,1|2|3,${projectId}\nAI_RESPONSE_RATING,No project,1|2|3,\n`),
        'tasks.csv',
      );
    const kindOf = async (id: string) => (await get(buyer, `/tasks/${id}`)).body.answerKind ?? 'single';
    expect(await kindOf(single.body.taskId)).toBe('rating');
    expect(await Promise.all(batch.body.tasks.map((t: { taskId: string }) => kindOf(t.taskId)))).toEqual(['rating', 'single']);
    expect(await Promise.all(csv.body.tasks.map((t: { taskId: string }) => kindOf(t.taskId)))).toEqual(['rating', 'single']);

    // The project's kind brings its rules: a rating scale has at most 11 levels, named by the field.
    const long = await post(buyer, '/tasks', { ...plain, options: Array.from({ length: 12 }, (_, i) => String(i)) });
    expect(long.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'options' }] } });

    // Changed, and cleared (null: single choice); pairwise and text cannot be a default (they need other fields).
    expect(
      (await request(world.ctx.app).patch(`/api/v1/projects/${projectId}`).set(bearer(buyer.token)).send({ defaultAnswerKind: 'multi' })).body,
    ).toMatchObject({
      defaultAnswerKind: 'multi',
    });
    expect(await kindOf((await post(buyer, '/tasks', { ...plain, options: ['a', 'b'] })).body.taskId)).toBe('multi');
    expect((await request(world.ctx.app).patch(`/api/v1/projects/${projectId}`).set(bearer(buyer.token)).send({ defaultAnswerKind: null })).body).toMatchObject(
      {
        defaultAnswerKind: null,
      },
    );
    expect(await kindOf((await post(buyer, '/tasks', plain)).body.taskId)).toBe('single');
    for (const kind of ['pairwise', 'text', 'essay']) {
      const refused = await post(buyer, '/projects', { name: unique('bad'), defaultAnswerKind: kind });
      expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'defaultAnswerKind' }] } });
    }
    // A repeat with its Idempotency-Key gets its first response back, whatever the default has become.
    const keyed = () => request(world.ctx.app).post('/api/v1/tasks').set(bearer(buyer.token)).set('Idempotency-Key', `k-${projectId}`);
    await request(world.ctx.app).patch(`/api/v1/projects/${projectId}`).set(bearer(buyer.token)).send({ defaultAnswerKind: 'multi' });
    const first = await keyed().send({ ...plain, options: ['a', 'b'], allowEmpty: true });
    expect(first.status).toBe(201);
    await request(world.ctx.app).patch(`/api/v1/projects/${projectId}`).set(bearer(buyer.token)).send({ defaultAnswerKind: null });
    const again = await keyed().send({ ...plain, options: ['a', 'b'], allowEmpty: true });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // Another buyer's project lends no kind: the task is refused for its projectId, as before.
    const stranger = await createFundedBuyer(world.ctx, world.adminToken, 1_000);
    expect((await post(stranger, '/tasks', plain)).body).toMatchObject({ code: 'INVALID_PROJECT' });
  });
});
