// Exports: choose a format, filter the tasks, optionally split them into train/validation/test files
// (the ratios checked exactly as the API checks them), see how many records each file will hold and the
// exact request, then download: the response is streamed with a progress indicator and saved under the
// name the API gives. Initial values come from the URL (/exports?projectId=… from a project's page).
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, describeError } from '../api/errors';
import { isLocale, isStatus, isTaskType, LOCALES, STATUSES, TASK_TYPES } from '../golden/vocabulary';
import { useProjectChoices } from '../projects/queries';
import { Button } from '../ui/Button';
import { StatCard } from '../ui/Charts';
import { ErrorNote, Notice } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Misc';
import { formatCount } from '../ui/format';
import { downloadExport, formatBytes, saveBlobUrl, type DownloadProgress, type DownloadResult } from './download';
import { useExportCounts } from './queries';
import { checkSplit, expectedFileName, exportQuery, FORMATS, isFormat, splitSizes, type ExportFormat, type ExportRequest, type RatioField, type SplitMode } from './split';
import './exports.css';

const DEFAULT_RATIOS = { trainRatio: '0.8', valRatio: '0.1', testRatio: '0.1' };
const SEED_MAX = 200;

/** The form's first values: the URL's, where they are values the API knows. */
function initialRequest(params: URLSearchParams): { request: ExportRequest; formatProblem: boolean } {
  const format = params.get('format');
  const status = params.get('status') ?? 'COMPLETED';
  const type = params.get('type') ?? '';
  const locale = params.get('locale') ?? '';
  const given = (['trainRatio', 'valRatio', 'testRatio'] as const).map((name) => params.get(name));
  // Train alone is the API's "one plain file"; any other ratio given means a three-way split (so the
  // missing ones show as errors instead of being dropped silently).
  const [train, val, test] = given;
  const mode: SplitMode = given.every((g) => g === null) ? 'none' : train !== null && val === null && test === null ? 'train' : 'three';
  return {
    request: {
      format: format === null ? 'jsonl' : isFormat(format) ? format : '',
      status: isStatus(status) ? status : 'COMPLETED',
      projectId: params.get('projectId') ?? '',
      type: isTaskType(type) ? type : '',
      locale: isLocale(locale) ? locale : '',
      mode,
      ratios: {
        trainRatio: train ?? DEFAULT_RATIOS.trainRatio,
        valRatio: val ?? (mode === 'three' ? '' : DEFAULT_RATIOS.valRatio),
        testRatio: test ?? (mode === 'three' ? '' : DEFAULT_RATIOS.testRatio),
      },
      seed: params.get('seed') ?? '',
    },
    formatProblem: format !== null && !isFormat(format),
  };
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: DownloadProgress }
  | { kind: 'done'; result: DownloadResult }
  | { kind: 'cancelled'; progress: DownloadProgress }
  | { kind: 'failed'; error: unknown };

export function ExportsPage() {
  const [params] = useSearchParams();
  // The URL only gives first values: a new one (a link followed from this page) starts a fresh form.
  return <ExportForm key={params.toString()} params={params} />;
}

