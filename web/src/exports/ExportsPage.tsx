// Exports: choose a format, filter the tasks, optionally split them into train/validation/test files
// (the ratios checked exactly as the API checks them), see how many records each file will hold and the
// exact request, then download: the response is streamed with a progress indicator and saved under the
// name the API gives. First values come from the URL (links.ts: /exports?projectId=… from a project's page).
import { EXPORT_SEED_MAX_LENGTH } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../api/errors';
import { plainFieldErrors } from '../api/fieldErrors';
import { useProjectChoices } from '../projects/queries';
import { useTaskCounts } from '../tasks/queries';
import { isLocale, isTaskType } from '../tasks/vocabulary';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { DownloadStatus } from './DownloadStatus';
import { ExpectedSizes, expectedRecords } from './ExpectedSizes';
import { ExportFilters } from './ExportFilters';
import type { ExportFormat } from '@concord/contract';
import { checkSplit, expectedFileName, exportQuery, requestFromUrl, takesTies, type ExportRequest } from './exportRequest';
import { FormatPicker, IncludeTies } from './FormatPicker';
import { RequestPreview } from './RequestPreview';
import { SplitSettings } from './SplitSettings';
import { useExportDownload } from './useExportDownload';
import './exports.css';
import { focusFirstInvalid } from '../ui/Field';

export function ExportsPage() {
  const [params] = useSearchParams();
  // The URL only gives first values: a new one (a link followed from this page) starts a fresh form.
  return <ExportForm key={params.toString()} params={params} />;
}

function ExportForm({ params }: { params: URLSearchParams }) {
  const [initial] = useState(() => requestFromUrl(params));
  const [request, setRequest] = useState<ExportRequest>(initial.request);
  const [formatMissing, setFormatMissing] = useState(initial.formatProblem);
  const [ratiosRevealed, setRatiosRevealed] = useState(initial.request.mode !== 'none');
  const download = useExportDownload();
  const projects = useProjectChoices();
  // Counted as an export holds them: a review task is never exported (its text task carries the result).
  const counts = useTaskCounts(
    {
      projectId: request.projectId || undefined,
      type: isTaskType(request.type) ? request.type : undefined,
      locale: isLocale(request.locale) ? request.locale : undefined,
    },
    { exported: true },
  );

  const change = <K extends keyof ExportRequest>(key: K, value: ExportRequest[K]) => {
    setRequest((current) => ({ ...current, [key]: value }));
    download.clearFailure();
  };
  const { phase } = download;
  const split = checkSplit(request.mode, request.ratios);
  const query = exportQuery(request);
  const fileName = expectedFileName(request.format, request.mode);
  const apiError = phase.kind === 'failed' && phase.error instanceof ApiError ? phase.error : null;
  const apiFields = plainFieldErrors(apiError);
  const running = phase.kind === 'running';
  const shownByFields = apiError !== null && ['INVALID_RATIOS', 'INVALID_FORMAT'].includes(apiError.code);

  const start = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // Each try starts clean: the last refusal says nothing about this one.
    download.clearFailure();
    setRatiosRevealed(true);
    setFormatMissing(!request.format);
    if (!request.format || !split.ok || request.seed.length > EXPORT_SEED_MAX_LENGTH || running) {
      focusFirstInvalid(form);
      return;
    }
    void download.start({ query, format: request.format as ExportFormat, split: request.mode === 'three', fallbackName: fileName });
  };

  return (
    <>
      <PageHeader
        title="Exports"
        description="Download your results as a training dataset: choose a format, filter the tasks and, if you want, split them into train, validation and test files. Golden tasks are never exported, nor the reviews of written answers: a written answer's record holds the text its review chose."
      />
      <form onSubmit={start} noValidate aria-label="Export">
        <Card title="Format">
          <FormatPicker
            value={request.format}
            missing={formatMissing}
            apiError={apiError}
            onChange={(format) => {
              change('format', format);
              setFormatMissing(false);
            }}
          />
          {takesTies(request.format) ? <IncludeTies checked={request.includeTies} onChange={(checked) => change('includeTies', checked)} /> : null}
        </Card>
        <div className="grid-2 export-grid">
          <Card title="Filters">
            <ExportFilters request={request} projects={projects.data} onChange={change} apiFields={apiFields} />
          </Card>
          <Card title="Split">
            {initial.trainRatioAlone ? (
              <Notice>The link asked for a train ratio alone. The API answers that with the same single file as no split, so the ratio is left out.</Notice>
            ) : null}
            <SplitSettings
              request={request}
              split={split}
              revealed={ratiosRevealed}
              onReveal={() => setRatiosRevealed(true)}
              onChange={change}
              apiError={apiError}
              apiFields={apiFields}
            />
          </Card>
        </div>
        <Card title="Download">
          <ExpectedSizes request={request} counts={counts.data?.counts} loading={counts.isPending} error={counts.error} split={split} />
          <RequestPreview query={query} fileName={fileName} refused={!split.ok || !request.format} />
          <ErrorNote error={phase.kind === 'failed' && !shownByFields ? phase.error : null} />
          <div className="download-row">
            <Button type="submit" variant="primary" busy={running}>
              Download
            </Button>
            {running ? <Button onClick={download.cancel}>Cancel download</Button> : null}
            <span className="field-hint mono">{fileName}</span>
          </div>
          <DownloadStatus phase={phase} expected={expectedRecords(request, counts.data?.counts)} />
        </Card>
      </form>
    </>
  );
}
