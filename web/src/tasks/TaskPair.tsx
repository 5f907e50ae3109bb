// A pairwise task's two candidates side by side in the drawer (stacked where the drawer is narrow): the
// better one marked with the result's confidence, or both on a tie. The answers each received are counted
// below them (OptionsTally).
import { formatConfidence } from './taskFormat';
import type { Task } from './vocabulary';

const SIDES = ['A', 'B'] as const;

export function PairCandidates({ task }: { task: Task }) {
  const candidates = task.candidates;
  if (!candidates) return null;
  const tie = task.result === 'tie';
  return (
    <section aria-labelledby="task-candidates-heading" className="task-section">
      <h3 id="task-candidates-heading">Candidates</h3>
      <div className="task-pair">
        {SIDES.map((side) => {
          const better = task.result === side;
          return (
            <article key={side} className={`task-candidate${better ? ' is-better' : ''}${tie ? ' is-tie' : ''}`} aria-labelledby={`task-candidate-${side}`}>
              <header className="task-candidate-head">
                <h4 id={`task-candidate-${side}`}>Candidate {side}</h4>
                {better ? <span className="badge badge-success">Better · {formatConfidence(task.confidence)}</span> : null}
                {tie ? <span className="badge badge-neutral">Tie · {formatConfidence(task.confidence)}</span> : null}
              </header>
              <pre className="task-content task-candidate-text">{candidates[side]}</pre>
            </article>
          );
        })}
      </div>
    </section>
  );
}
