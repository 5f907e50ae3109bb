// The download of an export as a small state machine: idle → running (bytes and records so far) → done,
// cancelled or failed. The last file stays available as a Blob URL for "save again" until the next
// download starts or the page is left, which also stops a running download.
import { useCallback, useEffect, useRef, useState } from 'react';
import { saveBlobUrl } from '../ui/files';
import { downloadExport, type DownloadProgress, type DownloadResult } from './download';
import type { ExportFormat } from '@concord/contract';

export type DownloadPhase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: DownloadProgress }
  | { kind: 'done'; result: DownloadResult }
  | { kind: 'cancelled'; progress: DownloadProgress }
  | { kind: 'failed'; error: unknown };

const NOTHING_YET: DownloadProgress = { bytes: 0, records: null, started: false };

export function useExportDownload() {
  const [phase, setPhase] = useState<DownloadPhase>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const blobUrl = useRef<string | null>(null);

  useEffect(
    () => () => {
      controller.current?.abort();
      if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    },
    [],
  );

  const start = useCallback(async (request: { query: string; format: ExportFormat; split: boolean; fallbackName: string }) => {
    if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    blobUrl.current = null;
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ kind: 'running', progress: NOTHING_YET });
    try {
      const result = await downloadExport({ ...request, signal: abort.signal, onProgress: (progress) => setPhase({ kind: 'running', progress }) });
      blobUrl.current = result.url;
      saveBlobUrl(result.url, result.fileName);
      setPhase({ kind: 'done', result });
    } catch (error) {
      setPhase((current) =>
        abort.signal.aborted ? { kind: 'cancelled', progress: current.kind === 'running' ? current.progress : NOTHING_YET } : { kind: 'failed', error },
      );
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  /** A refusal answered the request as it was; once the form changes, the message no longer applies. */
  const clearFailure = useCallback(() => setPhase((current) => (current.kind === 'failed' ? { kind: 'idle' } : current)), []);

  return { phase, start, cancel, clearFailure };
}
