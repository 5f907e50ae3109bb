// The CSV dialect of a task import (contract §4), written once for POST /tasks/batch/csv, the CLI's
// `concord import` and the dashboard's preview: each reads the file with csv-parse configured by
// TASK_CSV_OPTIONS (streaming on the server and in the CLI, its browser build in the dashboard) and turns
// the records into task rows with TaskCsvRows. UTF-8 (a BOM is ignored), comma-delimited, RFC 4180 quoting
// (doubled quotes inside quoted fields), CRLF or LF, blank lines skipped, options separated by '|'. Records
// are numbered from 1, counting neither the header nor skipped lines. A record with bytes that are not
// UTF-8, or with a NUL character, is an invalid row like any other instead of a row of replacement
// characters.

export const CSV_REQUIRED_COLUMNS = ['type', 'content', 'options'] as const;
export const CSV_OPTIONAL_COLUMNS = [
  'locale',
  'maxCents',
  'projectId',
  'validationsNeeded',
  'answerKind',
  'allowEmpty',
  'candidateA',
  'candidateB',
  'allowTie',
  'group',
  'maxLength',
  'deadline',
  'priority',
] as const;
/** The columns of a pairwise row's two candidates (its options cell stays empty), read as the task's `candidates`. */
const CANDIDATE_COLUMNS = { candidateA: 'A', candidateB: 'B' } as const;
const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set(['allowEmpty', 'allowTie']);
export const CSV_COLUMNS: readonly string[] = [...CSV_REQUIRED_COLUMNS, ...CSV_OPTIONAL_COLUMNS];
/** What separates a task's options inside its `options` cell. */
export const CSV_OPTION_SEPARATOR = '|';
const KNOWN_COLUMNS: ReadonlySet<string> = new Set(CSV_COLUMNS);
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set(['maxCents', 'validationsNeeded', 'maxLength', 'priority']);

/** How csv-parse reads an import; taskCsvOptions adds how the file's bytes become text. */
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

/** The bytes of a UTF-8 byte order mark at the start of `bytes`: 3 or 0. */
export const utf8BomLength = (bytes: Uint8Array): number => (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);

/**
 * csv-parse's options for a file that is UTF-8 throughout (read as text) or not (read as bytes, each field
 * decoded by TaskCsvRows, so that only the rows holding bad bytes are refused). Bytes are read with `bom`
 * off, for csv-parse switches to lossy text when it meets a BOM: the caller skips the BOM's bytes itself
 * (utf8BomLength).
 */
export function taskCsvOptions(utf8: boolean) {
  return utf8 ? { ...TASK_CSV_OPTIONS, encoding: 'utf8' as const } : { ...TASK_CSV_OPTIONS, bom: false, encoding: null };
}

export interface CsvHeaderCheck {
  missing: string[];
  unknown: string[];
  duplicate: string[];
}

/** What is wrong with a header (each column trimmed, the BOM dropped): nothing when every list is empty. */
export function checkCsvHeader(header: readonly string[]): CsvHeaderCheck {
  const seen = new Set<string>();
  const duplicate: string[] = [];
  for (const column of header) {
    if (seen.has(column)) duplicate.push(column);
    seen.add(column);
  }
  return {
    missing: CSV_REQUIRED_COLUMNS.filter((column) => !seen.has(column)),
    unknown: header.filter((column) => !KNOWN_COLUMNS.has(column)),
    duplicate,
  };
}

const plural = (items: readonly string[]) => (items.length > 1 ? 's' : '');

/** The sentence INVALID_CSV gives for a bad header, or null when the header is good. */
export function csvHeaderProblem(header: readonly string[]): string | null {
  const { missing, unknown, duplicate } = checkCsvHeader(header);
  if (duplicate.length > 0) return `Duplicate column "${duplicate[0]}" in the header`;
  if (missing.length > 0) return `Missing required column${plural(missing)}: ${missing.join(', ')}`;
  if (unknown.length > 0) return `Unknown column${plural(unknown)}: ${unknown.join(', ')}; accepted: ${CSV_COLUMNS.join(', ')}`;
  return null;
}

