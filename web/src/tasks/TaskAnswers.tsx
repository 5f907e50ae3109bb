// The answers a task received: each option with how many chose it (the result marked), and the answers
// in arrival order with the time spent (the API never names annotators); a pairwise answer with the order
// its annotator saw the candidates in; a review task's options with the start of the written answer each
// names.
import { ScrollArea } from '../ui/ScrollArea';
import { pairResultWords, pairTally, shownAnswerWords } from './pairwise';
import { useTask } from './queries';
import { excerpt, formatAnswer, formatDuration, setChoices } from './taskFormat';
import { reviewAnswerNumber } from './text';
import type { Task } from './vocabulary';

export function OptionsTally({ task }: { task: Task }) {
  // Per option, the answers that chose it (a multi-select answer chooses each of its options).
  const multi = task.answerKind === 'multi';
  const counts = new Map<string, number>();
  for (const response of task.responses) {
    for (const option of multi ? setChoices(response.answer) : [response.answer]) counts.set(option, (counts.get(option) ?? 0) + 1);
  }
  const inResult = (option: string) => (multi ? (task.choices ?? []).includes(option) : task.result === option);
  const pairwise = task.answerKind === 'pairwise';
  // A review's options are its text task's written answers by number ("Answer 2"): the start of each is said under it.
  const written = useTask(task.reviewOf ?? null).data?.responses;
  const writtenText = (option: string) => written?.[(reviewAnswerNumber(option) ?? 0) - 1]?.answer;
  return (
    <section aria-labelledby="task-options-heading" className="task-section">
      <h3 id="task-options-heading">{pairwise ? 'Answers per candidate' : 'Options'}</h3>
      <ul className="task-options">
        {task.options.map((option) => {
          const count = counts.get(option) ?? 0;
          const share = task.responses.length ? count / task.responses.length : 0;
          const isResult = inResult(option);
          return (
            <li key={option} className={isResult ? 'is-result' : undefined}>
              <span className="task-option-label" title={writtenText(option)}>
                {pairwise ? pairResultWords(option) : option}
                {isResult ? <span className="badge badge-success">Result</span> : null}
                {writtenText(option) !== undefined ? <span className="task-option-text">“{excerpt(writtenText(option) ?? '', 70)}”</span> : null}
              </span>
              <span className="task-option-bar" aria-hidden="true">
                <span style={{ width: `${share * 100}%` }} />
              </span>
              <span className="task-option-count">
                {count} {count === 1 ? 'answer' : 'answers'}
              </span>
            </li>
          );
        })}
      </ul>
      {pairwise ? <ShownFirstNote task={task} /> : null}
    </section>
  );
}

/** How many picks went to the candidate shown first: the service shows each pair in a random order, so about half should. */
function ShownFirstNote({ task }: { task: Task }) {
  const { picked, pickedFirst } = pairTally(task.responses);
  if (picked === 0) return null;
  return (
    <p className="task-muted task-pair-note">
      {pickedFirst} of {picked} {picked === 1 ? 'pick' : 'picks'} went to the candidate shown first. Each annotator saw the pair in a random order; the model
      allows for annotators who lean to one side.
    </p>
  );
}

export function Responses({ task }: { task: Task }) {
  return (
    <section aria-labelledby="task-answers-heading" className="task-section">
      <h3 id="task-answers-heading">Answers received</h3>
      {task.responses.length === 0 ? (
        <p className="task-muted">
          {task.held ? 'No answers: annotators are not served a held task.' : 'No answers yet. Annotators receive the oldest open tasks first.'}
        </p>
      ) : (
        <ScrollArea label="Answers received">
          <table>
            <caption className="sr-only">Answers in the order they arrived</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">Answer</th>
                <th scope="col" className="num">
                  Time spent
                </th>
              </tr>
            </thead>
            <tbody>
              {task.responses.map((response, index) => (
                <tr key={index}>
                  <td className="num">{index + 1}</td>
                  <td>
                    {task.answerKind === 'pairwise'
                      ? shownAnswerWords(response.answer, response.shownOrder)
                      : formatAnswer(response.answer, task.answerKind === 'multi')}
                  </td>
                  <td className="num">{formatDuration(response.timeSpentMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </section>
  );
}
