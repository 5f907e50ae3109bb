// How many records the export will hold (GET /tasks/counts under the same filters), and with a split,
// how many each file will hold, computed as the service cuts them.
import { ApiError, describeError } from '../api/errors';
import type { TaskCounts } from '../tasks/queries';
import { statusLabel } from '../tasks/vocabulary';
import { StatCard } from '../ui/Charts';
import { formatCount } from '../ui/format';
import { splitSizes } from '@concord/contract';
import type { checkSplit, ExportRequest } from './exportRequest';

interface ExpectedSizesProps {
  request: ExportRequest;
  counts: TaskCounts['counts'] | undefined;
  loading: boolean;
  error: unknown;
  split: ReturnType<typeof checkSplit>;
}

/** The records an export of this request holds, when the counts are known. */
export function expectedRecords(request: ExportRequest, counts: Record<string, number> | undefined): number | null {
  if (!counts) return null;
  return counts[request.status] ?? null;
}

export function ExpectedSizes({ request, counts, loading, error, split }: ExpectedSizesProps) {
  if (error) {
    return (
      <p className="field-hint">
        The matching tasks could not be counted{error instanceof ApiError && error.code === 'VALIDATION_ERROR' ? '.' : `: ${describeError(error)}`}
      </p>
    );
  }
  if (loading || !counts) return <p className="field-hint">Counting the matching tasks…</p>;
  const n = expectedRecords(request, counts) ?? 0;
  const statusWord = statusLabel(request.status).toLowerCase();
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
