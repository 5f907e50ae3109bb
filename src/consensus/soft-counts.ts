// How the stored counts move between re-fits (one online EM step): when a task is decided, each of its
// answerers' matrix column for their answer gains the task's posterior (soft counts: a 0.96 decision
// moves 0.96 to the agreeing cell and 0.04 elsewhere, so a decision that may be wrong teaches little).
// A golden answer's truth is known, so it moves one whole count. Increments are plain numbers, so the
// wiring can apply them with `UPDATE … SET cell = cell + $n` instead of reading and rewriting a row.
import type { AnnotatorCounts } from './label-model.ts';

/** What one answer adds to its annotator's row: `column[k]` goes to matrix cell (k, answer). */
export interface CountIncrement {
  answer: number;
  /** K numbers for the matrix column `answer`; null for a task on another option set (one-coin only). */
  column: number[] | null;
  correct: number;
  answered: number;
}

/** The increment of an answer on a decided task of the scope's option set, from the task's posterior. */
export function decisionIncrement(posterior: readonly number[], answer: number): CountIncrement {
  return { answer, column: [...posterior], correct: posterior[answer] ?? 0, answered: 1 };
}

/** The increment of an answer on a decided task whose options differ from the scope's (one-coin form). */
export function oneCoinDecisionIncrement(posterior: readonly number[], answer: number): CountIncrement {
  return { answer, column: null, correct: posterior[answer] ?? 0, answered: 1 };
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
