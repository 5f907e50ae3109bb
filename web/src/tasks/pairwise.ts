// How a pairwise task reads on the pages: its result and answers in words ("B is better"), the order each
// annotator saw the two candidates in, and the answers counted per candidate and per side shown.
import type { PairAnswer } from '@concord/contract';

/** The order an assignment showed the candidates in (BA: B first), as GET /tasks/:id gives it per answer. */
export type ShownOrder = 'AB' | 'BA';

const PAIR_WORDS: Record<PairAnswer, string> = { A: 'A is better', B: 'B is better', tie: 'Tie' };

const isPairAnswer = (value: string): value is PairAnswer => Object.hasOwn(PAIR_WORDS, value);

/** A pairwise result or answer (A, B, tie) in words: "A is better", "B is better", "Tie"; nothing yet as "—". */
export function pairResultWords(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return isPairAnswer(value) ? PAIR_WORDS[value] : value;
}

/** Where the candidate an answer names was shown to its annotator: "first" or "second"; null for a tie or an unknown order. */
export function shownPosition(answer: string, order: ShownOrder | undefined): 'first' | 'second' | null {
  if (order === undefined || (answer !== 'A' && answer !== 'B')) return null;
  return (answer === 'A') === (order === 'AB') ? 'first' : 'second';
}

/** An answer with the order its annotator saw: "B (shown second)", "Tie (B shown first)"; the answer alone without an order. */
export function shownAnswerWords(answer: string, order: ShownOrder | undefined): string {
  if (order === undefined) return answer === 'tie' ? 'Tie' : answer;
  if (answer === 'tie') return `Tie (${order[0] ?? 'A'} shown first)`;
  const position = shownPosition(answer, order);
  return position ? `${answer} (shown ${position})` : answer;
}

export interface PairTally {
  A: number;
  B: number;
  tie: number;
  /** Answers that picked a candidate (not a tie) with a known order… */
  picked: number;
  /** …and of them, those that picked the candidate shown first. */
  pickedFirst: number;
}

/** The answers counted per candidate (and ties), and how many picks went to the candidate shown first. */
export function pairTally(responses: readonly { answer: string; shownOrder?: ShownOrder | undefined }[]): PairTally {
  const tally: PairTally = { A: 0, B: 0, tie: 0, picked: 0, pickedFirst: 0 };
  for (const { answer, shownOrder } of responses) {
    if (isPairAnswer(answer)) tally[answer] += 1;
    const position = shownPosition(answer, shownOrder);
    if (position === null) continue;
    tally.picked += 1;
    if (position === 'first') tally.pickedFirst += 1;
  }
  return tally;
}
