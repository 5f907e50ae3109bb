// CSV import: the chosen file is read in the browser first (a preview of its first rows, its row count and
// the header checked against the service's columns), then sent to POST /tasks/batch/csv with a progress
// bar fed by XMLHttpRequest's upload events. The answer's per-row errors are shown against the rows they
// came from, numbered as the API numbers them (csv.ts). The Idempotency-Key is the SHA-256 of the file's
// bytes, so the same file uploaded again within 24 hours (after a reload too) replays the first import.
import { useRef, useState, type ChangeEvent } from 'react';
import { contentKey, importedAt, newIdempotencyKey, rememberImport } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card } from '../ui/Page';
import { formatBytes, saveBlob } from '../ui/files';
import { formatCount, formatDateTime } from '../ui/format';
import { checkCsvHeader, CSV_MAX_BYTES, MAX_DEADLINE_LEAD_DAYS, MAX_PRIORITY, MIN_PRIORITY } from '@concord/contract';
import { exampleCsv, parseCsv, type CsvParseResult } from './csv';
import { CsvImportResult, CsvUploadError } from './CsvImportResult';
import { CsvLocalChecks, CsvPreview } from './CsvPreview';
import { UploadCancelled, useUploadCsv, type UploadProgress } from './queries';
import { floorCentsFor } from './taskForm';
import { signed } from './deadlines';
import { UploadProgressBar } from './UploadProgressBar';

/** The service's limit for one file (multer's, 5 × 1 024 × 1 024 bytes). */

interface ChosenFile {
  file: File;
  parsed: CsvParseResult | null;
  readError: string | null;
}

/** "at 25 Nov 2026, 09:14 UTC" when this tab remembers the first import, else "within the last 24 hours". */
function firstImportWords(key: string): string {
  const at = importedAt(key);
  return at ? `at ${formatDateTime(at)}` : 'within the last 24 hours';
}

export function CsvImport() {
  const upload = useUploadCsv();
  const floorCents = floorCentsFor(useMeta().data?.priceCents);
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
    const entry: ChosenFile = { file, parsed: null, readError: null };
    setChosen(entry);
    if (file.size > CSV_MAX_BYTES) return;
    file.text().then(
      (text) => {
        if (current.current === file) setChosen({ ...entry, parsed: parseCsv(text) });
      },
      () => {
        if (current.current === file) setChosen({ ...entry, readError: 'The browser could not read this file.' });
      },
    );
  };

  /** Uploads the chosen file; `fresh` sends it with a new key, to import the same rows again on purpose. */
  const start = async (fresh = false) => {
    if (!chosen) return;
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ loaded: 0, total: chosen.file.size });
    try {
      const idempotencyKey = fresh ? newIdempotencyKey() : await contentKey('POST /tasks/batch/csv', new Uint8Array(await chosen.file.arrayBuffer()));
      const outcome = await upload.mutateAsync({ file: chosen.file, idempotencyKey, onProgress: setProgress, signal: controller.signal });
      if (!outcome.replayed) rememberImport(idempotencyKey);
    } catch {
      // Shown below through upload.error.
    } finally {
      abort.current = null;
    }
  };

  const tooLarge = chosen ? chosen.file.size > CSV_MAX_BYTES : false;
  const headerProblems = chosen?.parsed?.header ? checkCsvHeader(chosen.parsed.header) : null;
  const cancelled = upload.error instanceof UploadCancelled;

  return (
    <Card
      title="CSV import"
      actions={
        <Button onClick={() => saveBlob(new Blob([exampleCsv(floorCents)], { type: 'text/csv;charset=utf-8' }), 'concord-example-tasks.csv')}>
          Download example CSV
        </Button>
      }
    >
      <p className="import-columns">
        Header columns: <code>type</code>, <code>content</code>, <code>options</code> (separated by <code>|</code>) are required; <code>locale</code>,{' '}
        <code>maxCents</code> (budget in cents), <code>projectId</code>, <code>validationsNeeded</code>, <code>answerKind</code>, <code>allowEmpty</code>,{' '}
        <code>deadline</code> (ISO 8601 with a zone, a minute to {MAX_DEADLINE_LEAD_DAYS} days ahead) and <code>priority</code> ({signed(MIN_PRIORITY)} to{' '}
        {signed(MAX_PRIORITY)}) are optional (an empty cell takes the default). A pairwise row sets <code>answerKind</code> to <code>pairwise</code>, leaves{' '}
        <code>options</code> empty and gives <code>candidateA</code>, <code>candidateB</code>, and optionally <code>allowTie</code> (true or false) and{' '}
        <code>group</code>. A written answer sets <code>answerKind</code> to <code>text</code>, leaves <code>options</code> empty, gives its instruction as{' '}
        <code>content</code> and optionally <code>maxLength</code> (the longest answer in characters, 2 000 when empty); it costs twice the task price. UTF-8,
        comma-separated, fields with commas or line breaks in double quotes, at most 5 MB. Valid rows are created together; invalid rows are listed with their
        error. The example CSV has a row of each answer kind: single choice, rating (its options the scale, lowest first), multi-select, pairwise and written
        answer.
      </p>
      <div className="import-dropzone">
        <TextField
          label="CSV file"
          type="file"
          accept=".csv,text/csv"
          onChange={choose}
          disabled={upload.isPending}
          error={
            tooLarge && chosen
              ? `This file is ${formatBytes(chosen.file.size)}; the limit is ${formatBytes(CSV_MAX_BYTES)}. Split it into smaller files.`
              : undefined
          }
        />
        <Button variant="primary" onClick={() => void start()} busy={upload.isPending} disabled={!chosen || tooLarge || upload.isSuccess}>
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
      {chosen?.readError ? (
        <p className="error-note" role="alert">
          {chosen.readError}
        </p>
      ) : null}
      {chosen?.parsed ? <CsvLocalChecks parsed={chosen.parsed} problems={headerProblems} /> : null}
      {progress && (upload.isPending || upload.isSuccess) ? <UploadProgressBar progress={progress} done={upload.isSuccess} /> : null}
      {cancelled ? <Notice>Upload cancelled. Nothing was imported.</Notice> : null}
      {upload.error && !cancelled ? <CsvUploadError error={upload.error} /> : null}
      {upload.data?.replayed ? (
        <Notice>
          This exact file was already imported {firstImportWords(upload.data.idempotencyKey)}; nothing new was created. What that import answered is shown
          below.{' '}
          <button type="button" className="link-button" onClick={() => void start(true)} disabled={upload.isPending}>
            Import its rows again as new tasks
          </button>
        </Notice>
      ) : null}
      {upload.data ? <CsvImportResult result={upload.data.result} parsed={chosen?.parsed ?? null} replayed={upload.data.replayed} /> : null}
      {chosen?.parsed && !upload.data ? <CsvPreview parsed={chosen.parsed} /> : null}
    </Card>
  );
}
