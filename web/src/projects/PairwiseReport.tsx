// A project's pairwise comparisons (GET /projects/:id/pairwise): per group, its candidates ranked and a
// win-rate heat map (rows beat columns; candidate texts cut short, whole on hover), then the project's
// pairwise annotators — anonymous — with their reliability and measured position bias.
import { excerpt } from '../tasks/taskFormat';
import { StatCard } from '../ui/Charts';
import { ScrollArea } from '../ui/ScrollArea';
import { formatCount, formatPercent } from '../ui/format';
import {
  BIAS_THRESHOLD,
  biasLean,
  biasWords,
  formatSigned,
  heatColor,
  summariseBias,
  winRateText,
  type PairAnnotator,
  type PairGroup,
  type ProjectPairwise,
} from './pairwiseReport';

/** Annotators listed by name-less number, the most answers first. */
const LISTED_ANNOTATORS = 8;

export function PairwiseReport({ report }: { report: ProjectPairwise }) {
  return (
    <div className="pairwise">
      {report.groups.length > 0 ? (
        <>
          <p className="chart-note pairwise-intro">
            Each group's candidates ranked by every decided pair of the group (Bradley–Terry, each pair weighted by its confidence), the most compared groups
            first. In the matrix, a cell is how often the row's candidate beat the column's, a tie counting half.
          </p>
          {report.groups.map((group, index) => (
            <PairGroupReport key={group.group} group={group} open={index === 0} />
          ))}
        </>
      ) : (
        <p className="chart-note">No group yet: pairwise tasks without a group are decided one by one and not ranked.</p>
      )}
      {report.annotators.length > 0 ? <PositionBias annotators={report.annotators} /> : null}
    </div>
  );
}

function PairGroupReport({ group, open }: { group: PairGroup; open: boolean }) {
  const best = group.ranking[0];
  return (
    <details className="pair-group" open={open}>
      <summary>
        <span className="pair-group-name">{group.group}</span>
        <span className="pair-group-meta">
          {formatCount(group.pairs)} decided {group.pairs === 1 ? 'pair' : 'pairs'} · {group.ranking.length} candidates
          {best ? <> · best: “{excerpt(best.candidate, 60)}”</> : null}
        </span>
      </summary>
      <div className="pair-group-body">
        <Ranking group={group} />
        <WinRateMatrix group={group} />
      </div>
    </details>
  );
}