function ExportForm({ params }: { params: URLSearchParams }) {
  const [initial] = useState(() => initialRequest(params));
  const [request, setRequest] = useState<ExportRequest>(initial.request);
  const [formatMissing, setFormatMissing] = useState(initial.formatProblem);
  const [ratiosRevealed, setRatiosRevealed] = useState(initial.request.mode !== 'none');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const blobUrl = useRef<string | null>(null);
  const projects = useProjectChoices();
  const counts = useExportCounts({ projectId: request.projectId, type: request.type, locale: request.locale });

  // Leaving the page stops a running download and frees the last file kept for "save again".
  useEffect(
    () => () => {
      controller.current?.abort();
      if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    },
    [],
  );

  const change = <K extends keyof ExportRequest>(key: K, value: ExportRequest[K]) => {
    setRequest((current) => ({ ...current, [key]: value }));
    // A refusal answered the request as it was; once it changes, the message no longer applies.
    setPhase((current) => (current.kind === 'failed' ? { kind: 'idle' } : current));
  };
  const split = checkSplit(request.mode, request.ratios);
  const query = exportQuery(request);
  const fileName = expectedFileName(request.format, request.mode);
  const apiError = phase.kind === 'failed' && phase.error instanceof ApiError ? phase.error : null;
  const apiFields = apiError?.code === 'VALIDATION_ERROR' ? apiError.fieldErrors() : {};
  const running = phase.kind === 'running';

  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setRatiosRevealed(true);
    const problems = !request.format || !split.ok || request.seed.length > SEED_MAX;
    setFormatMissing(!request.format);
    if (problems || running) {
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    blobUrl.current = null;
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ kind: 'running', progress: { bytes: 0, records: null, started: false } });
    try {
      const result = await downloadExport({
        query,
        format: request.format as ExportFormat,
        split: request.mode === 'three',
        fallbackName: fileName,
        signal: abort.signal,
        onProgress: (progress) => setPhase({ kind: 'running', progress }),
      });
      blobUrl.current = result.url;
      saveBlobUrl(result.url, result.fileName);
      setPhase({ kind: 'done', result });
    } catch (error) {
      setPhase((current) =>
        abort.signal.aborted
          ? { kind: 'cancelled', progress: current.kind === 'running' ? current.progress : { bytes: 0, records: null, started: false } }
          : { kind: 'failed', error },
      );
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const ratioError = (name: RatioField) => (ratiosRevealed ? split.fields[name] : undefined);
  const ratioInvalid = ratiosRevealed && split.sum !== null;
  const projectKnown = !request.projectId || (projects.data?.some((p) => p.id === request.projectId) ?? true);

  return (
    <>
      <PageHeader
        title="Exports"
        description="Download your results as a training dataset: choose a format, filter the tasks and, if you want, split them into train, validation and test files. Golden tasks are never exported."
      />
      <form onSubmit={start} noValidate aria-label="Export">
        <Card title="Format">
          <fieldset className="plain-fieldset" aria-describedby={formatMissing || apiError?.code === 'INVALID_FORMAT' ? 'export-format-error' : undefined}>
            <legend className="sr-only">Format</legend>
            <div className="format-grid">
              {FORMATS.map((format) => (
                <FormatOption key={format.id} id={format.id} description={format.description} checked={request.format === format.id} onChange={() => {
                  change('format', format.id);
                  setFormatMissing(false);
                }} />
              ))}
            </div>
            {formatMissing ? (
              <p id="export-format-error" className="field-error">
                Choose an export format.
              </p>
            ) : apiError?.code === 'INVALID_FORMAT' ? (
              <p id="export-format-error" className="field-error" role="alert">
                {describeError(apiError)} ({apiError.message})
              </p>
            ) : null}
          </fieldset>
        </Card>

        <div className="grid-2 export-grid">
          <Card title="Filters">
            <div className="filter-grid">
              <SelectField
                label="Status"
                name="status"
                value={request.status}
                onChange={(event) => change('status', event.target.value)}
                options={STATUSES}
                hint={request.status === 'COMPLETED' ? 'Only completed tasks carry a label.' : 'Tasks that are not completed are exported without a label.'}
                error={apiFields.status}
              />
              <SelectField
                label="Type"
                name="type"
                value={request.type}
                onChange={(event) => change('type', event.target.value)}
                options={[{ value: '', label: 'Any type' }, ...TASK_TYPES]}
                error={apiFields.type}
              />
              <SelectField
                label="Project"
                name="projectId"
                value={request.projectId}
                onChange={(event) => change('projectId', event.target.value)}
                options={[
                  { value: '', label: 'Any project' },
                  ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name })),
                  ...(projectKnown ? [] : [{ value: request.projectId, label: `Unknown project (${request.projectId})` }]),
                ]}
                hint={projectKnown ? undefined : 'No project of yours has this id: the export would be empty.'}
                error={apiFields.projectId}
              />
              <SelectField
                label="Locale"
                name="locale"
                value={request.locale}
                onChange={(event) => change('locale', event.target.value)}
                options={[{ value: '', label: 'Any locale' }, ...LOCALES]}
                error={apiFields.locale}
              />
            </div>
          </Card>

          <Card title="Split">
            <fieldset className="plain-fieldset">
              <legend className="sr-only">Split</legend>
              <div className="split-modes">
                <SplitOption mode="none" current={request.mode} label="No split" hint="One file of every selected record" onChange={(mode) => change('mode', mode)} />
                <SplitOption mode="train" current={request.mode} label="Train only" hint="One plain file: the API does not split off anything" onChange={(mode) => change('mode', mode)} />
                <SplitOption mode="three" current={request.mode} label="Train, validation and test" hint="A ZIP of three files" onChange={(mode) => change('mode', mode)} />
              </div>
            </fieldset>
            {request.mode !== 'none' ? (
              <div className="ratio-grid" onBlur={() => setRatiosRevealed(true)}>
                <RatioInput name="trainRatio" label="Train ratio" request={request} error={ratioError('trainRatio')} invalid={ratioInvalid} onChange={change} />
                {request.mode === 'three' ? (
                  <>
                    <RatioInput name="valRatio" label="Validation ratio" request={request} error={ratioError('valRatio')} invalid={ratioInvalid} onChange={change} />
                    <RatioInput name="testRatio" label="Test ratio" request={request} error={ratioError('testRatio')} invalid={ratioInvalid} onChange={change} />
                  </>
                ) : null}
              </div>
            ) : null}
            {ratiosRevealed && split.sum ? (
              <p className="field-error ratio-sum" role="alert">
                {split.sum}
              </p>
            ) : null}
            {apiError?.code === 'INVALID_RATIOS' ? (
              <p className="field-error ratio-sum" role="alert">
                {describeError(apiError)} The API said: {apiError.message}.
              </p>
            ) : null}
            {request.mode === 'train' ? (
              <p className="field-hint">A train ratio alone is accepted (and checked) by the API, which answers with one plain file of every selected record.</p>
            ) : null}
            {request.mode === 'three' ? (
              <TextField
                label="Seed"
                name="seed"
                value={request.seed}
                maxLength={SEED_MAX}
                autoComplete="off"
                onChange={(event) => change('seed', event.target.value)}
                hint="Optional. The same seed and filters give the same split every time; another seed shuffles differently."
                error={apiFields.seed}
              />
            ) : null}
          </Card>
        </div>

        <Card title="Download">
          <ExpectedSizes request={request} counts={counts.data?.counts} loading={counts.isPending} error={counts.error} split={split} />
          <RequestPreview query={query} fileName={fileName} refused={!split.ok || !request.format} />
          <ErrorNote error={phase.kind === 'failed' && !(apiError && ['INVALID_RATIOS', 'INVALID_FORMAT'].includes(apiError.code)) ? phase.error : null} />
          <div className="download-row">
            <Button type="submit" variant="primary" busy={running}>
              Download
            </Button>
            {running ? (
              <Button onClick={() => controller.current?.abort()}>Cancel download</Button>
            ) : null}
            <span className="field-hint mono">{fileName}</span>
          </div>
          <DownloadStatus phase={phase} expected={expectedRecords(request, counts.data?.counts)} />
        </Card>
      </form>
    </>
  );
}

