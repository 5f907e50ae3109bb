import { readFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { idempotencyKeyDigest } from '../../src/modules/idempotency/idempotency.service.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createFundedBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const FIXTURES = path.resolve('test/fixtures/csv');
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

const fundedBuyer = (cents = 100_000) => createFundedBuyer(ctx, adminToken, cents);

const item = (i: number, overrides: Record<string, unknown> = {}) => ({ type: 'BINARY_CHOICE', content: `item ${i}`, options: ['yes', 'no'], ...overrides });
const batch = (buyer: TestBuyer, body: unknown, key?: string) => {
  const req = request(ctx.app).post('/api/v1/tasks/batch').set(bearer(buyer.token));
  if (key) req.set('Idempotency-Key', key);
  return req.send(body as object);
};
const upload = (buyer: TestBuyer, content: Buffer | string, key?: string, field = 'file') => {
  const req = request(ctx.app).post('/api/v1/tasks/batch/csv').set(bearer(buyer.token));
  if (key) req.set('Idempotency-Key', key);
  return req.attach(field, Buffer.from(content), { filename: 'tasks.csv', contentType: 'text/csv' });
};
const taskCount = (buyer: TestBuyer) => ctx.prisma.task.count({ where: { buyerId: buyer.id } });
const reserved = async (buyer: TestBuyer) => (await ctx.services.db.repos.billing.getBalance(buyer.id))?.reservedCents;

describe('POST /tasks/batch', () => {
  it('creates every task in one go and reports the total cost', async () => {
    const buyer = await fundedBuyer();
    const res = await batch(buyer, { tasks: [item(0), item(1, { maxCents: 40 }), item(2)] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: 3,
      tasks: [0, 1, 2].map(() => ({ taskId: expect.any(String), type: 'BINARY_CHOICE', status: 'PENDING', costCents: 20 })),
      totalCostCents: 60,
    });
    expect(await reserved(buyer)).toBe(80);
  });

  it('accepts 1 000 tasks and refuses 1 001 or none with BATCH_TOO_LARGE', async () => {
    const buyer = await fundedBuyer();
    const full = await batch(buyer, { tasks: Array.from({ length: 1000 }, (_, i) => item(i)) });
    expect(full.status).toBe(201);
    expect(full.body.created).toBe(1000);
    for (const tasks of [Array.from({ length: 1001 }, (_, i) => item(i)), []]) {
      const res = await batch(buyer, { tasks });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BATCH_TOO_LARGE');
    }
    expect(await taskCount(buyer)).toBe(1000);
  });

  it.each([
    [{ ...item(1), type: undefined }, 'MISSING_FIELDS'],
    [item(1, { type: 'NOPE' }), 'INVALID_TYPE'],
    [item(1, { options: ['one'] }), 'OPTIONS_REQUIRED'],
    [item(1, { maxCents: 5 }), 'VALIDATION_ERROR'],
  ])('rejects the whole batch with INVALID_TASK, taskIndex and the item code (%#)', async (bad, code) => {
    const buyer = await fundedBuyer();
    const res = await batch(buyer, { tasks: [item(0), bad, item(2, { type: 'NOPE' })] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_TASK', taskIndex: 1, details: { code } });
    expect(res.body.error).toMatch(/Task 2/);
    expect(await taskCount(buyer)).toBe(0);
    expect(await reserved(buyer)).toBe(0);
  });

  it('reports a foreign project as INVALID_TASK with details.code INVALID_PROJECT', async () => {
    const buyer = await fundedBuyer();
    const res = await batch(buyer, { tasks: [item(0), item(1), item(2, { projectId: newId() })] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_TASK', taskIndex: 2, details: { code: 'INVALID_PROJECT' } });
    expect(await taskCount(buyer)).toBe(0);
  });

  it('returns 402 naming required and available cents when the sum of maxCents is not covered', async () => {
    const buyer = await fundedBuyer(100);
    const res = await batch(buyer, { tasks: [item(0, { maxCents: 50 }), item(1, { maxCents: 51 })] });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 101, availableCents: 100 } });
    expect(res.body.error).toMatch(/101 cents required, 100 cents available/);
    expect(await taskCount(buyer)).toBe(0);
  });

  it('rejects a body that is not {tasks: [...]}', async () => {
    const buyer = await fundedBuyer();
    for (const body of [[item(0)], { tasks: 'x' }, { tasks: [item(0)], extra: true }]) {
      const res = await batch(buyer, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('POST /tasks/batch/csv', () => {
  it('parses quoted fields with commas and doubled quotes', async () => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, await fixture('quoting.csv'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: 2, errors: [], totalCostCents: 40 });
    const tasks = await ctx.prisma.task.findMany({ where: { buyerId: buyer.id }, orderBy: { content: 'asc' } });
    expect(tasks.map((t) => [t.content, t.options])).toEqual([
      ['Great, really great', ['positive', 'negative', 'neutral']],
      ['She said "hello" twice', ['yes', 'no']],
    ]);
  });

  it('accepts CRLF line endings, skips blank lines and defaults empty optional cells', async () => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, await fixture('crlf-blank-lines.csv'));
    expect(res.body).toMatchObject({ created: 2, errors: [] });
    const tasks = await ctx.prisma.task.findMany({ where: { buyerId: buyer.id }, orderBy: { content: 'asc' } });
    expect(tasks.map((t) => [t.content, t.locale])).toEqual([
      ['first', 'fr'],
      ['second', 'en'],
    ]);
  });

  it('ignores a UTF-8 byte order mark and keeps multi-line and non-ASCII content', async () => {
    const buyer = await fundedBuyer();
    expect((await upload(buyer, await fixture('bom.csv'))).body.created).toBe(1);
    const res = await upload(buyer, await fixture('multiline-utf8.csv'));
    expect(res.body.created).toBe(2);
    const contents = (await ctx.prisma.task.findMany({ where: { buyerId: buyer.id } })).map((t) => t.content);
    expect(contents).toEqual(expect.arrayContaining(['with bom', 'line one\nline two', 'é 中文 😀']));
  });

  it('imports the valid rows and reports the others by 1-based data record number', async () => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, await fixture('partial.csv'));
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(2);
    expect(res.body.tasks).toEqual([
      { taskId: expect.any(String), type: 'BINARY_CHOICE', status: 'PENDING' },
      { taskId: expect.any(String), type: 'BINARY_CHOICE', status: 'PENDING' },
    ]);
    expect(res.body.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
      [2, 'INVALID_TYPE'],
      [3, 'OPTIONS_REQUIRED'],
      [4, 'MISSING_FIELDS'],
      [5, 'VALIDATION_ERROR'],
      [6, 'VALIDATION_ERROR'],
    ]);
    expect(res.body.totalCostCents).toBe(40);
    const created = await ctx.prisma.task.findMany({ where: { buyerId: buyer.id }, orderBy: { content: 'asc' } });
    expect(created.map((t) => [t.content, t.maxCents, t.validationsNeeded, t.options])).toEqual([
      ['ok one', 25, 5, ['yes', 'no']],
      ['ok two', 20, 3, ['a', 'b', 'c']],
    ]);
    expect(await reserved(buyer)).toBe(45);
  });

  it('answers 201 with created 0 when every row fails', async () => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, 'type,content,options\nNOPE,x,a|b\n');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ created: 0, tasks: [], errors: [{ row: 1, error: expect.any(String), code: 'INVALID_TYPE' }], totalCostCents: 0 });
  });

  it('lists rows with invalid UTF-8, a NUL or an encoded surrogate in errors and creates the others (they used to become replacement characters or a 500)', async () => {
    const buyer = await fundedBuyer();
    const file = Buffer.concat([
      Buffer.from('type,content,options\nBINARY_CHOICE,caf'),
      Buffer.from([0xe9]),
      Buffer.from(',yes|no\nBINARY_CHOICE,fine,yes|no\nBINARY_CHOICE,nul\u0000here,yes|no\nBINARY_CHOICE,'),
      Buffer.from([0xed, 0xb0, 0x80]),
      Buffer.from(',yes|no\n'),
    ]);
    const res = await upload(buyer, file);
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(1);
    expect(res.body.errors).toEqual([
      { row: 1, error: expect.stringMatching(/UTF-8/), code: 'VALIDATION_ERROR' },
      { row: 3, error: expect.stringMatching(/NUL/), code: 'VALIDATION_ERROR' },
      { row: 4, error: expect.stringMatching(/UTF-8/), code: 'VALIDATION_ERROR' },
    ]);
    const tasks = await ctx.prisma.task.findMany({ where: { buyerId: buyer.id } });
    expect(tasks.map((t) => t.content)).toEqual(['fine']);
  });

  it('reports a foreign projectId as a row error', async () => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, `type,content,options,projectId\nBINARY_CHOICE,x,a|b,${newId()}\nBINARY_CHOICE,y,a|b,\n`);
    expect(res.body.created).toBe(1);
    expect(res.body.errors).toEqual([{ row: 1, error: expect.any(String), code: 'INVALID_PROJECT' }]);
  });

  it.each([
    ['missing-column.csv', /Missing required column: options/],
    ['unknown-column.csv', /Unknown column: color/],
    ['unclosed-quote.csv', /not valid CSV/],
  ])('answers %s with 400 INVALID_CSV and creates nothing', async (name, message) => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, await fixture(name));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_CSV');
    expect(res.body.error).toMatch(message);
    expect(await taskCount(buyer)).toBe(0);
  });

  it('answers an empty file with INVALID_CSV', async () => {
    const buyer = await fundedBuyer();
    const res = await upload(buyer, '');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_CSV');
  });

  it('answers a request without a file part named "file" with 400 MISSING_FILE', async () => {
    const buyer = await fundedBuyer();
    const none = await request(ctx.app).post('/api/v1/tasks/batch/csv').set(bearer(buyer.token)).field('note', 'no file');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('MISSING_FILE');
    const wrongName = await upload(buyer, 'type,content,options\n', undefined, 'upload');
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.code).toBe('MISSING_FILE');
    // contract §0: a body of a type the route does not take is 415, not a missing file.
    const json = await request(ctx.app).post('/api/v1/tasks/batch/csv').set(bearer(buyer.token)).send({ file: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a file over 5 MB with 413 FILE_TOO_LARGE and creates nothing', async () => {
    const buyer = await fundedBuyer();
    const row = `BINARY_CHOICE,${'x'.repeat(1000)},yes|no\n`;
    const big = `type,content,options\n${row.repeat(Math.ceil((5 * 1024 * 1024) / row.length) + 1)}`;
    const res = await upload(buyer, big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE_TOO_LARGE');
    expect(await taskCount(buyer)).toBe(0);
  });

  it('creates nothing and answers 402 when the valid rows together exceed the balance', async () => {
    const buyer = await fundedBuyer(50);
    const res = await upload(buyer, 'type,content,options\nBINARY_CHOICE,a,y|n\nBINARY_CHOICE,b,y|n\nBINARY_CHOICE,c,y|n\n');
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 60, availableCents: 50 } });
    expect(await taskCount(buyer)).toBe(0);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, and creates once', async () => {
    const buyer = await fundedBuyer();
    const body = { tasks: [item(0), item(1)] };
    const first = await batch(buyer, body, 'batch-key-1');
    const second = await batch(buyer, body, 'batch-key-1');
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await taskCount(buyer)).toBe(2);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body', async () => {
    const buyer = await fundedBuyer();
    await batch(buyer, { tasks: [item(0)] }, 'batch-key-2');
    const res = await batch(buyer, { tasks: [item(1)] }, 'batch-key-2');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await taskCount(buyer)).toBe(1);
  });

  it('keeps keys per buyer', async () => {
    const first = await fundedBuyer();
    const second = await fundedBuyer();
    const body = { tasks: [item(0)] };
    await batch(first, body, 'shared-key');
    const res = await batch(second, body, 'shared-key');
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await taskCount(second)).toBe(1);
  });

  it('works on single creation and on CSV (same file bytes = same request)', async () => {
    const buyer = await fundedBuyer();
    const single = async () => request(ctx.app).post('/api/v1/tasks').set(bearer(buyer.token)).set('Idempotency-Key', 'single-1').send(item(7));
    const a = await single();
    const b = await single();
    expect(b.body).toEqual(a.body);
    const csv = 'type,content,options\nBINARY_CHOICE,csv,y|n\n';
    const c = await upload(buyer, csv, 'csv-1');
    const d = await upload(buyer, csv, 'csv-1');
    expect(d.body).toEqual(c.body);
    expect((await upload(buyer, `${csv}BINARY_CHOICE,more,y|n\n`, 'csv-1')).status).toBe(409);
    expect(await taskCount(buyer)).toBe(2);
  });

  it('does not store failures: after a 402 the same key runs again once money arrives', async () => {
    const buyer = await createBuyer(ctx);
    const body = { tasks: [item(0)] };
    expect((await batch(buyer, body, 'retry-key')).status).toBe(402);
    await fundBuyer(ctx, adminToken, buyer.id, 100);
    expect((await batch(buyer, body, 'retry-key')).status).toBe(201);
    expect(await taskCount(buyer)).toBe(1);
  });

  it('two concurrent requests with the same key create once', async () => {
    const buyer = await fundedBuyer();
    const body = { tasks: Array.from({ length: 50 }, (_, i) => item(i)) };
    const results = await Promise.all(Array.from({ length: 5 }, () => batch(buyer, body, 'concurrent-key')));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await taskCount(buyer)).toBe(50);
    expect(await reserved(buyer)).toBe(1000);
  });

  it('takes over a key older than 24 hours and sweeps expired keys', async () => {
    const buyer = await fundedBuyer();
    await batch(buyer, { tasks: [item(0)] }, 'old-key');
    await ctx.prisma.idempotencyKey.update({
      where: { accountId_key: { accountId: buyer.id, key: idempotencyKeyDigest('old-key') } },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    const reused = await batch(buyer, { tasks: [item(1)] }, 'old-key');
    expect(reused.status).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    await batch(buyer, { tasks: [item(2)] }, 'to-expire');
    await ctx.prisma.idempotencyKey.update({
      where: { accountId_key: { accountId: buyer.id, key: idempotencyKeyDigest('to-expire') } },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    expect(await ctx.services.idempotency.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await ctx.prisma.idempotencyKey.findMany({ where: { accountId: buyer.id }, select: { key: true } })).toEqual([
      { key: idempotencyKeyDigest('old-key') },
    ]);
  });

  it('refuses a key longer than 255 characters', async () => {
    const buyer = await fundedBuyer();
    const res = await batch(buyer, { tasks: [item(0)] }, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});
