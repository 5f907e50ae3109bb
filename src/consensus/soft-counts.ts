// How the stored counts move between re-fits. When a task COMPLETES, each of its answerers' matrix gains
// one whole count in cell (result, answer): the decided result is taken as the truth, as a golden answer's
// known truth is. A FAILED task moves nothing: its truth is what the model could not settle, and the
// re-fit, which reads every answer, learns from it. Why not the posterior ("soft counts", one online EM
// step)? The stop rule ends a task as soon as its posterior reaches the target, so every decision left
// (1 − target) of each answer on the other rows — and in a skewed scope those rows hold almost nothing
// else: in bench:answers (one option true for nearly every task) a "positive" answer's matrix row for
// "negative" filled with that leak within half a minute, "positive" answers stopped counting as evidence,
// and 44 % of the tasks FAILED at maxResponses with 85 % of answers agreeing (bench/README.md).
// Increments are plain numbers, so the wiring applies them with `UPDATE … SET cell = cell + $n`.
import type { AnnotatorCounts } from './label-model.ts';

/** What one answer adds to its annotator's row: `column[k]` goes to matrix cell (k, answer). */
export interface CountIncrement {
  answer: number;
  /** K numbers for the matrix column `answer`; null for a task on another option set (one-coin only). */
  column: number[] | null;
  correct: number;
  answered: number;
}

/** The increment of an answer on a completed task of the scope's option set: one count in (result, answer). */
export function decisionIncrement(optionCount: number, result: number, answer: number): CountIncrement {
  return goldenIncrement(optionCount, result, answer);
}

/** The increment of an answer on a completed task whose options differ from the scope's (one-coin form). */
export function oneCoinDecisionIncrement(result: number, answer: number): CountIncrement {
  return oneCoinGoldenIncrement(result, answer);
}

/** The increment of a golden answer on the scope's option set: one whole count in cell (truth, answer). */
export function goldenIncrement(optionCount: number, truth: number, answer: number): CountIncrement {
  const column = new Array<number>(optionCount).fill(0);
  column[truth] = 1;
  return { answer, column, correct: truth === answer ? 1 : 0, answered: 1 };
}

/** The counts after an increment (a new object; the input is left as it was). */
export function applyIncrement(counts: AnnotatorCounts, increment: CountIncrement): AnnotatorCounts {
  const matrix = Array.from(counts.matrix);
  const optionCount = Math.round(Math.sqrt(matrix.length));
  increment.column?.forEach((value, k) => {
    const cell = k * optionCount + increment.answer;
    matrix[cell] = (matrix[cell] ?? 0) + value;
  });
  return { matrix, correct: counts.correct + increment.correct, answered: counts.answered + increment.answered };
}

/** The increment of a golden answer on a task whose options differ from the scope's (one-coin form). */
export function oneCoinGoldenIncrement(truth: number, answer: number): CountIncrement {
  return { answer, column: null, correct: truth === answer ? 1 : 0, answered: 1 };
}
