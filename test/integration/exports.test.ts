import AdmZip from 'adm-zip';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { recordsQuery } from '../../src/modules/exports/exports.repository.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/** Tasks written directly in their final state (the annotation loop is tested elsewhere). */
async function seed(buyer: TestBuyer, count: number, overrides: Record<string, unknown> = {}, status: 'COMPLETED' | 'FAILED' = 'COMPLETED') {
  const base = Date.parse('2026-03-01T00:00:00.000Z');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId();
    ids.push(id);
    await ctx.prisma.task.create({
      data: {
        id,
        buyerId: buyer.id,
        type: 'SENTIMENT_ANALYSIS',
        content: `review ${i}, "quoted"`,
        options: ['positive', 'negative', 'neutral'],
        maxCents: 20,
        costCents: 20,
        validationsNeeded: 3,
        maxResponses: 6,
        status,
        totalResponses: 3,
        result: status === 'COMPLETED' ? (i % 2 ? 'negative' : 'positive') : null,
        confidence: status === 'COMPLETED' ? 0.9 : null,
        validatedAt: status === 'COMPLETED' ? new Date(base + (count - i) * 1000) : null,
        ...overrides,
      },
    });
  }
  return ids;
}

const download = (buyer: TestBuyer, query: Record<string, string>) =>
  request(ctx.app)
    .get('/api/v1/exports')
    .query(query)
    .set(bearer(buyer.token))
    .buffer(true)
    .parse((res, callback) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => callback(null, Buffer.concat(chunks)));
    });
const lines = (body: Buffer) =>
  body
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const zipMembers = (body: Buffer) => Object.fromEntries(new AdmZip(body).getEntries().map((entry) => [entry.entryName, entry.getData().toString('utf8')]));

describe('GET /exports formats', () => {
  it('json: an array ordered by validatedAt, then id, with the spec fields', async () => {
    const buyer = await createBuyer(ctx);
    const ids = await seed(buyer, 3);
    const res = await download(buyer, { format: 'json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="tasks-json.json"');
    const records = JSON.parse(res.body.toString());
    expect(records.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    expect(records[0]).toEqual({
      id: ids[2],
      type: 'SENTIMENT_ANALYSIS',
      content: 'review 2, "quoted"',
      label: 'positive',
      confidence: 0.9,
      locale: 'en',
      validatedAt: '2026-03-01T00:00:01.000Z',
    });
  });

  it('jsonl, csv, openai, huggingface and alpaca records', async () => {
    const buyer = await createBuyer(ctx);
    const [id] = await seed(buyer, 1);
    const jsonl = await download(buyer, { format: 'jsonl' });
    expect(jsonl.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(jsonl.headers['content-disposition']).toContain('tasks-jsonl.jsonl');
    expect(lines(jsonl.body)).toEqual([{ id, type: 'SENTIMENT_ANALYSIS', content: 'review 0, "quoted"', label: 'positive' }]);
    const csv = await download(buyer, { format: 'csv' });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.toString()).toBe(
      `id,type,content,label,confidence,locale,validatedAt\n${id},SENTIMENT_ANALYSIS,"review 0, ""quoted""",positive,0.9,en,2026-03-01T00:00:01.000Z\n`,
    );
    const openai = lines((await download(buyer, { format: 'openai' })).body);
    expect(openai).toEqual([
      {
        messages: [
          { role: 'user', content: expect.stringMatching(/^Classify the sentiment .* Answer with one of: positive, negative, neutral\.\n\nreview 0/s) },
          { role: 'assistant', content: 'positive' },
        ],
      },
    ]);
    expect(lines((await download(buyer, { format: 'huggingface' })).body)).toEqual([{ text: 'review 0, "quoted"', label: 'positive', label_id: 0 }]);
    const alpaca = lines((await download(buyer, { format: 'alpaca' })).body);
    expect(alpaca).toEqual([
      { instruction: expect.stringContaining('Answer with one of: positive, negative, neutral.'), input: 'review 0, "quoted"', output: 'positive' },
    ]);
    const hf = await download(buyer, { format: 'huggingface' });
    expect(hf.headers['content-disposition']).toContain('tasks-huggingface.jsonl');
  });

  it('openai lines are valid chat records and huggingface lines share keys and types', async () => {
    const buyer = await createBuyer(ctx);
    await seed(buyer, 6);
    for (const record of lines((await download(buyer, { format: 'openai' })).body)) {
      expect(record.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
      for (const message of record.messages) expect(typeof message.content === 'string' && message.content.length > 0).toBe(true);
    }
    const hf = lines((await download(buyer, { format: 'huggingface' })).body);
    const shapes = new Set(hf.map((r) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, typeof v]))));
    expect(shapes.size).toBe(1);
    for (const record of hf) expect(['positive', 'negative', 'neutral'][record.label_id]).toBe(record.label);
  });

  it('an empty selection is a valid empty file: [] for json, the header for csv, nothing for line formats', async () => {
    const buyer = await createBuyer(ctx);
    expect((await download(buyer, { format: 'json' })).body.toString().trim()).toBe('[]');
    expect((await download(buyer, { format: 'csv' })).body.toString()).toBe('id,type,content,label,confidence,locale,validatedAt\n');
    for (const format of ['jsonl', 'openai', 'huggingface', 'alpaca']) expect((await download(buyer, { format })).body.length).toBe(0);
  });
});

