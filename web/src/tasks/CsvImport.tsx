// CSV import: the chosen file is read in the browser first (a preview of its first rows, its row count and
// the header checked against the service's columns), then sent to POST /tasks/batch/csv with a progress
// bar fed by XMLHttpRequest's upload events. The answer's per-row errors are shown against the rows they
// came from, numbered as the API numbers them (csv.ts).
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, describeError } from '../api/errors';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card } from '../ui/Misc';
import { StatCard } from '../ui/Charts';
import { formatCents, formatCount } from '../ui/format';
import { checkHeader, exampleCsv, parseCsv, recordFields, type CsvParseResult, type CsvRecord } from './csv';
import { newIdempotencyKey } from './idempotency';
import { UploadCancelled, useUploadCsv, type CsvImportResult, type UploadProgress } from './queries';
import { codeSentence, excerpt } from './taskMeta';

export const MAX_CSV_BYTES = 5 * 1024 * 1024;
const PREVIEW_ROWS = 5;

const formatBytes = (bytes: number): string =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;

interface ChosenFile {
  file: File;
  /** One key per chosen file: uploading it again replays the first answer instead of importing twice. */
  idempotencyKey: string;
  parsed: CsvParseResult | null;
  readError: string | null;
}

export function CsvImport() {
  const upload = useUploadCsv();
  const [chosen, setChosen] = useState<ChosenFile | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const current = useRef<File | null>(null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    upload.reset();
    setProgress(null);
    current.current = file;
    if (!file) {
      setChosen(null);
      return;
    }
    const entry: ChosenFile = { file, idempotencyKey: newIdempotencyKey(), parsed: null, readError: null };
    setChosen(entry);
    if (file.size > MAX_CSV_BYTES) return;
    file.text().then(
      (text) => {
        if (current.current === file) setChosen({ ...entry, parsed: parseCsv(text) });
      },
      () => {
        if (current.current === file) setChosen({ ...entry, readError: 'The browser could not read this file.' });
      },
    );
  };

  const start = async () => {
    if (!chosen) return;
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ loaded: 0, total: chosen.file.size });
    try {
      await upload.mutateAsync({ file: chosen.file, idempotencyKey: chosen.idempotencyKey, onProgress: setProgress, signal: controller.signal });
    } catch {
      // Shown below through upload.error.
    } finally {
      abort.current = null;
    }
  };

  const tooLarge = chosen ? chosen.file.size > MAX_CSV_BYTES : false;
  const headerProblems = chosen?.parsed?.header ? checkHeader(chosen.parsed.header) : null;
  const cancelled = upload.error instanceof UploadCancelled;

  return (
    <Card title="CSV import" actions={<ExampleCsvButton />}>
      <p className="import-columns">
        Header columns: <code>type</code>, <code>content</code>, <code>options</code> (separated by <code>|</code>) are required;{' '}
        <code>locale</code>, <code>maxCents</code> (budget in cents), <code>projectId</code> and <code>validationsNeeded</code> are optional (an empty cell takes the
        default). UTF-8, comma-separated, fields with commas or line breaks in double quotes, at most 5 MB. Valid rows are created together;
        invalid rows are listed with their error.
      </p>
      <div className="import-dropzone">
        <TextField
          label="CSV file"
          type="file"
          accept=".csv,text/csv"
          onChange={choose}
          disabled={upload.isPending}
          error={tooLarge && chosen ? `This file is ${formatBytes(chosen.file.size)}; the limit is 5 MB. Split it into smaller files.` : undefined}
        />
        <Button variant="primary" onClick={start} busy={upload.isPending} disabled={!chosen || tooLarge || upload.isSuccess}>
          Upload
        </Button>
        {/* Only while bytes are still going: once the whole file is sent, the service may already be importing it. */}
        {upload.isPending && progress && progress.loaded < progress.total ? <Button onClick={() => abort.current?.abort()}>Cancel upload</Button> : null}
      </div>
      {chosen ? (
        <p className="import-file-facts">
          {chosen.file.name} · {formatBytes(chosen.file.size)}
          {chosen.parsed ? ` · ${formatCount(chosen.parsed.records.length)} data ${chosen.parsed.records.length === 1 ? 'row' : 'rows'}` : ''}
        </p>
      ) : null}
      {chosen?.readError ? <p className="error-note" role="alert">{chosen.readError}</p> : null}
      {chosen?.parsed ? <LocalChecks parsed={chosen.parsed} problems={headerProblems} /> : null}
      {progress && (upload.isPending || upload.isSuccess) ? <ProgressBar progress={progress} done={upload.isSuccess} /> : null}
      {cancelled ? <Notice>Upload cancelled. Nothing was imported.</Notice> : null}
      {upload.error && !cancelled ? <UploadError error={upload.error} /> : null}
      {upload.data ? <ImportResult result={upload.data} parsed={chosen?.parsed ?? null} /> : null}
      {chosen?.parsed && !upload.data ? <Preview parsed={chosen.parsed} /> : null}
    </Card>
  );
}

