// The import page's reading of a CSV file, for its preview and to put each error the API returns next to
// the row's content: the service's own dialect (@concord/contract's TASK_CSV_OPTIONS) read by the same
// parser (csv-parse, its browser build), so rows are numbered exactly as POST /tasks/batch/csv numbers
// them. The service remains the judge of the file.
import { CSV_OPTIONAL_COLUMNS, CSV_REQUIRED_COLUMNS, csvHeaderColumns, TASK_CSV_OPTIONS } from '@concord/contract';
import { parse } from 'csv-parse/browser/esm/sync';

export interface CsvRecord {
  /** 1-based position among the data records, as the API's `errors[].row`. */
  row: number;
  /** 1-based line of the file on which the record starts. */
  line: number;
  cells: string[];
}

export interface CsvParseResult {
  header: string[] | null;
  records: CsvRecord[];
  /** Why the text is not CSV the service will read (it answers INVALID_CSV then); records stop there. */
  error: { message: string; line: number } | null;
}

const lineBreaks = (cells: string[]) => cells.reduce((count, cell) => count + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
// Inside a quoted field csv-parse counts CR and LF as a line each, so a CRLF there counts twice.
const crlfs = (cells: string[]) => cells.reduce((count, cell) => count + (cell.match(/\r\n/g)?.length ?? 0), 0);

/** Where the last record read ended: its line (0 before the first), and its end in the file's UTF-8 bytes, line end included. */
interface ReadSoFar {
  line: number;
  bytes: number;
  /** Lines csv-parse counted twice so far (a CRLF inside a quoted field). */
  overcount: number;
}

/**
 * The line of the quote that is never closed: csv-parse reports where the file ended, so it is found after
 * the last record read, as the last quote that opens a field (quotes toggle in and out of a quoted field).
 */
function unclosedQuoteLine(text: string, read: ReadSoFar): number {
  const rest = new TextDecoder().decode(new TextEncoder().encode(text).subarray(read.bytes));
  let opening = 0;
  let quotes = 0;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] !== '"') continue;
    if (quotes % 2 === 0) opening = i;
    quotes += 1;
  }
  return read.line + 1 + lineBreaks([rest.slice(0, opening)]);
}

/** What csv-parse's refusal means for the person who wrote the file, with the line it names. */
function parseProblem(error: unknown, text: string, read: ReadSoFar): { message: string; line: number } {
  const { code, lines } = error as { code?: string; lines?: number };
  const line = Math.max(1, (typeof lines === 'number' ? lines : 1) - read.overcount);
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED': {
      const opened = unclosedQuoteLine(text, read);
      return { message: `A quoted field opened on line ${opened} is never closed.`, line: opened };
    }
    case 'INVALID_OPENING_QUOTE':
      return { message: `Line ${line}: a quote inside a field that does not start with one. Quote the whole field and double the inner quote ("").`, line };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return {
        message: `Line ${line}: after a closing quote comes another character instead of a comma or a line end. Double a quote inside a quoted field ("").`,
        line,
      };
    default:
      return { message: `Line ${line}: ${error instanceof Error ? error.message : String(error)}`, line };
  }
}

/** Splits CSV text into records, or says why the service would refuse the file and on which line. */
export function parseCsv(text: string): CsvParseResult {
  const records: Array<{ cells: string[]; line: number }> = [];
  const read: ReadSoFar = { line: 0, bytes: 0, overcount: 0 };
  try {
    parse(text, {
      ...TASK_CSV_OPTIONS,
      on_record: (record, info) => {
        // info.lines is the line a record ends on; a quoted field's line ends move its start back.
        read.overcount += crlfs(record);
        read.line = info.lines - read.overcount;
        read.bytes = info.bytes;
        records.push({ cells: record, line: read.line - lineBreaks(record) });
        return null;
      },
    });
  } catch (error) {
    return { header: null, records: [], error: parseProblem(error, text, read) };
  }
  const [first, ...rest] = records;
  return {
    header: first ? csvHeaderColumns(first.cells) : null,
    records: rest.map((record, index) => ({ row: index + 1, ...record })),
    error: null,
  };
}

/** The first `count` records in file order (by row, as the service numbers them), for the preview. */
export function previewRows(parsed: CsvParseResult, count: number): CsvRecord[] {
  return [...parsed.records].sort((a, b) => a.row - b.row).slice(0, count);
}

/** A record's cells by column name. */
export function recordFields(header: string[], record: CsvRecord): Record<string, string> {
  const fields: Record<string, string> = {};
  header.forEach((column, index) => {
    fields[column] = record.cells[index] ?? '';
  });
  return fields;
}

/**
 * What a row's empty options cell stands for, by its answerKind cell: a pairwise row's answers (A, B and,
 * with allowTie, tie), a text row's written answer; null where an empty cell is just empty (the service
 * then refuses the row for its missing options).
 */
