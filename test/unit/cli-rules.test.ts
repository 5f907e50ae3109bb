// The concord CLI checks rows before it sends them (a JSON batch is all or nothing, so one bad row must not
// cost its batch). Its rules and its CSV dialect are the service's own (@concord/contract, tested there and
// through the service); here: what the CLI adds around them (the request screen first, the row as given,
// the size bound of a row, CSV files read as a stream of rows, the file survey, JSONL).
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv, readJsonl, surveyFile, type Row } from '../../packages/cli/src/rows.ts';
import { checkTask, jsonSizeBound } from '../../packages/cli/src/task-rules.ts';

describe('the CLI checks a task as the service does', () => {
  it('screens the row as the service screens a request, then applies the task rules in their order', () => {
    expect(checkTask({ type: 'BINARY_CHOICE', content: 'nul\u0000here', options: ['a', 'b'] }, 20)).toEqual({
      ok: false,
      code: 'VALIDATION_ERROR',
      message: 'Invalid task: content: must not contain a NUL character',
    });
    expect(checkTask({ type: 'BINARY_CHOICE', content: 'x' }, 20)).toMatchObject({ ok: false, code: 'MISSING_FIELDS' });
    expect(checkTask({ type: 'NOPE', content: 'x', options: ['a', 'b'] }, 20)).toMatchObject({ ok: false, code: 'INVALID_TYPE' });
    expect(checkTask({ type: 'BINARY_CHOICE', content: 'x', options: ['a'] }, 20)).toMatchObject({ ok: false, code: 'OPTIONS_REQUIRED' });
    expect(checkTask({ type: 'BINARY_CHOICE', content: 'x', options: ['a', 'b'], maxCents: 20 }, 25)).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/maxCents: must be at least the task price of 25 cents/),
    });
  });

  it('hands on the row as given: the service applies the defaults', () => {
    const task = { type: 'BINARY_CHOICE', content: 'x', options: [' a ', 'b'] };
    expect(checkTask(task, 20)).toEqual({ ok: true, task });
  });

  it('refuses what is not an object', () => {
    for (const raw of [null, 'task', 5, ['a']]) expect(checkTask(raw, 20)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
  });

  it('bounds the JSON size of a row from above', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300, unit: 'binary' }),
        fc.array(fc.string({ maxLength: 40, unit: 'binary' }), { maxLength: 6 }),
        fc.integer(),
        (content, options, maxCents) => {
          const task = { type: 'BINARY_CHOICE', content, options, maxCents, projectId: null };
          expect(jsonSizeBound(task)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(task)));
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });
});

describe('the CLI reads a CSV file as a stream of rows', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'concord-cli-rows-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function read(name: string, bytes: Buffer): Promise<Row[]> {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    const rows: Row[] = [];
    for await (const row of readCsv(file, (await surveyFile(file)).utf8)) rows.push(row);
    return rows;
  }

  it('numbers data records from 1 and refuses a row of bytes that are not UTF-8 on its own', async () => {
    const bytes = Buffer.concat([
      Buffer.from('\uFEFFtype,content,options,maxCents\r\n\r\nBINARY_CHOICE,"a, ""quoted""",y|n,25\r\nBINARY_CHOICE,bad '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(',y|n,\r\nBINARY_CHOICE,short\r\n'),
    ]);
    expect(await read('mixed.csv', bytes)).toEqual([
      { row: 1, ok: true, task: { type: 'BINARY_CHOICE', content: 'a, "quoted"', options: ['y', 'n'], maxCents: 25 } },
      { row: 2, ok: false, code: 'VALIDATION_ERROR', message: 'The row holds bytes that are not valid UTF-8' },
      { row: 3, ok: false, code: 'VALIDATION_ERROR', message: 'Expected 4 fields, found 2' },
    ]);
  });

  it.each([
    ['a missing column', 'type,content\nBINARY_CHOICE,a\n', /CSV: Missing required column: options/],
    ['an empty file', '', /CSV: The file is empty/],
    ['an unclosed quote', 'type,content,options\nBINARY_CHOICE,"never closed,y|n\n', /CSV: The file is not valid CSV/],
  ])('refuses %s as a whole (INVALID_CSV)', async (name, text, message) => {
    const error = await read(`${name.replace(/\W+/g, '-')}.csv`, Buffer.from(text)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INVALID_CSV', message: expect.stringMatching(message) });
  });
});

describe('the CLI surveys a file before importing it', () => {
  it('knows whether it is UTF-8, also when characters straddle its read chunks, and counts its lines', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'concord-cli-survey-'));
    try {
      const cases: Array<[string, Buffer, boolean]> = [];
      for (const [name, char] of [
        ['two', 'é'],
        ['three', '€'],
        ['four', '😀'],
      ] as const) {
        for (const offset of [0, 1, 2, 3]) {
          const text = `${'a'.repeat(offset)}${char.repeat(200_000)}\nend\n`;
          cases.push([`${name}-${offset}`, Buffer.from(text), true]);
        }
        const valid = Buffer.from(`a${char.repeat(200_000)}`);
        cases.push([`${name}-cut`, valid.subarray(0, valid.length - 1), false]);
        cases.push([`${name}-bad`, Buffer.concat([valid, Buffer.from([0xff]), valid]), false]);
      }
      for (const [name, bytes, utf8] of cases) {
        const file = path.join(dir, name);
        await writeFile(file, bytes);
        const survey = await surveyFile(file);
        expect({ name, utf8: survey.utf8, bytes: survey.bytes }).toEqual({ name, utf8, bytes: bytes.length });
        expect(survey.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
      expect((await surveyFile(path.join(dir, 'two-1'))).lines).toBe(2);
      expect((await surveyFile(path.join(dir, 'two-cut'))).lines).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the CLI reads JSONL', () => {
  it('numbers rows by line, skips blank lines, and refuses lines that are not a JSON object', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'concord-cli-jsonl-'));
    try {
      const file = path.join(dir, 'tasks.jsonl');
      const lines = [
        '\uFEFF{"type":"BINARY_CHOICE","content":"a","options":["y","n"]}',
        '',
        '   ',
        '{"type":"BINARY_CHOICE","content":"b",',
        '[1,2]',
        '{"type":"BINARY_CHOICE","content":"c","options":["y","n"]}\r',
        '{"type":"BINARY_CHOICE","content":"d","options":["y","n"]}',
      ];
      await writeFile(file, `${lines.join('\n')}`);
      const rows: Row[] = [];
      for await (const row of readJsonl(file, true)) rows.push(row);
      expect(rows.map((row) => (row.ok ? { row: row.row, content: row.task.content } : { row: row.row, code: row.code }))).toEqual([
        { row: 1, content: 'a' },
        { row: 4, code: 'INVALID_JSON' },
        { row: 5, code: 'VALIDATION_ERROR' },
        { row: 6, content: 'c' },
        { row: 7, content: 'd' },
      ]);
      const survey = await surveyFile(file);
      expect(survey).toMatchObject({ utf8: true, lines: 7 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
