// The CSV upload's progress: bytes sent as XMLHttpRequest reports them, then the service at work.
import { useId } from 'react';
import { formatBytes } from '../ui/files';
import type { UploadProgress } from './queries';

export function UploadProgressBar({ progress, done }: { progress: UploadProgress; done: boolean }) {
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