describe('GET /exports filters', () => {
  it('status (default COMPLETED), projectId, type, locale; never golden tasks or another buyer’s tasks', async () => {
    const buyer = await createBuyer(ctx);
    const other = await createBuyer(ctx);
    const project = await ctx.prisma.project.create({ data: { id: newId(), buyerId: buyer.id, name: 'p' } });
    const plain = await seed(buyer, 2);
    const inProject = await seed(buyer, 1, { projectId: project.id, type: 'BINARY_CHOICE', options: ['yes', 'no'], result: 'yes', locale: 'fr' });
    const failed = await seed(buyer, 1, {}, 'FAILED');
    await seed(other, 2);
    await ctx.prisma.goldenTask.create({
      data: { id: newId(), buyerId: buyer.id, type: 'SENTIMENT_ANALYSIS', content: 'golden', options: ['a', 'b'], goldenAnswer: 'a' },
    });
    const ids = async (query: Record<string, string>) =>
      lines((await download(buyer, { format: 'jsonl', ...query })).body)
        .map((r) => r.id)
        .sort();
    expect(await ids({})).toEqual([...plain, ...inProject].sort());
    expect(await ids({ status: 'FAILED' })).toEqual(failed);
    expect(await ids({ projectId: project.id })).toEqual(inProject);
    expect(await ids({ type: 'BINARY_CHOICE' })).toEqual(inProject);
    expect(await ids({ locale: 'fr' })).toEqual(inProject);
    expect(await ids({ projectId: newId() })).toEqual([]);
  });
});

