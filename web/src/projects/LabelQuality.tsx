// The project's label quality in plain words (GET /projects/:id/quality): how often its completed labels
// can be expected to be right, what golden evidence that rests on, how many results were rejected (sent
// back and decided again), and a reliability diagram once there is enough of it.
import { ReliabilityDiagram } from '../ui/Charts';
import { ErrorNote, Loading, Notice } from '../ui/Feedback';
import { formatCents, formatCount, formatPercent } from '../ui/format';
import { rejectedWords } from '../tasks/review';
import type { useProjectQuality } from './queries';

type QualityQuery = ReturnType<typeof useProjectQuality>;

export function LabelQuality({ query }: { query: QualityQuery }) {
  if (query.isPending) return <Loading label="Loading the label quality…" />;
  if (!query.data) return <ErrorNote error={query.error} />;
  const q = query.data;
  const interval = q.expectedAccuracyInterval;
  return (
    <div className="label-quality">
      {q.warnings.map((warning) => (
        <Notice key={warning.code} tone={warning.code === 'NO_COMPLETED_TASKS' ? 'info' : 'warning'}>
          {warning.message}
        </Notice>
      ))}
      <dl className="facts">
        <dt>Expected accuracy</dt>
        <dd>
          {q.expectedAccuracy === null ? (
            'No completed labels yet'
          ) : (
            <>
              About <strong>{formatPercent(q.expectedAccuracy)}</strong> of the {formatCount(q.completed)} completed labels should be right
              {interval ? ` (95 % interval ${formatPercent(interval.low)}–${formatPercent(interval.high)})` : ''}.
            </>
          )}
        </dd>
        <dt>Golden evidence</dt>
        <dd>
          {q.golden.answers === 0
            ? q.golden.tasks === 0
              ? 'No golden tasks: the confidence is the model’s own estimate.'
              : `${formatCount(q.golden.tasks)} golden tasks, not answered yet.`
            : `${formatCount(q.golden.answers)} answers to ${formatCount(q.golden.tasks)} golden tasks, ${formatPercent(q.golden.shareCorrect)} right` +
              (q.golden.interval ? ` (${formatPercent(q.golden.interval.low)}–${formatPercent(q.golden.interval.high)})` : '') +
              '.'}
        </dd>
        <dt>Completed</dt>
        <dd>
          {q.completedShare === null
            ? 'No task decided yet.'
            : `${formatPercent(q.completedShare)} of the decided tasks completed, ${formatPercent(q.failedShare)} failed without consensus (not charged).`}
        </dd>
        <dt>Rejected</dt>
        <dd>{rejectedWords(q)}</dd>
        <dt>Per completed label</dt>
        <dd>
          {q.meanAnswersPerCompleted === null || q.costPerCompletedCents === null
            ? '—'
            : `${q.meanAnswersPerCompleted.toFixed(1)} answers, ${formatCents(Math.round(q.costPerCompletedCents))}`}
        </dd>
      </dl>
      {q.calibration.reliability.length > 0 ? (
        <>
          <ReliabilityDiagram title="Confidence reported against golden answers right" points={q.calibration.reliability} />
          <p className="chart-note">
            Each dot is a band of confidence: across, the confidence the service gave golden tasks it had not learned the map from; up, how often they were
            right. On the dashed line a confidence means what it says.
          </p>
        </>
      ) : (
        <p className="chart-note">The reliability diagram appears once the project’s golden tasks have given enough answers to draw it.</p>
      )}
    </div>
  );
}
