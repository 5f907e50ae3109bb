// CSV import rules: UTF-8 (a BOM is ignored), comma-delimited, RFC 4180 quoting (doubled quotes inside
// quoted fields), CRLF or LF, blank lines skipped, options separated by '|'. Records are numbered from 1,
// counting neither the header nor skipped lines. Parsing streams: records are handed on as they are read.
// A row with bytes that are not UTF-8, or with a NUL character, is an invalid row like any other
// (contract §4) instead of a row of replacement characters. A file that is valid UTF-8 throughout (checked
// once, natively) is parsed as text; only otherwise are fields split as bytes and decoded one by one
// (every byte CSV gives meaning to is ASCII, and no byte of a multi-byte UTF-8 sequence is), which costs
// about a quarter more on a 5 MB file. Text decoded from valid UTF-8 holds no unpaired surrogate.
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { BadRequestError } from '../../lib/errors.ts';

export const REQUIRED_COLUMNS = ['type', 'content', 'options'] as const;
export const OPTIONAL_COLUMNS = ['locale', 'maxCents', 'projectId', 'validationsNeeded'] as const;
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set(['maxCents', 'validationsNeeded']);

export type CsvRecord = { row: number; ok: true; task: Record<string, unknown> } | { row: number; ok: false; error: string };

const invalidCsv = (message: string) => new BadRequestError('INVALID_CSV', message);

function checkHeader(header: string[]): void {
  const seen = new Set<string>();
  for (const column of header) {
    if (seen.has(column)) throw invalidCsv(`Duplicate column "${column}" in the header`);
    seen.add(column);
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !seen.has(column));
  if (missing.length > 0) throw invalidCsv(`Missing required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  const unknown = header.filter((column) => !KNOWN_COLUMNS.has(column));
  if (unknown.length > 0) {
    throw invalidCsv(`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; accepted: ${[...KNOWN_COLUMNS].join(', ')}`);
  }
}

/** A cell as a task field: empty optional cells are left out (defaults apply), numbers are parsed. */
function fieldValue(column: string, cell: string): unknown {
  if (column === 'options') return cell === '' ? undefined : cell.split('|');
  if (cell === '') return undefined;
  if (NUMERIC_COLUMNS.has(column) && /^-?\d+$/.test(cell.trim())) return Number(cell.trim());
  return cell;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A record's fields as text (decoded here when they are bytes), or why one of them cannot be stored. */
function decodeRecord(fields: Array<Buffer | string>): { ok: true; cells: string[] } | { ok: false; error: string } {
  const cells: string[] = [];
  for (const field of fields) {
    let cell: string;
    try {
      cell = typeof field === 'string' ? field : utf8.decode(field);
    } catch {
      return { ok: false, error: 'The row holds bytes that are not valid UTF-8' };
    }
    if (cell.includes('\u0000')) return { ok: false, error: 'A field must not contain a NUL character' };
    cells.push(cell);
  }
  return { ok: true, cells };
}

/** How csv-parse reads an import (the dashboard's own reader is tested against these very options). */
export const TASK_CSV_OPTIONS = {
  delimiter: ',',
  // A UTF-8 byte order mark is not part of the first cell: without this, a quoted first header
  // ("content",…) after a BOM would be unparseable.
  bom: true,
  quote: '"',
  escape: '"',
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
  relax_column_count: true,
} as const;

/** Reads task records from CSV bytes. Throws INVALID_CSV for a bad header or unparseable CSV. */
export async function* readTaskCsv(file: Buffer): AsyncGenerator<CsvRecord> {
  const asText = isUtf8(file);
  const parser = Readable.from([file]).pipe(
    parse({
      ...TASK_CSV_OPTIONS,
      // Bytes only when the file is not UTF-8 throughout: each field is then decoded on its own.
      encoding: asText ? 'utf8' : null,
    }),
  );
  let header: string[] | undefined;
  let row = 0;
  try {
    for await (const fields of parser as AsyncIterable<Array<Buffer | string>>) {
      const decoded = decodeRecord(fields);
      if (!header) {
        if (!decoded.ok)
          throw invalidCsv(`The header is unreadable: ${decoded.error.replace(/^The row holds/, 'it holds').replace(/^A field/, 'a column name')}`);
        // A UTF-8 byte order mark can only open the file, so only the header's first cell holds one.
        header = decoded.cells.map((column, index) => (index === 0 ? column.replace(/^\uFEFF/, '') : column).trim());
        checkHeader(header);
        continue;
      }
      row += 1;
      if (!decoded.ok) {
        yield { row, ok: false, error: decoded.error };
        continue;
      }
      const record = decoded.cells;
      if (record.length !== header.length) {
        yield { row, ok: false, error: `Expected ${header.length} fields, found ${record.length}` };
        continue;
      }
      const task: Record<string, unknown> = {};
      header.forEach((column, index) => {
        const value = fieldValue(column, record[index] ?? '');
        if (value !== undefined) task[column] = value;
      });
      yield { row, ok: true, task };
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw invalidCsv(`The file is not valid CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!header) throw invalidCsv(`The file is empty; the header needs: ${REQUIRED_COLUMNS.join(', ')}`);
}
