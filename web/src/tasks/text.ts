// How a text task (a written answer) and its review read on the pages: the written answers numbered as
// the review numbers them (its options "Answer 1", "Answer 2", … in the order they were written), the one
// the review chose, the state of the writing before the review opens, and the price of the two stages.
import { kindPriceCents } from '@concord/contract';
import { formatCents } from '../ui/format';

const REVIEW_OPTION = /^Answer (\d+)$/;

/** A review task's option or result ("Answer 2") as the number of the written answer it names (2); null otherwise. */
export function reviewAnswerNumber(option: string | null | undefined): number | null {
  const match = REVIEW_OPTION.exec(option ?? '');
  return match ? Number(match[1]) : null;
}

export interface WrittenAnswer {
  /** 1 for the first written: the review's "Answer 1". */
  number: number;
  text: string;
  timeSpentMs: number;
  chosen: boolean;
}

/**
 * A text task's written answers in the order they arrived, numbered as its review's options. The chosen
 * one is the one the review's result names when it is known ("Answer 2"); else the first whose text is the
 * task's result (two annotators may have written the same text: either is the result).
 */
export function writtenAnswers(
  task: { responses: readonly { answer: string; timeSpentMs: number }[]; result: string | null },
  reviewResult?: string | null,
): WrittenAnswer[] {
  const named = reviewAnswerNumber(reviewResult);
  const chosen = named ?? (task.result === null ? 0 : task.responses.findIndex((response) => response.answer === task.result) + 1);
  return task.responses.map((response, index) => ({
    number: index + 1,
    text: response.answer,
    timeSpentMs: response.timeSpentMs,
    chosen: task.result !== null && index + 1 === chosen,
  }));
}

/** What a text task costs, stage by stage: "$0.40: $0.20 for the writing, $0.20 for its review". */
export function textPriceWords(priceCents: number): string {
  return `${formatCents(kindPriceCents('text', priceCents))}: ${formatCents(priceCents)} for the writing, ${formatCents(priceCents)} for its review`;
}

/** Before the review opens: "Review opens once 3 answers are written (1 so far)." */
export function reviewOpensWords(written: number, needed: number): string {
  const sofar = written === 0 ? 'none yet' : `${written} so far`;
  return `Review opens once ${needed} ${needed === 1 ? 'answer is' : 'answers are'} written (${sofar}).`;
}

/**
 * Where a text task stands, in the few words of a list row: "2 written" while annotators write, "3 written ·
 * in review" once its review is open, "3 written · best chosen" or "3 written · no agreement" once decided.
 */
export function textTaskState(task: { status: string; totalResponses: number; reviewTaskId?: string | null | undefined }): string {
  const written = `${task.totalResponses} written`;
  if (task.status === 'COMPLETED') return `${written} · best chosen`;
  if (task.status === 'FAILED') return `${written} · no agreement`;
  return task.reviewTaskId ? `${written} · in review` : written;
}
