// A small RFC 4180 reader for the browser, numbering rows exactly as POST /tasks/batch/csv numbers them
// (service: src/modules/tasks/task-csv.ts on csv-parse): a UTF-8 byte order mark is ignored, fields are
// comma-separated, a field opened with `"` runs to the next lone `"` and `""` inside it is one quote, records
// end with the file's line end (the first CRLF, LF or CR met outside quotes), empty lines and records whose every cell is blank are skipped, the first record
// left is the header, and data records are numbered from 1 (neither the header nor skipped lines count).
// It exists so the import page can show a preview and put each error the API returns next to the row's
// content; the service remains the judge of the file.

export const REQUIRED_COLUMNS = ['type', 'content', 'options'] as const;
export const OPTIONAL_COLUMNS = ['locale', 'maxCents', 'projectId', 'validationsNeeded'] as const;
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);

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

const isBlankRecord = (cells: string[]) => cells.every((cell) => cell.trim() === '');

/** Splits CSV text into records. Stops at the first syntax error and reports it with its line. */
export function parseCsv(input: string): CsvParseResult {
  const hasBom = input.charCodeAt(0) === 0xfeff;
  const text = hasBom ? input.slice(1) : input;
  const result: CsvParseResult = { header: null, records: [], error: null };
  let row = 0;
  let line = 1;
  let recordLine = 1;
  let cells: string[] = [];
  let field = '';
  let i = 0;
  let eol: string | null = null;
  const n = text.length;

  const endRecord = () => {
    cells.push(field);
    field = '';
    if (!isBlankRecord(cells)) {
      if (result.header === null) {
        result.header = cells.map((cell) => cell.trim());
      } else {
        row += 1;
        result.records.push({ row, line: recordLine, cells });
      }
    }
    cells = [];
  };

  while (i < n) {
    const ch = text[i];
    if (ch === '"' && field === '') {
      // A quoted field: up to the closing quote, doubled quotes are one quote, line ends are content.
      const openedAt = line;
      i += 1;
      let closed = false;
      while (i < n) {
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          closed = true;
          i += 1;
          break;
        }
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line += 1;
        field += c;
        i += 1;
      }
      if (!closed) {
        result.error = { message: `A quoted field opened on line ${openedAt} is never closed.`, line: openedAt };
        return result;
      }
      const after = text[i];
      const endsRecord = eol === null ? after === '\n' || after === '\r' : text.startsWith(eol, i);
      if (after !== undefined && after !== ',' && !endsRecord) {
        result.error = {
          message: `Line ${line}: after a closing quote comes "${after}" instead of a comma or a line end. Double a quote inside a quoted field ("").`,
          line,
        };
        return result;
      }
      continue;
    }
    if (ch === '"') {
      result.error = {
        message: `Line ${line}: a quote inside a field that does not start with one. Quote the whole field and double the inner quote ("").`,
        line,
      };
      return result;
    }
    if (ch === ',') {
      cells.push(field);
      field = '';
      i += 1;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      // Like csv-parse, the first line end met outside quotes decides what ends a record (CRLF, LF or CR);
      // any other CR or LF is part of the field.
      if (eol === null) eol = ch === '\r' && text[i + 1] === '\n' ? '\r\n' : ch;
      if (text.startsWith(eol, i)) {
        endRecord();
        i += eol.length;
        line += 1;
        recordLine = line;
        continue;
      }
      if (ch === '\n' || text[i + 1] !== '\n') line += 1;
    }
    field += ch;
    i += 1;
  }
  if (field !== '' || cells.length > 0) endRecord();
  return result;
}

export interface HeaderCheck {
  missing: string[];
  unknown: string[];
  duplicate: string[];
}

/** The header rules of the service (a breach makes it refuse the whole file with INVALID_CSV). */
export function checkHeader(header: string[]): HeaderCheck {
  const seen = new Set<string>();
  const duplicate: string[] = [];
  for (const column of header) {
    if (seen.has(column)) duplicate.push(column);
    seen.add(column);
  }
  return {
    missing: REQUIRED_COLUMNS.filter((column) => !seen.has(column)),
    unknown: header.filter((column) => !KNOWN_COLUMNS.has(column)),
    duplicate,
  };
}

/** A record's cells by column name. */
export function recordFields(header: string[], record: CsvRecord): Record<string, string> {
  const fields: Record<string, string> = {};
  header.forEach((column, index) => {
    fields[column] = record.cells[index] ?? '';
  });
  return fields;
}

/** One CSV field, quoted when it holds a comma, a quote or a line end (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A ready-to-import example file: every column, quoting, a multi-line field and defaults left empty.
 * Every row names its budget (the service's default of 20 cents is refused wherever the task price is
 * higher): the lowest it accepts (`floorCents`, the task price), and twice that on one row.
 */
export function exampleCsv(floorCents = 20): string {
  const rows: string[][] = [
    ['type', 'content', 'options', 'locale', 'maxCents', 'projectId', 'validationsNeeded'],
    ['SENTIMENT_ANALYSIS', 'The delivery was fast and the box was intact.', 'positive|negative|neutral', 'en', String(floorCents), '', '3'],
    ['SENTIMENT_ANALYSIS', 'Le produit est arrivé cassé, "très" déçu.', 'positive|negative|neutral', 'fr', String(floorCents), '', ''],
    ['BINARY_CHOICE', 'Is this e-mail spam? "You won a cruise, click here"', 'yes|no', '', String(floorCents), '', '5'],
    [
      'RELEVANCE_RATING',
      'Query: waterproof hiking boots\nResult: Trail runner GTX, Gore-Tex lined',
      'relevant|somewhat relevant|irrelevant',
      'en',
      String(2 * floorCents),
      '',
      '',
    ],
    ['AI_RESPONSE_RATING', 'Q: What is the capital of Australia? A: Sydney.', 'good|acceptable|bad', 'en', String(floorCents), '', ''],
    ['IMAGE_CLASSIFICATION', 'https://example.com/images/0001.jpg', 'cat|dog|other', 'en', String(floorCents), '', ''],
  ];
  return `${rows.map((cells) => cells.map(csvField).join(',')).join('\r\n')}\r\n`;
}
