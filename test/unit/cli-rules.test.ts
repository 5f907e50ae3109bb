// The concord CLI checks rows before it sends them (a JSON batch is all or nothing, so one bad row must not
// cost its batch): its rules must be the service's. Here the CLI's row check is held to the service's own
// pipeline (the input screen, then validateTaskInput) over generated tasks, and its CSV reader to the
// service's CSV import reader over the same files: same rows, same numbering, same verdicts.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_OPTIONS, readCsv, readJsonl, surveyFile, type Row } from '../../sdk/src/cli/rows.ts';
import { checkTask, jsonSizeBound } from '../../sdk/src/cli/task-rules.ts';
import { screenValue } from '../../src/lib/input-screen.ts';
import { readTaskCsv, TASK_CSV_OPTIONS } from '../../src/modules/tasks/task-csv.ts';
import { validateTaskInput } from '../../src/modules/tasks/task-rules.ts';

/** What the service answers for one task of a batch: the screen of the body, then the task rules. */
function service(raw: unknown, priceCents: number): { ok: boolean; code?: string } {
  if (screenValue(raw, 'tasks.0')) return { ok: false, code: 'VALIDATION_ERROR' };
  const result = validateTaskInput(raw, priceCents);
  return result.ok ? { ok: true } : { ok: false, code: result.error.code };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => `option ${i}`);
/** Mostly a valid value (or none: the field left out), sometimes any of the others. */
const field = <T>(valid: T[], others: T[]) =>
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom<T | undefined>(...valid, undefined) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
const required = <T>(valid: T[], others: T[]) =>
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
const taskArbitrary = fc
  .record({
    type: required<unknown>(['SENTIMENT_ANALYSIS', 'BINARY_CHOICE', 'RELEVANCE_RATING'], ['NOPE', '', 7, null, undefined]),
    content: required<unknown>(
      ['Great product', 'x'.repeat(100_000), 'pair \uD83D\uDE00 ok'],
      ['', '   ', 'x'.repeat(100_001), 'nul\u0000here', 'lone \uD800 surrogate', 42, undefined],
    ),
    options: required<unknown>(
      [['a', 'b'], ['a', ' b '], ['a', 'x'.repeat(500)], many(50)],
      [[], ['a'], ['a', 'a'], ['a', ' a '], ['a', ''], ['a', '  '], ['a', 'x'.repeat(501)], many(51), 'a|b', ['a', 5], ['a', 'b\u0000'], undefined],
    ),
    locale: field<unknown>(['en', 'fr', 'ar'], ['xx', null, 3]),
    maxCents: field<unknown>([20, 25, 100_000], [19, 100_001, 20.5, '20', null]),
    validationsNeeded: field<unknown>([1, 3, 25], [0, 26, 2.5, '3', null]),
    projectId: field<unknown>(['proj_1', null, 'p'.repeat(64)], ['', 'p'.repeat(65), 5]),
    extra: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom<unknown>(1, 'x') }),
  })
  // A field left undefined is a field absent from the JSON.
  .map((task) => Object.fromEntries(Object.entries(task).filter(([, value]) => value !== undefined)));

describe('the CLI checks a task as the service does', () => {
  it('accepts and refuses the same tasks, with the same code', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(taskArbitrary, fc.constantFrom(20, 25), (task, price) => {
        const cli = checkTask(task, price);
        const expected = service(task, price);
        expect({ ok: cli.ok, code: cli.ok ? undefined : cli.code }).toEqual({ ok: expected.ok, code: expected.ok ? undefined : expected.code });
        const verdict = expected.ok ? 'ok' : (expected.code as string);
        seen.set(verdict, (seen.get(verdict) ?? 0) + 1);
      }),
      { numRuns: 3_000, seed: 17 },
    );
    // The generated tasks reach every verdict, acceptance included.
    expect([...seen.keys()].sort()).toEqual(['INVALID_TYPE', 'MISSING_FIELDS', 'OPTIONS_REQUIRED', 'VALIDATION_ERROR', 'ok']);
    expect(seen.get('ok')).toBeGreaterThan(20);
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

describe('the CLI reads a CSV file as the service does', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'concord-cli-rows-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function both(name: string, bytes: Buffer): Promise<{ cli: Row[] | string; service: Row[] | string }> {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    const survey = await surveyFile(file);
    const cli: Row[] | string = await (async () => {
      const rows: Row[] = [];
      for await (const row of readCsv(file, survey.utf8)) rows.push(row);
      return rows;
    })().catch((error: { code?: string }) => `throws ${error.code}`);
    const fromService: Row[] | string = await (async () => {
      const rows: Row[] = [];
      for await (const record of readTaskCsv(bytes)) {
        rows.push(
          record.ok ? { row: record.row, ok: true, task: record.task } : { row: record.row, ok: false, code: 'VALIDATION_ERROR', message: record.error },
        );
      }
      return rows;
    })().catch((error: { code?: string }) => `throws ${error.code}`);
    return { cli, service: fromService };
  }

  it("uses the service's parser options", () => {
    expect(CSV_OPTIONS).toEqual(TASK_CSV_OPTIONS);
  });

  const samples: Record<string, Buffer> = {
    plain: Buffer.from('type,content,options\nBINARY_CHOICE,Is it?,yes|no\nSENTIMENT_ANALYSIS,"Quoted, with ""quotes""",a|b|c\n'),
    'bom, crlf, blank lines, optional columns': Buffer.from(
      '\uFEFF"type","content","options","locale","maxCents","projectId","validationsNeeded"\r\n\r\nBINARY_CHOICE,a,y|n,fr,25,,2\r\n,,,,,,\r\nBINARY_CHOICE,b,y|n,,x,p1,\r\n',
    ),
    'a field over two lines, and rows of the wrong width': Buffer.from(
      'type,content,options\nBINARY_CHOICE,"line one\nline two",y|n\nBINARY_CHOICE,short\nBINARY_CHOICE,a,y|n,extra\n',
    ),
    'bytes that are not UTF-8, and a NUL': Buffer.concat([
      Buffer.from('type,content,options\nBINARY_CHOICE,ok,y|n\nBINARY_CHOICE,bad '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(',y|n\nBINARY_CHOICE,nul \u0000 here,y|n\nBINARY_CHOICE,last,y|n\n'),
    ]),
    'a missing column': Buffer.from('type,content\nBINARY_CHOICE,a\n'),
    'an unknown column': Buffer.from('type,content,options,colour\nBINARY_CHOICE,a,y|n,red\n'),
    empty: Buffer.from(''),
    'an unclosed quote': Buffer.from('type,content,options\nBINARY_CHOICE,"never closed,y|n\n'),
  };
  for (const [name, bytes] of Object.entries(samples)) {
    it(`the same rows: ${name}`, async () => {
      const { cli, service: expected } = await both(`${name.replace(/\W+/g, '-')}.csv`, bytes);
      if (typeof expected === 'string') {
        expect(cli).toBe(expected);
        return;
      }
      expect(typeof cli).not.toBe('string');
      // The same rows and verdicts; the messages of refused rows may be worded differently.
      const shape = (rows: Row[]) => rows.map((row) => (row.ok ? row : { row: row.row, ok: false, code: row.code }));
      expect(shape(cli as Row[])).toEqual(shape(expected));
    });
  }
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
