// How many records the export will hold (GET /tasks/counts?exported=true under the same filters: the
// tasks an export can hold, the reviews of written answers left out), and with a split,
// how many each file will hold, computed as the service cuts them, with a warning before the download
// when a file would come out empty.
import { ApiError, describeError } from '../api/errors';
import type { TaskCounts } from '../tasks/queries';
import { statusLabel } from '../tasks/vocabulary';
import { StatCard } from '../ui/Charts';
import { formatCount } from '../ui/format';
import type { checkSplit, ExportRequest } from './exportRequest';
import { forecastSplit, type SplitPart } from './splitWarning';

interface ExpectedSizesProps {
  request: ExportRequest;
  counts: TaskCounts['counts'] | undefined;
  loading: boolean;
  error: unknown;
  split: ReturnType<typeof checkSplit>;
}

/**
 * The records an export of this request holds, when the counts are known. A preference file holds only
 * the decided pairwise tasks among them, which the counts do not tell apart: unknown.
 */
export function expectedRecords(request: ExportRequest, counts: Record<string, number> | undefined): number | null {
  if (!counts || request.format === 'preference') return null;
  return counts[request.status] ?? null;
}

/** The tasks of the request's status under its filters (every record of any format but preference). */
const matchingTasks = (request: ExportRequest, counts: Record<string, number>): number => counts[request.status] ?? 0;

export function ExpectedSizes({ request, counts, loading, error, split }: ExpectedSizesProps) {
  if (error) {
    return (
      <p className="field-hint">
        The matching tasks could not be counted{error instanceof ApiError && error.code === 'VALIDATION_ERROR' ? '.' : `: ${describeError(error)}`}
      </p>
    );
  }
  if (loading || !counts) return <p className="field-hint">Counting the matching tasks…</p>;
  const n = matchingTasks(request, counts);
  const statusWord = statusLabel(request.status).toLowerCase();
  // A preference file's records are a part of these tasks, so the size of each split file cannot be told.
  const pairsOnly = request.format === 'preference';
  const forecast = request.mode === 'three' && split.ok && split.values && !pairsOnly ? forecastSplit(n, split.values) : null;
  const part = (name: SplitPart, label: string) =>
    forecast ? (
      <StatCard
        label={label}
        value={formatCount(forecast.sizes[name])}
        hint={forecast.warning && forecast.sizes[name] === 0 ? `${name} file: empty` : `${name} file`}
        {...(forecast.warning && forecast.sizes[name] === 0 ? { tone: 'warning' as const } : {})}
      />
    ) : null;
  return (
    <section aria-label="Expected size" className="expected">
      <p className="expected-line">
        <strong>{formatCount(n)}</strong> {statusWord} task{n === 1 ? '' : 's'} match{n === 1 ? 'es' : ''} these filters
        {n === 0 ? ': the file will be valid but empty.' : '.'}
        {pairsOnly && n > 0
          ? ` The preference file holds only the decided pairwise tasks among them${request.includeTies ? '' : ', ties left out'}, so it may hold fewer records.`
          : null}
      </p>
      {forecast ? (
        <div className="stats expected-stats">
          {part('train', 'Train')}
          {part('val', 'Validation')}
          {part('test', 'Test')}
        </div>
      ) : null}
      {forecast?.warning ? (
        // A status, not an alert: it is worked out again at each keystroke in a ratio.
        <p className="notice notice-warning split-empty" role="status">
          <strong>{forecast.warning}.</strong> The ZIP will still hold an empty {forecast.empty.join(' and ')} file. Change the ratios, or export more tasks, to
          give every file a record.
        </p>
      ) : null}
      {request.mode === 'three' && !split.ok ? <p className="field-hint">Fix the ratios to see the size of each file.</p> : null}
    </section>
  );
}