function FormatOption({ id, description, checked, onChange }: { id: ExportFormat; description: string; checked: boolean; onChange: () => void }) {
  const descriptionId = useId();
  return (
    <label className={`format-option${checked ? ' checked' : ''}`}>
      <span className="format-head">
        <input type="radio" name="format" value={id} checked={checked} onChange={onChange} aria-label={id} aria-describedby={descriptionId} />
        <span className="format-name mono">{id}</span>
      </span>
      <span id={descriptionId} className="format-description">
        {description}
      </span>
    </label>
  );
}

function SplitOption({ mode, current, label, hint, onChange }: { mode: SplitMode; current: SplitMode; label: string; hint: string; onChange: (mode: SplitMode) => void }) {
  const hintId = useId();
  return (
    <label className={`split-option${mode === current ? ' checked' : ''}`}>
      <input type="radio" name="split" value={mode} checked={mode === current} onChange={() => onChange(mode)} aria-label={label} aria-describedby={hintId} />
      <span>
        {label}
        <span id={hintId} className="split-hint">
          {hint}
        </span>
      </span>
    </label>
  );
}

function RatioInput({
  name,
  label,
  request,
  error,
  invalid,
  onChange,
}: {
  name: RatioField;
  label: string;
  request: ExportRequest;
  error: string | undefined;
  invalid: boolean;
  onChange: (key: 'ratios', value: ExportRequest['ratios']) => void;
}) {
  return (
    <TextField
      label={label}
      name={name}
      inputMode="decimal"
      autoComplete="off"
      value={request.ratios[name]}
      onChange={(event) => onChange('ratios', { ...request.ratios, [name]: event.target.value })}
      error={error}
      {...(invalid && !error ? { 'aria-invalid': true } : {})}
    />
  );
}

function expectedRecords(request: ExportRequest, counts: Record<string, number> | undefined): number | null {
  if (!counts) return null;
  return counts[request.status] ?? null;
}

