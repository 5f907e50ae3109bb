// Where a download stands: bytes and records received (against the expected count when it is known),
// what was saved (a split's records per file and its empty files, as the service reported them), or that
// it was cancelled.
import type { ReactNode } from 'react';
import { Notice } from '../ui/Feedback';
import { formatBytes } from '../ui/files';
import { formatCount } from '../ui/format';
import type { DownloadPhase } from './useExportDownload';

export function DownloadStatus({ phase, expected }: { phase: DownloadPhase; expected: number | null }) {
  if (phase.kind === 'idle' || phase.kind === 'failed') return null;
  if (phase.kind === 'done') {
    const { result } = phase;
    return (
      <Notice tone={result.emptyParts ? 'warning' : 'success'}>
        Saved <span className="mono">{result.fileName}</span>: {formatBytes(result.bytes)}
        {result.records !== null ? `, ${formatCount(result.records)} record${result.records === 1 ? '' : 's'}` : ''}
        {result.splitParts ? ` (${result.splitParts})` : ''}. {result.emptyParts ? `Empty in this ZIP: ${result.emptyParts}. ` : ''}
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
      <p className="download-text">{text}</p>
    </div>
  );
}
