// The project page's charts by answer kind (GET /projects/:id/distribution): how many completed tasks of
// each kind where the project mixes them, each rating scale's levels in the scale's order with the tasks
// decided at each, and each multi-select option's rate among the tasks that offered it. The page shows a
// kind's chart only when the kind has completed tasks.
import { answerKindLabel } from '../tasks/vocabulary';
import { HorizontalBars } from '../ui/Charts';
import { formatCount, formatPercent } from '../ui/format';
import { completedKinds, optionRateWords, scaleBars, scaleMean, scaleWords, type KindCounts, type RatingScale } from './distributionByKind';
import type { ProjectDistribution } from './queries';

/** "Completed by kind: Single choice 120 · Rating 40 · Multi-select 12". */
export function KindMix({ kinds }: { kinds: KindCounts }) {
  const entries = completedKinds(kinds);
  return (
    <section className="kind-mix" aria-label="Completed tasks by answer kind">
      <span className="kind-mix-title">Completed by kind</span>
      <ul>
        {entries.map(({ kind, count }) => (
          <li key={kind}>
            {answerKindLabel(kind)} <strong>{formatCount(count)}</strong>
            {kind === 'text' ? <span className="kind-mix-note"> (each with its review)</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RatingScales({ data }: { data: ProjectDistribution }) {
  const shown = data.ratingScales.reduce((sum, scale) => sum + scale.tasks, 0);
  return (
    <div className="scales">
      {data.ratingScales.map((scale) => (
        <ScaleChart key={scale.levels.join('\u0000')} scale={scale} />
      ))}
      <p className="chart-note">
        Completed rating tasks by the level decided, the scale's lowest level on the left
        {data.ratingScales.length > 1 ? '; one chart per scale, the most used first' : ''}.
        {shown < data.kinds.rating
          ? ` The ${data.ratingScales.length} most used scales hold ${formatCount(shown)} of the ${formatCount(data.kinds.rating)}.`
          : ''}
      </p>
    </div>
  );
}

/** One scale: a column per level, lowest first, its height the level's share of the scale's tasks. */
function ScaleChart({ scale }: { scale: RatingScale }) {
  const bars = scaleBars(scale);
  const highest = Math.max(1, ...bars.map((bar) => bar.count));
  const mean = scaleMean(scale);
  const words = scaleWords(scale.levels);
  return (
    <figure className="scale" aria-label={`Rating scale ${words}: completed tasks by level`}>
      <figcaption className="scale-head">
        <span className="scale-name">{words}</span>
        <span className="scale-meta">
          {formatCount(scale.tasks)} task{scale.tasks === 1 ? '' : 's'}
          {mean !== null ? ` · mean ${mean.toFixed(1)}` : ''}
        </span>
      </figcaption>
      <ol className="scale-bars" style={{ gridTemplateColumns: `repeat(${bars.length}, minmax(0, 1fr))` }}>
        {bars.map((bar) => (
          <li key={bar.level} title={`${bar.level}: ${formatCount(bar.count)} tasks (${formatPercent(bar.share)})`}>
            <span className="sr-only">
              {bar.level}: {formatCount(bar.count)} task{bar.count === 1 ? '' : 's'}, {formatPercent(bar.share)}
            </span>
            <span className="scale-column" aria-hidden="true">
              <span className="scale-count">{formatCount(bar.count)}</span>
              <span className="scale-fill" style={{ height: `${(bar.count / highest) * 100}%` }} />
            </span>
            <span className="scale-level" aria-hidden="true">
              {bar.level}
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}

export function MultiOptions({ data }: { data: ProjectDistribution }) {
  return (
    <>
      <HorizontalBars
        title="Share of the completed multi-select tasks holding each option"
        max={1}
        data={data.multiOptions.map((option) => ({ label: option.option, value: option.rate, text: optionRateWords(option, data.kinds.multi) }))}
      />
      <p className="chart-note">
        Each option's share of the {formatCount(data.kinds.multi)} completed multi-select task{data.kinds.multi === 1 ? '' : 's'} that offered it, the most
        chosen first; a task may hold several options.
      </p>
    </>
  );
}
