// Reads a crowd dataset: answers.csv (question,worker,answer) and truth.csv (question,truth). Files have
// arrived with LF, CRLF and both mixed in one file; csv-parse takes its record delimiter from the first
// line it sees, so a CRLF header over LF rows (or the reverse) left a '\r' on labels. Every line ending is
// made LF before parsing, and a label therefore never carries a '\r'.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

export interface Label {
  item: string;
  worker: string;
  label: string;
}

export interface Dataset {
  name: string;
  answers: Label[];
  truth: Map<string, string>;
}

/** Parses CSV text with a header row into records, whatever its line endings (LF, CRLF, CR or mixed). */
export function parseCsvRecords(text: string): Array<Record<string, string>> {
  const normalised = text.replace(/\r\n?/g, '\n');
  return parse(normalised, { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>;
}

function column(record: Record<string, string>, name: string, file: string): string {
  const value = record[name];
  if (value === undefined) throw new Error(`${file}: no column "${name}"`);
  return value;
}

/** The answers (in file order) and the truths of a dataset folder. */
export function readDataset(dir: string): Dataset {
  const answersFile = path.join(dir, 'answers.csv');
  const truthFile = path.join(dir, 'truth.csv');
  const answers = parseCsvRecords(readFileSync(answersFile, 'utf8')).map((row): Label => ({
    item: column(row, 'question', answersFile),
    worker: column(row, 'worker', answersFile),
    label: column(row, 'answer', answersFile),
  }));
  const truth = new Map(parseCsvRecords(readFileSync(truthFile, 'utf8')).map((row) => [column(row, 'question', truthFile), column(row, 'truth', truthFile)]));
  return { name: path.basename(path.resolve(dir)), answers, truth };
}