function Ranking({ group }: { group: PairGroup }) {
  const shared = (rank: number) => group.ranking.filter((entry) => entry.rank === rank).length > 1;
  return (
    <section aria-label={`Ranking of ${group.group}`} className="pair-ranking">
      <h4>Ranking</h4>
      <ol>
        {group.ranking.map((entry, index) => (
          <li key={entry.candidate}>
            <span className="pair-number" aria-hidden="true">
              #{index + 1}
            </span>
            <span className="pair-candidate" title={entry.candidate}>
              {excerpt(entry.candidate, 140)}
            </span>
            <span className="pair-score">
              score {formatSigned(entry.score)}
              {shared(entry.rank) ? ` · rank ${entry.rank}, shared` : ''}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function WinRateMatrix({ group }: { group: PairGroup }) {
  const { ranking, winRate } = group;
  return (
    <section aria-label={`Win rates of ${group.group}`} className="pair-matrix">
      <h4>Win rate: row beats column</h4>
      <ScrollArea label={`Win rates of ${group.group}`}>
        <table className="winrate">
          <caption className="sr-only">How often each row's candidate beat each column's in their decided pairs, a tie counting half</caption>
          <thead>
            <tr>
              <th scope="col">Candidate</th>
              {ranking.map((entry, j) => (
                <th key={entry.candidate} scope="col" className="winrate-col" title={entry.candidate}>
                  #{j + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ranking.map((row, i) => (
              <tr key={row.candidate}>
                <th scope="row" className="winrate-row" title={row.candidate}>
                  <span className="pair-number">#{i + 1}</span> {excerpt(row.candidate, 32)}
                </th>
                {ranking.map((column, j) => {
                  const share = winRate[i]?.[j] ?? null;
                  const colour = heatColor(share);
                  return (
                    <td
                      key={column.candidate}
                      className={`winrate-cell${i === j ? ' is-self' : ''}`}
                      style={colour ? { background: colour } : undefined}
                      title={
                        i === j
                          ? undefined
                          : share === null
                            ? `#${i + 1} and #${j + 1} were never compared`
                            : `#${i + 1} beat #${j + 1} in ${winRateText(share)} of their decided pairs`
                      }
                    >
                      {i === j ? <span className="sr-only">itself</span> : winRateText(share)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
    </section>
  );
}

function PositionBias({ annotators }: { annotators: PairAnnotator[] }) {
  const summary = summariseBias(annotators);
  const leaning = summary.leanFirst + summary.leanSecond;
  const threshold = BIAS_THRESHOLD.toFixed(1);
  return (
    <section aria-labelledby="pair-bias-heading" className="pair-bias">
      <h3 id="pair-bias-heading">Annotators and position bias</h3>
      <p className="chart-note pairwise-intro">
        Each annotator sees every pair in a random order; the model measures how much more often they pick the candidate shown first (positive) or second
        (negative) than the truth would have them, and allows for it.
      </p>
      <div className="stats pair-bias-stats">
        <StatCard label="Annotators" value={formatCount(summary.annotators)} hint="Answered the project's pairwise tasks" />
        <StatCard
          label={`Leaning beyond ±${threshold}`}
          value={formatCount(leaning)}
          hint={`${formatCount(summary.leanFirst)} to the first shown, ${formatCount(summary.leanSecond)} to the second`}
          {...(leaning > 0 ? { tone: 'warning' as const } : {})}
        />
        <StatCard label="Not measured yet" value={formatCount(summary.annotators - summary.measured)} hint="Have not seen both orders yet" />
      </div>
      <ScrollArea label="Pairwise annotators">
        <table className="pair-annotators">
          <caption className="sr-only">The project's pairwise annotators, anonymous, the most answers first</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="pair-annotator-word">Annotator</span>
                <span className="pair-phone-only">#</span>
              </th>
              <th scope="col" className="num">
                Answers
              </th>
              <th scope="col" className="num">
                Reliability
              </th>
              <th scope="col">Position bias</th>
            </tr>
          </thead>
          <tbody>
            {annotators.slice(0, LISTED_ANNOTATORS).map((annotator, index) => (
              <tr key={index}>
                <td>
                  <span className="pair-annotator-word">Annotator </span>
                  {index + 1}
                </td>
                <td className="num">{formatCount(Math.round(annotator.answers))}</td>
                <td className="num">{formatPercent(annotator.reliability)}</td>
                <td>
                  <span className="pair-bias-cell">
                    <BiasBar bias={annotator.positionBias} />
                    <span
                      className={annotator.positionBias !== null && Math.abs(annotator.positionBias) > BIAS_THRESHOLD ? 'pair-bias-lean' : undefined}
                      title={biasWords(annotator.positionBias)}
                    >
                      {annotator.positionBias === null ? (
                        'Not measured yet'
                      ) : (
                        <>
                          {formatSigned(annotator.positionBias)}
                          {/* A phone keeps the figure; the intro says what its sign means. */}
                          <span className="pair-bias-words">: {biasLean(annotator.positionBias)}</span>
                        </>
                      )}
                    </span>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
      {annotators.length > LISTED_ANNOTATORS ? (
        <p className="chart-note">
          The {LISTED_ANNOTATORS} with the most answers of {formatCount(annotators.length)}
          {annotators.length >= 100 ? ' (the report lists at most 100)' : ''}.
        </p>
      ) : null}
    </section>
  );
}

/** A bias from −1 to 1 drawn from the middle: right for the first shown, left for the second. */
function BiasBar({ bias }: { bias: number | null }) {
  const b = bias ?? 0;
  const left = b >= 0 ? 50 : 50 + b * 50;
  return (
    <span className="bias-bar" aria-hidden="true">
      {bias !== null ? (
        <span className={Math.abs(b) > BIAS_THRESHOLD ? 'is-lean' : undefined} style={{ left: `${left}%`, width: `${Math.abs(b) * 50}%` }} />
      ) : null}
    </span>
  );
}