describe('GET /exports splits', () => {
  it.each([
    [0, '0.8', '0.1', '0.1', [0, 0, 0]],
    [1, '0.8', '0.1', '0.1', [1, 0, 0]],
    [2, '0.8', '0.1', '0.1', [2, 0, 0]],
    [2, '0.5', '0.5', '0', [1, 1, 0]],
    [10, '0.8', '0.1', '0.1', [8, 1, 1]],
    [7, '0.25', '0.25', '0.5', [2, 2, 3]],
  ])('n=%i with %s/%s/%s gives a ZIP of train/val/test sized %j', async (n, trainRatio, valRatio, testRatio, sizes) => {
    const buyer = await createBuyer(ctx);
    const ids = await seed(buyer, n);
    const res = await download(buyer, { format: 'jsonl', trainRatio, valRatio, testRatio });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tasks-jsonl.zip"');
    const members = zipMembers(res.body);
    expect(Object.keys(members).sort()).toEqual(['test.jsonl', 'train.jsonl', 'val.jsonl']);
    const parts = ['train.jsonl', 'val.jsonl', 'test.jsonl'].map((name) => lines(Buffer.from(members[name] as string)).map((r) => r.id));
    expect(parts.map((p) => p.length)).toEqual(sizes);
    expect(parts.flat().sort()).toEqual([...ids].sort());
    // The sizes are in the headers, and a file left empty by too few tasks is named.
    expect(res.headers['x-export-split']).toBe(`train=${sizes[0]}, val=${sizes[1]}, test=${sizes[2]}`);
    const empty = ['train', 'val', 'test'].filter((_, i) => sizes[i] === 0);
    expect(res.headers['x-export-empty-parts']).toBe(empty.length > 0 ? empty.join(', ') : undefined);
  });

  it('is repeatable byte for byte, changes with the seed, and keeps csv headers and json arrays per file', async () => {
    const buyer = await createBuyer(ctx);
    await seed(buyer, 20);
    const query = { format: 'jsonl', trainRatio: '0.6', valRatio: '0.2', testRatio: '0.2' };
    const first = await download(buyer, query);
    const second = await download(buyer, query);
    expect(second.body.equals(first.body)).toBe(true);
    const seeded = zipMembers((await download(buyer, { ...query, seed: 'other' })).body);
    expect(seeded['train.jsonl']).not.toBe(zipMembers(first.body)['train.jsonl']);
    const csv = zipMembers((await download(buyer, { ...query, format: 'csv' })).body);
    expect(Object.keys(csv).sort()).toEqual(['test.csv', 'train.csv', 'val.csv']);
    for (const text of Object.values(csv)) expect(text.startsWith('id,type,content,label,confidence,locale,validatedAt\n')).toBe(true);
    const json = zipMembers((await download(buyer, { ...query, format: 'json' })).body);
    expect(Object.values(json).map((text) => JSON.parse(text).length)).toEqual(expect.arrayContaining([12, 4, 4]));
  });

  it('trainRatio alone gives one plain file', async () => {
    const buyer = await createBuyer(ctx);
    await seed(buyer, 3);
    const res = await download(buyer, { format: 'jsonl', trainRatio: '0.8' });
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(lines(res.body)).toHaveLength(3);
    expect(res.headers['x-export-split']).toBeUndefined();
  });
});

describe('GET /exports streaming', () => {
  it('a client that disconnects mid-export ends the database reads and frees the connection', { timeout: 60_000 }, async () => {
    const buyer = await createBuyer(ctx);
    await ctx.prisma.$executeRaw`
      INSERT INTO tasks (id, buyer_id, type, content, options, max_cents, cost_cents, validations_needed, max_responses, status, result, validated_at)
      SELECT 'cx' || lpad(g::text, 23, '0'), ${buyer.id}, 'BINARY_CHOICE', repeat('long content ', 50) || g, ARRAY['yes','no'], 20, 20, 3, 6,
             'COMPLETED', 'yes', now() - g * interval '1 second'
      FROM generate_series(1, 20000) g`;
    const server = ctx.app.listen(0);
    const { port } = server.address() as import('node:net').AddressInfo;
    // Connections still reading an export: running a FETCH, or idle inside the export's transaction.
    const inTransaction = async () =>
      Number(
        (
          await ctx.prisma.$queryRaw<Array<{ n: bigint }>>`
            SELECT count(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state <> 'idle' AND (query LIKE 'FETCH%' OR query LIKE 'DECLARE%')`
        )[0]?.n ?? 0,
      );
    try {
      const http = await import('node:http');
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`http://127.0.0.1:${port}/api/v1/exports?format=jsonl`, { headers: bearer(buyer.token) }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => (error.message.includes('socket hang up') || error.message.includes('aborted') ? resolve() : reject(error)));
      });
      const deadline = Date.now() + 10_000;
      while ((await inTransaction()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await inTransaction()).toBe(0);
      // The pool still works: a full export afterwards succeeds.
      expect((await download(buyer, { format: 'jsonl', trainRatio: '0.5' })).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await ctx.prisma.task.deleteMany({ where: { buyerId: buyer.id } });
    }
  });
});