function ExpectedSizes({
  request,
  counts,
  loading,
  error,
  split,
}: {
  request: ExportRequest;
  counts: Record<string, number> | undefined;
  loading: boolean;
  error: unknown;
  split: ReturnType<typeof checkSplit>;
}) {
  if (error) {
    return (
      <p className="field-hint">
        The matching tasks could not be counted{error instanceof ApiError && error.code === 'VALIDATION_ERROR' ? '.' : `: ${describeError(error)}`}
      </p>
    );
  }
  if (loading || !counts) return <p className="field-hint">Counting the matching tasks…</p>;
  const n = counts[request.status] ?? 0;
  const statusWord = STATUSES.find((s) => s.value === request.status)?.label.toLowerCase() ?? request.status;
  const sizes = request.mode === 'three' && split.ok && split.values ? splitSizes(n, split.values.train, split.values.val) : null;
  return (
    <section aria-label="Expected size" className="expected">
      <p className="expected-line">
        <strong>{formatCount(n)}</strong> {statusWord} task{n === 1 ? '' : 's'} match{n === 1 ? 'es' : ''} these filters
        {n === 0 ? ': the file will be valid but empty.' : '.'}
      </p>
      {sizes ? (
        <div className="stats expected-stats">
          <StatCard label="Train" value={formatCount(sizes.train)} hint="train file" />
          <StatCard label="Validation" value={formatCount(sizes.val)} hint="val file" />
          <StatCard label="Test" value={formatCount(sizes.test)} hint="test file" />
        </div>
      ) : null}
      {request.mode === 'three' && !split.ok ? <p className="field-hint">Fix the ratios to see the size of each file.</p> : null}
    </section>
  );
}

function RequestPreview({ query, fileName, refused }: { query: string; fileName: string; refused: boolean }) {
  const path = `/api/v1/exports${query ? `?${query}` : ''}`;
  const url = `${window.location.origin}${path}`;
  const curl = `curl -fS -H "Authorization: Bearer $CONCORD_TOKEN" -o '${fileName}' '${url}'`;
  return (
    <section className="request" aria-label="API request">
      <p className="request-title">The exact request, to reproduce with curl ($CONCORD_TOKEN: a bearer token from POST /api/v1/auth/login):</p>
      <pre className="request-code mono">GET {path}</pre>
      <pre className="request-code mono">{curl}</pre>
      <div className="request-actions">
        <CopyButton text={url} label="Copy URL" />
        <CopyButton text={curl} label="Copy curl command" />
        {refused ? <span className="field-hint">The API would refuse this request as it stands: see the messages above.</span> : null}
      </div>
    </section>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <Button variant="ghost" onClick={copy}>
        {label}
      </Button>
      <span className="sr-only" role="status">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'The browser refused the clipboard: select the text instead.' : ''}
      </span>
      {state === 'failed' ? <span className="field-hint">Select the text to copy it.</span> : null}
    </>
  );
}

function DownloadStatus({ phase, expected }: { phase: Phase; expected: number | null }) {
  if (phase.kind === 'idle' || phase.kind === 'failed') return null;
  if (phase.kind === 'done') {
    const { result } = phase;
    return (
      <Notice tone="success">
        Saved <span className="mono">{result.fileName}</span>: {formatBytes(result.bytes)}
        {result.records !== null ? `, ${formatCount(result.records)} record${result.records === 1 ? '' : 's'}` : ''}.{' '}
        <a href={result.url} download={result.fileName}>
          Save {result.fileName} again
        </a>
      </Notice>
    );
  }
  if (phase.kind === 'cancelled') {
    return <Notice tone="info">Download cancelled after {formatBytes(phase.progress.bytes)}. Nothing was saved.</Notice>;
  }
  const { progress } = phase;
  const measurable = progress.records !== null && expected !== null && expected > 0;
  let text: ReactNode;
  if (!progress.started) text = 'Waiting for the service to start sending…';
  else {
    const records = progress.records === null ? '' : ` · ${formatCount(progress.records)}${expected !== null ? ` of ${formatCount(expected)}` : ''} records`;
    text = `${formatBytes(progress.bytes)} received${records}`;
  }
  return (
    <div className="download-progress">
      {measurable ? (
        <progress aria-label="Download progress" max={expected ?? 1} value={Math.min(progress.records ?? 0, expected ?? 0)} />
      ) : (
        <progress aria-label="Download progress" />
      )}
      <p className="download-text">
        {text}
      </p>
    </div>
  );
}