/** The header as read: cells trimmed, the first one without a byte order mark (only the file's start holds one). */
export const csvHeaderColumns = (cells: readonly string[]): string[] => cells.map((cell, index) => (index === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim());

/** A cell as a task field: empty optional cells are left out (defaults apply), numbers and allowEmpty's and allowTie's true/false are parsed. */
export function csvCellValue(column: string, cell: string): unknown {
  if (column === 'options') return cell === '' ? undefined : cell.split(CSV_OPTION_SEPARATOR);
  if (cell === '') return undefined;
  if (NUMERIC_COLUMNS.has(column) && /^-?\d+$/.test(cell.trim())) return Number(cell.trim());
  // true or false (any case); anything else stays text, which the task rules refuse by name.
  if (BOOLEAN_COLUMNS.has(column) && /^(true|false)$/i.test(cell.trim())) return cell.trim().toLowerCase() === 'true';
  return cell;
}

/** A file the import refuses as a whole (INVALID_CSV): a bad or unreadable header, an empty file, broken quoting. */
export class CsvFileError extends Error {
  readonly code = 'INVALID_CSV';
}

export type CsvTaskRow = { row: number; ok: true; task: Record<string, unknown> } | { row: number; ok: false; error: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A record's fields as text (decoded here when they are bytes), or why one of them cannot be stored. */
function decodeRecord(fields: ReadonlyArray<string | Uint8Array>): { ok: true; cells: string[] } | { ok: false; error: string } {
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

/**
 * Turns csv-parse's records, one at a time, into task rows: the first record is the header (checked;
 * CsvFileError when it is bad), every later one a numbered row. Call end() after the last record.
 */
export class TaskCsvRows {
  private header: string[] | undefined;
  private rows = 0;

  /** The row of a record, or undefined for the header. */
  read(fields: ReadonlyArray<string | Uint8Array>): CsvTaskRow | undefined {
    const decoded = decodeRecord(fields);
    if (!this.header) {
      if (!decoded.ok) {
        throw new CsvFileError(`The header is unreadable: ${decoded.error.replace(/^The row holds/, 'it holds').replace(/^A field/, 'a column name')}`);
      }
      const header = csvHeaderColumns(decoded.cells);
      const problem = csvHeaderProblem(header);
      if (problem) throw new CsvFileError(problem);
      this.header = header;
      return undefined;
    }
    const row = ++this.rows;
    if (!decoded.ok) return { row, ok: false, error: decoded.error };
    if (decoded.cells.length !== this.header.length) return { row, ok: false, error: `Expected ${this.header.length} fields, found ${decoded.cells.length}` };
    const task: Record<string, unknown> = {};
    this.header.forEach((column, index) => {
      const value = csvCellValue(column, decoded.cells[index] ?? '');
      if (value === undefined) return;
      if (column in CANDIDATE_COLUMNS) {
        const candidates = (task.candidates ?? {}) as Record<string, unknown>;
        task.candidates = { ...candidates, [CANDIDATE_COLUMNS[column as keyof typeof CANDIDATE_COLUMNS]]: value };
      } else task[column] = value;
    });
    return { row, ok: true, task };
  }

  /** Throws CsvFileError for a file without a header. */
  end(): void {
    if (!this.header) throw new CsvFileError(`The file is empty; the header needs: ${CSV_REQUIRED_COLUMNS.join(', ')}`);
  }

  /** CsvFileError for what csv-parse threw (unclosed or misplaced quotes). */
  parseFailure(error: unknown): CsvFileError {
    if (error instanceof CsvFileError) return error;
    const after = this.rows > 0 ? ` after row ${this.rows}` : '';
    return new CsvFileError(`The file is not valid CSV${after}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