describe('the records query', () => {
  // Streaming starts at once only if PostgreSQL reads the export index in order; a sort would read and
  // sort the whole selection before the first record (it did, when the formatted date shadowed the
  // column that ORDER BY names). With sorts disabled the plan still sorts if no index can give the order.
  it.each([undefined, { seed: 's', lastTrain: { key: '1', id: 'c1' }, lastVal: null }])(
    'reads the export index in order, without a sort (cut %#)',
    async (cut) => {
      const query = recordsQuery({ buyerId: 'any', status: 'COMPLETED', type: 'BINARY_CHOICE', locale: 'en' }, cut);
      const plan = await ctx.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL enable_sort = off');
        const rows = await tx.$queryRawUnsafe<Array<{ 'QUERY PLAN': unknown }>>(`EXPLAIN (FORMAT JSON) ${query.text}`, ...query.values);
        return JSON.stringify(rows[0]?.['QUERY PLAN']);
      });
      expect(plan).toContain('tasks_export_completed_idx');
      expect(plan).not.toContain('"Sort"');
    },
  );
});

describe('GET /exports errors (answered before any byte is streamed)', () => {
  it('INVALID_FORMAT for a missing or unknown format', async () => {
    const buyer = await createBuyer(ctx);
    for (const query of [{}, { format: 'xml' }]) {
      const res = await request(ctx.app).get('/api/v1/exports').query(query).set(bearer(buyer.token));
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_FORMAT']);
    }
  });

  it.each([
    [{ trainRatio: '0.8', valRatio: '0.2' }],
    [{ valRatio: '0.5', testRatio: '0.5' }],
    [{ trainRatio: '0.8', valRatio: '0.1', testRatio: '0.2' }],
    [{ trainRatio: '1.5' }],
    [{ trainRatio: 'abc', valRatio: '0', testRatio: '0' }],
    [{ trainRatio: '-0.5', valRatio: '1', testRatio: '0.5' }],
  ])('INVALID_RATIOS for %j', async (ratios) => {
    const buyer = await createBuyer(ctx);
    const res = await request(ctx.app)
      .get('/api/v1/exports')
      .query({ format: 'jsonl', ...ratios })
      .set(bearer(buyer.token));
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_RATIOS']);
  });

  it('accepts ratios that sum to 1 within 1e-9, and refuses unknown filters', async () => {
    const buyer = await createBuyer(ctx);
    const ok = await download(buyer, { format: 'jsonl', trainRatio: '0.7', valRatio: '0.2', testRatio: '0.1' });
    expect(ok.status).toBe(200);
    const bad = await request(ctx.app).get('/api/v1/exports').query({ format: 'jsonl', status: 'DONE' }).set(bearer(buyer.token));
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /exports minConfidence', () => {
  it('keeps only the tasks at or above it, in plain files and splits alike, and refuses what is not a decimal from 0 to 1', async () => {
    const buyer = await createBuyer(ctx);
    const [low] = await seed(buyer, 1, { confidence: 0.8 });
    const [edge] = await seed(buyer, 1, { confidence: 0.95 });
    const [high] = await seed(buyer, 1, { confidence: 0.99 });
    const kept = async (query: Record<string, string>) =>
      lines((await download(buyer, { format: 'jsonl', ...query })).body)
        .map((r: { id: string }) => r.id)
        .sort();
    expect(await kept({})).toEqual([low, edge, high].sort());
    expect(await kept({ minConfidence: '0.95' })).toEqual([edge, high].sort());
    expect(await kept({ minConfidence: '1' })).toEqual([]);
    expect(await kept({ minConfidence: '0' })).toEqual([low, edge, high].sort());
    const split = await download(buyer, { format: 'jsonl', minConfidence: '.9', trainRatio: '0.5', valRatio: '0', testRatio: '0.5' });
    const members = zipMembers(split.body);
    const ids = Object.values(members).flatMap((text) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    );
    expect(ids.sort()).toEqual([edge, high].sort());
    for (const bad of ['1.5', '-0.1', 'high', '', '0.9.1']) {
      const res = await download(buyer, { format: 'jsonl', minConfidence: bad });
      expect([res.status, JSON.parse(res.body.toString()).code]).toEqual([400, 'VALIDATION_ERROR']);
    }
  });
});
