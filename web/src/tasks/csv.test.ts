// The import page's CSV reader against the service's: the same records, cells and row numbers as
// csv-parse configured as POST /tasks/batch/csv configures it, and the same rows as the service's own
// readTaskCsv, on generated files with quotes, commas, CR, LF and CRLF line ends, a byte order mark,
// empty and blank lines.
import { Buffer } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTaskCsv, TASK_CSV_OPTIONS } from '../../../src/modules/tasks/task-csv.ts';
import { checkHeader, csvField, exampleCsv, parseCsv } from './csv';

/** readTaskCsv's csv-parse options, for a file that is UTF-8 throughout. */
const SERVICE_OPTIONS = { ...TASK_CSV_OPTIONS, encoding: 'utf8' } as const;

type Parsed = { ok: true; header: string[] | null; records: string[][] } | { ok: false };

/** csv-parse's records as the service reads them: the first is the header (BOM dropped, trimmed). */
function serviceParse(text: string): Parsed {
  let records: string[][];
  try {
    records = parse(Buffer.from(text, 'utf8'), SERVICE_OPTIONS) as string[][];
  } catch {
    return { ok: false };
  }
  const [first, ...rest] = records;
  const header = first ? first.map((cell, index) => (index === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim()) : null;
  return { ok: true, header, records: rest };
}

function webParse(text: string): Parsed {
  const result = parseCsv(text);
  if (result.error) return { ok: false };
  result.records.forEach((record, index) => expect(record.row).toBe(index + 1));
  return { ok: true, header: result.header, records: result.records.map((record) => record.cells) };
}

const LINE_ENDS = ['\n', '\r\n', '\r'] as const;

/** Any short text made of the characters CSV gives meaning to, with or without a byte order mark. */
const csvLikeText = fc
  .tuple(fc.boolean(), fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' ', ',', '"', '\r', '\n', '|'), maxLength: 40 }))
  .map(([bom, text]) => (bom ? `\uFEFF${text}` : text));

const cell = fc.string({ unit: fc.constantFrom('x', 'y', 'é', ' ', ',', '"', '\r', '\n', '|'), maxLength: 8 });

/** A well-formed file: a header, then rows written with RFC 4180 quoting (sometimes quoting needlessly), with empty and blank lines between them. */
const wellFormedFile = fc
  .record({
    bom: fc.boolean(),
    quoteHeader: fc.boolean(),
    lineEnd: fc.constantFrom(...LINE_ENDS),
    finalLineEnd: fc.boolean(),
    rows: fc.array(
      fc.record({
        cells: fc.array(cell, { minLength: 1, maxLength: 4 }),
        quoteAll: fc.boolean(),
        before: fc.constantFrom('', '', '', 'empty', 'blank'),
      }),
      { maxLength: 8 },
    ),
  })
  .map(({ bom, quoteHeader, lineEnd, finalLineEnd, rows }) => {
    // csvField quotes a cell that holds a quote, a comma, a CR or an LF; quoteAll quotes every cell.
    const field = (value: string, quoteAll: boolean) => (quoteAll ? `"${value.replace(/"/g, '""')}"` : csvField(value));
    const header = ['type', 'content', 'options'].map((column) => field(column, quoteHeader)).join(',');
    const lines = [header];
    for (const row of rows) {
      if (row.before === 'empty') lines.push('');
      if (row.before === 'blank') lines.push(' , ');
      lines.push(row.cells.map((value) => field(value, row.quoteAll)).join(','));
    }
    return `${bom ? '\uFEFF' : ''}${lines.join(lineEnd)}${finalLineEnd ? lineEnd : ''}`;
  });

async function serviceRows(text: string) {
  const rows: { row: number; ok: boolean; task?: Record<string, unknown> }[] = [];
  for await (const record of readTaskCsv(Buffer.from(text, 'utf8')))
    rows.push(record.ok ? { row: record.row, ok: true, task: record.task } : { row: record.row, ok: false });
  return rows;
}

describe('parseCsv', () => {
  it('reads any text exactly as the service configures csv-parse: the same refusals, header, records and cells', () => {
    fc.assert(
      fc.property(csvLikeText, (text) => {
        expect(webParse(text)).toEqual(serviceParse(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('numbers the data rows of a well-formed file as readTaskCsv does, with the same cells', async () => {
    await fc.assert(
      fc.asyncProperty(wellFormedFile, async (text) => {
        const web = parseCsv(text);
        expect(web.error).toBeNull();
        const service = await serviceRows(text);
        expect(web.records.map((record) => record.row)).toEqual(service.map((record) => record.row));
        web.records.forEach((record, index) => {
          const answer = service[index];
          // A row with another number of cells than the header is refused by the service, row by row.
          expect(answer?.ok).toBe(record.cells.length === 3);
          if (answer?.ok) {
            const [type = '', content = '', options = ''] = record.cells;
            expect(answer.task).toEqual({
              ...(type === '' ? {} : { type }),
              ...(content === '' ? {} : { content }),
              ...(options === '' ? {} : { options: options.split('|') }),
            });
          }
        });
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a header exactly when the service does (missing, unknown or duplicate columns)', async () => {
    const column = fc.constantFrom('type', 'content', 'options', 'locale', 'maxCents', 'projectId', 'validationsNeeded', 'colour');
    await fc.assert(
      fc.asyncProperty(fc.array(column, { minLength: 1, maxLength: 6 }), async (header) => {
        const problems = checkHeader(header);
        const refusedHere = problems.missing.length + problems.unknown.length + problems.duplicate.length > 0;
        const refusedThere = await serviceRows(`${header.join(',')}\n`).then(
          () => false,
          () => true,
        );
        expect(refusedHere).toBe(refusedThere);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the line each record starts on, counting line ends inside quoted fields', () => {
    const result = parseCsv('type,content,options\r\nA,"two\r\nlines",x|y\r\n\r\nB,c,x|y\r\n');
    expect(result.records.map((record) => [record.row, record.line])).toEqual([
      [1, 2],
      [2, 5],
    ]);
  });

  it('reads its own example file as the service does', async () => {
    const text = exampleCsv();
    const service = await serviceRows(text);
    expect(service.every((record) => record.ok)).toBe(true);
    expect(parseCsv(text).records.map((record) => record.row)).toEqual(service.map((record) => record.row));
  });
});