function ExampleCsvButton() {
  const download = () => {
    const url = URL.createObjectURL(new Blob([exampleCsv()], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'concord-example-tasks.csv';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };
  return <Button onClick={download}>Download example CSV</Button>;
}

function ProgressBar({ progress, done }: { progress: UploadProgress; done: boolean }) {
  const id = useId();
  const percent = progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;
  const sent = progress.total > 0 && progress.loaded >= progress.total;
  return (
    <div className="import-progress">
      <label htmlFor={id}>Upload progress</label>
      <div className="import-progress-row">
        <progress id={id} max={100} value={percent} />
        <span className="num">{percent} %</span>
      </div>
      <p className="import-file-facts" aria-live="polite">
        {done
          ? 'Uploaded and processed.'
          : sent
            ? 'Sent. The service is checking every row and creating the tasks…'
            : `Sending ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}…`}
      </p>
    </div>
  );
}

function LocalChecks({ parsed, problems }: { parsed: CsvParseResult; problems: ReturnType<typeof checkHeader> | null }) {
  if (parsed.error) {
    return (
      <Notice tone="warning">
        This file is not valid CSV, so the service will refuse it as a whole (INVALID_CSV): {parsed.error.message}
      </Notice>
    );
  }
  if (!parsed.header) return <Notice tone="warning">The file is empty. It needs a header line: type,content,options.</Notice>;
  if (!problems) return null;
  const parts: string[] = [];
  if (problems.missing.length) parts.push(`missing required column${problems.missing.length > 1 ? 's' : ''} ${problems.missing.join(', ')}`);
  if (problems.unknown.length) parts.push(`unknown column${problems.unknown.length > 1 ? 's' : ''} ${problems.unknown.join(', ')}`);
  if (problems.duplicate.length) parts.push(`duplicate column${problems.duplicate.length > 1 ? 's' : ''} ${problems.duplicate.join(', ')}`);
  if (parts.length === 0) {
    return parsed.records.length === 0 ? <Notice tone="warning">The file has a header but no data rows.</Notice> : null;
  }
  return (
    <Notice tone="warning">
      The header has {parts.join('; ')}. The service will refuse the file (INVALID_CSV). Accepted columns: type, content, options, locale, maxCents, projectId,
      validationsNeeded.
    </Notice>
  );
}

const optionsText = (cell: string) => cell.split('|').join(' · ');

function Preview({ parsed }: { parsed: CsvParseResult }) {
  const header = parsed.header;
  if (!header || parsed.records.length === 0) return null;
  const rows = parsed.records.slice(0, PREVIEW_ROWS);
  const columns = header.filter((column) => column !== '');
  return (
    <>
      <h3 className="import-section-title">
        Preview: the first {rows.length} of {formatCount(parsed.records.length)} rows
      </h3>
      <div className="table-scroll">
        <table className="import-table">
          <caption className="sr-only">The first rows of the chosen file, as the service will number them</caption>
          <thead>
            <tr>
              <th scope="col" className="import-row-num">
                Row
              </th>
              {columns.map((column, index) => (
                <th key={`${column}-${index}`} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((record) => {
              const fields = recordFields(header, record);
              return (
                <tr key={record.row}>
                  <th scope="row" className="import-row-num">
                    {record.row}
                  </th>
                  {columns.map((column, index) => (
                    <td key={`${column}-${index}`}>{column === 'options' ? optionsText(fields[column] ?? '') : excerpt(fields[column] ?? '', 80)}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function UploadError({ error }: { error: unknown }) {
  const code = error instanceof ApiError ? error.code : '';
  return (
    <div role="alert" className="error-note import-upload-error">
      <p>{describeError(error)}</p>
      {/* INVALID_CSV names the problem (a missing column, an unclosed quote): show the service's words too. */}
      {code === 'INVALID_CSV' && error instanceof ApiError ? <p>{error.message}</p> : null}
      {code === 'INSUFFICIENT_CREDITS' ? (
        <p>
          Nothing was created. <Link to="/billing">Add credits</Link>, or lower the rows' <code>maxCents</code>.
        </p>
      ) : null}
    </div>
  );
}

function contentOf(parsed: CsvParseResult | null, row: number): string | null {
  if (!parsed?.header) return null;
  const record: CsvRecord | undefined = parsed.records[row - 1];
  if (!record || record.row !== row) return null;
  const fields = recordFields(parsed.header, record);
  return fields.content ?? null;
}

/** The service's message for a row, as a sentence. */
const rowSentence = (message: string, code: string) => {
  const text = message.replace(/^Invalid task: /, '').trim() || codeSentence(code);
  return /[.!?]$/.test(text) ? text : `${text}.`;
};

function ImportResult({ result, parsed }: { result: CsvImportResult; parsed: CsvParseResult | null }) {
  const failed = result.errors.length;
  return (
    <section aria-label="Import result">
      <div className="import-summary">
        <StatCard label="Tasks created" value={formatCount(result.created)} />
        <StatCard label="Total cost" value={formatCents(result.totalCostCents)} hint="Charged as the tasks complete." />
        <StatCard label="Rows with errors" value={formatCount(failed)} tone={failed > 0 ? 'warning' : undefined} />
      </div>
      {result.created > 0 ? (
        <Notice tone="success">
          {formatCount(result.created)} {result.created === 1 ? 'task was' : 'tasks were'} created. <Link to="/tasks">See them on the Tasks page</Link>.
        </Notice>
      ) : (
        <Notice tone="warning">No task was created: every row has an error. Fix the rows below and upload the file again.</Notice>
      )}
      {failed > 0 ? (
        <>
          <h3 className="import-section-title" id="import-errors-title">
            {formatCount(failed)} {failed === 1 ? 'row was' : 'rows were'} not imported
          </h3>
          <div className="table-scroll">
            <table className="import-table import-errors" role="table" aria-labelledby="import-errors-title">
              <thead>
                <tr>
                  <th scope="col" className="import-row-num">
                    Row
                  </th>
                  <th scope="col">Content</th>
                  <th scope="col">Error</th>
                  <th scope="col">Code</th>
                </tr>
              </thead>
              <tbody>
                {result.errors.map((rowError) => {
                  const content = contentOf(parsed, rowError.row);
                  const sentence = rowSentence(rowError.error, rowError.code);
                  return (
                    <tr key={rowError.row} role="row" data-row={rowError.row} aria-label={`Row ${rowError.row}: ${sentence}`}>
                      <th scope="row" role="rowheader" className="import-row-num">
                        Row {rowError.row}
                      </th>
                      <td role="cell" className="import-content-cell">{content === null ? <span className="task-muted">—</span> : content.trim() === '' ? <span className="task-muted">(empty)</span> : excerpt(content, 80)}</td>
                      <td role="cell" className="import-error-text import-error-cell">{sentence}</td>
                      <td role="cell" className="import-code-cell">
                        <code title={codeSentence(rowError.code)}>{rowError.code}</code>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <p className="import-file-facts">Choose another file to import more.</p>
    </section>
  );
}
