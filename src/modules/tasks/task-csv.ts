// POST /tasks/batch/csv's reader: the dialect and the rows are the contract package's (csv.ts); here the
// uploaded bytes stream through csv-parse, so records are handed on as they are read. A file that is valid
// UTF-8 throughout (checked once, natively) is parsed as text; only otherwise are fields split as bytes and
// decoded one by one (every byte CSV gives meaning to is ASCII, and no byte of a multi-byte UTF-8 sequence
// is), which costs about a quarter more on a 5 MB file. Text decoded from valid UTF-8 holds no unpaired
// surrogate. The bytes reach the parser in 64 KiB chunks: handed a 5 MB file at once, csv-parse reads all
// of it in one synchronous step and the process answers nothing else meanwhile.
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { taskCsvOptions, TaskCsvRows, utf8BomLength, type CsvTaskRow } from '@concord/contract';
import { parse } from 'csv-parse';
import { BadRequestError } from '../../lib/errors.ts';

export type CsvRecord = CsvTaskRow;

const PARSE_CHUNK_BYTES = 64 * 1024;

function* chunks(bytes: Buffer, size: number): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

/** Reads task records from CSV bytes. Throws INVALID_CSV for a bad header or unparseable CSV. */
export async function* readTaskCsv(file: Buffer): AsyncGenerator<CsvRecord> {
  const asText = isUtf8(file);
  // Bytes only when the file is not UTF-8 throughout: each field is then decoded on its own.
  const bytes = asText ? file : file.subarray(utf8BomLength(file));
  const parser = Readable.from(chunks(bytes, PARSE_CHUNK_BYTES)).pipe(parse(taskCsvOptions(asText)));
  const rows = new TaskCsvRows();
  try {
    for await (const fields of parser as AsyncIterable<Array<Buffer | string>>) {
      const row = rows.read(fields);
      if (row) yield row;
    }
    rows.end();
  } catch (error) {
    const failure = rows.parseFailure(error);
    throw new BadRequestError(failure.code, failure.message);
  }
}