export function emptyOptionsWords(fields: Record<string, string>): string | null {
  if ((fields.options ?? '') !== '') return null;
  const kind = fields.answerKind?.trim();
  if (kind === 'pairwise') return fields.allowTie?.trim().toLowerCase() === 'true' ? 'A · B · tie (pairwise)' : 'A · B (pairwise)';
  if (kind === 'text') return 'written answer (text)';
  return null;
}

/** One CSV field, quoted when it holds a comma, a quote or a line end (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The example's columns: every column of the dialect, the required ones first (its rows use them all). */
const EXAMPLE_COLUMNS = [...CSV_REQUIRED_COLUMNS, ...CSV_OPTIONAL_COLUMNS] as const;

type ExampleRow = Partial<Record<(typeof EXAMPLE_COLUMNS)[number], string>>;

/** How far ahead the example's deadline is: well inside the service's 366 days, and long enough to import it later. */
const EXAMPLE_DEADLINE_DAYS = 30;

/**
 * A ready-to-import example file: every column, a row of each answer kind, quoting, a multi-line field and
 * defaults left empty. Every row names its budget (the service's default of 20 cents is refused wherever
 * the task price is higher): the lowest it accepts (`floorCents`, the task price), and twice that on the
 * relevance row and on the written answer, which costs twice the price (its review is paid too). One row
 * has a deadline, 30 days after `now` (on the hour, ISO 8601 in UTC), and two a priority.
 */
export function exampleCsv(floorCents = 20, now: Date = new Date()): string {
  const floor = String(floorCents);
  const deadline = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000 + EXAMPLE_DEADLINE_DAYS * 86_400_000).toISOString();
  const rows: ExampleRow[] = [
    {
      type: 'SENTIMENT_ANALYSIS',
      content: 'The delivery was fast and the box was intact.',
      options: 'positive|negative|neutral',
      locale: 'en',
      maxCents: floor,
      validationsNeeded: '3',
      deadline,
      priority: '5',
    },
    { type: 'SENTIMENT_ANALYSIS', content: 'Le produit est arrivé cassé, "très" déçu.', options: 'positive|negative|neutral', locale: 'fr', maxCents: floor },
    {
      type: 'BINARY_CHOICE',
      content: 'Is this e-mail spam? "You won a cruise, click here"',
      options: 'yes|no',
      maxCents: floor,
      validationsNeeded: '5',
      priority: '-2',
    },
    {
      type: 'RELEVANCE_RATING',
      content: 'Query: waterproof hiking boots\nResult: Trail runner GTX, Gore-Tex lined',
      options: 'relevant|somewhat relevant|irrelevant',
      locale: 'en',
      maxCents: String(2 * floorCents),
    },
    { type: 'AI_RESPONSE_RATING', content: 'Q: What is the capital of Australia? A: Sydney.', options: 'good|acceptable|bad', locale: 'en', maxCents: floor },
    { type: 'IMAGE_CLASSIFICATION', content: 'https://example.com/images/0001.jpg', options: 'cat|dog|other', locale: 'en', maxCents: floor },
    // A rating: the options are the scale's levels, lowest first.
    {
      type: 'AI_RESPONSE_RATING',
      content: 'Q: How do I undo my last git commit? A: Run `git reset --soft HEAD~1`: the commit goes, its changes stay staged.',
      options: '1|2|3|4|5',
      locale: 'en',
      maxCents: floor,
      answerKind: 'rating',
    },
    // A multi-select: every option that applies, none at all allowed.
    {
      type: 'IMAGE_CLASSIFICATION',
      content: 'https://example.com/images/0002.jpg',
      options: 'person|forklift|pallet',
      locale: 'en',
      maxCents: floor,
      answerKind: 'multi',
      allowEmpty: 'true',
    },
    // A pairwise comparison: no options (the answers are A, B and, with allowTie, tie), two candidates.
    {
      type: 'AI_RESPONSE_RATING',
      content: 'Write a one-line commit message for a change that fixes a crash when the config file is empty.',
      locale: 'en',
      maxCents: floor,
      answerKind: 'pairwise',
      candidateA: 'Fix crash on empty config file',
      candidateB: 'fixed stuff',
      allowTie: 'true',
      group: 'commit-messages',
    },
    // A written answer: no options, the content is the instruction, at most maxLength characters.
    {
      type: 'AI_RESPONSE_RATING',
      content: 'Write a one-sentence reply to a customer whose parcel is three days late.',
      locale: 'en',
      maxCents: String(2 * floorCents),
      answerKind: 'text',
      maxLength: '280',
    },
  ];
  const lines = [[...EXAMPLE_COLUMNS], ...rows.map((row) => EXAMPLE_COLUMNS.map((column) => row[column] ?? ''))];
  return `${lines.map((cells) => cells.map(csvField).join(',')).join('\r\n')}\r\n`;
}
