// Reading an import file as a stream of rows, whatever its size: memory holds one chunk of the file and
// the rows not yet sent, never the file.
//  - CSV: the service's CSV import dialect (@concord/contract's csv.ts): the same parser (csv-parse) with
//    the same options, the same header check and the same rows; `row` is the 1-based data record (the
//    header and skipped lines are not counted), as in the service's `errors`.
//  - JSONL (one JSON object per line, the fields of POST /tasks): `row` is the 1-based line number;
//    blank lines are skipped.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { taskCsvOptions, TaskCsvRows, utf8BomLength } from '@concord/contract';
import { parse } from 'csv-parse';
import { usageError } from './errors.ts';

export type ImportFormat = 'csv' | 'jsonl';

export type Row = { row: number; ok: true; task: Record<string, unknown> } | { row: number; ok: false; code: string; message: string };

/** What one pass over the file learns before the import: its digest, whether it is UTF-8, about how many rows. */
export interface FileSurvey {
  sha256: string;
  bytes: number;
  utf8: boolean;
  /** Line breaks (+1 when the last line has none): an estimate of the rows, for the progress bar. */
  lines: number;
}

/** How many bytes at the end of `bytes` start a UTF-8 sequence that the next chunk completes. */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * Reads the file once, in chunks: SHA-256 of its bytes, UTF-8 validity (checked natively, without
 * decoding: a sequence split between chunks is carried over), line count.
 */
export async function surveyFile(file: string): Promise<FileSurvey> {
  const hash = createHash('sha256');
  let utf8 = true;
  let carry: Buffer | undefined;
  let bytes = 0;
  let lines = 0;
  let last = 10;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 18 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (utf8) {
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      const tail = incompleteTail(data);
      utf8 = isUtf8(data.subarray(0, data.length - tail));
      carry = tail > 0 ? Buffer.from(data.subarray(data.length - tail)) : undefined;
    }
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    last = chunk[chunk.length - 1] ?? last;
  }
  if (carry) utf8 = false; // the file ends inside a sequence
  if (bytes > 0 && last !== 10) lines += 1;
  return { sha256: hash.digest('hex'), bytes, utf8, lines };
}

/** csv or jsonl: from --format, else the extension, else the first character (`{` is JSONL). */
export async function detectFormat(file: string, given: string | undefined): Promise<ImportFormat> {
  if (given !== undefined) {
    const lower = given.toLowerCase();
    if (lower === 'csv') return 'csv';
    if (lower === 'jsonl' || lower === 'ndjson') return 'jsonl';
    throw usageError(`--format must be csv or jsonl, not ${given}`);
  }
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  for await (const chunk of createReadStream(file, { start: 0, end: 4095 }) as AsyncIterable<Buffer>) {
    const text = chunk
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    return text.startsWith('{') ? 'jsonl' : 'csv';
  }
  return 'csv';
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function bomLength(file: string): Promise<number> {
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(3), 0, 3, 0);
    return utf8BomLength(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** CSV rows. `utf8`: the whole file is UTF-8 (parsed as text); otherwise fields are decoded one by one. */
export async function* readCsv(file: string, utf8: boolean): AsyncGenerator<Row> {
  const start = utf8 ? 0 : await bomLength(file);
  const parser = createReadStream(file, { highWaterMark: 1 << 16, start }).pipe(parse(taskCsvOptions(utf8)));
  const rows = new TaskCsvRows();
  try {
    for await (const fields of parser as AsyncIterable<Array<string | Buffer>>) {
      const row = rows.read(fields);
      if (row) yield row.ok ? row : { row: row.row, ok: false, code: 'VALIDATION_ERROR', message: row.error };
    }
    rows.end();
  } catch (error) {
    const failure = rows.parseFailure(error);
    throw usageError(`CSV: ${failure.message}`, failure.code);
  }
}

/** JSONL rows: each non-blank line one task object. */
export async function* readJsonl(file: string, utf8: boolean): AsyncGenerator<Row> {
  let carry: Buffer | undefined;
  let line = 0;
  const handle = (bytes: Buffer): Row | undefined => {
    line += 1;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 13) end -= 1;
    let text: string;
    try {
      text = utf8 ? bytes.toString('utf8', 0, end) : fatalUtf8.decode(bytes.subarray(0, end));
    } catch {
      return { row: line, ok: false, code: 'VALIDATION_ERROR', message: 'The line holds bytes that are not valid UTF-8' };
    }
    if (line === 1) text = text.replace(/^\uFEFF/, '');
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { row: line, ok: false, code: 'INVALID_JSON', message: `The line is not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { row: line, ok: false, code: 'VALIDATION_ERROR', message: 'A task must be a JSON object' };
    }
    return { row: line, ok: true, task: value as Record<string, unknown> };
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    let start = 0;
    let data = chunk;
    if (carry) {
      data = Buffer.concat([carry, chunk]);
      carry = undefined;
    }
    for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, start)) {
      const row = handle(data.subarray(start, at));
      if (row) yield row;
      start = at + 1;
    }
    if (start < data.length) carry = Buffer.from(data.subarray(start));
  }
  if (carry && carry.length > 0) {
    const row = handle(carry);
    if (row) yield row;
  }
}

export function readRows(file: string, format: ImportFormat, utf8: boolean): AsyncGenerator<Row> {
  return format === 'csv' ? readCsv(file, utf8) : readJsonl(file, utf8);
}
