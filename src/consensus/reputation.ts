// Annotator reliability and levels (CONTRACT §5), pure functions of an annotator's counters.

export interface AnnotatorStats {
  goldenAnswered: number;
  goldenCorrect: number;
  /** Answers on tasks that COMPLETED. */
  resolvedResponses: number;
  /** Of those, the answers equal to the result. */
  agreedResponses: number;
}

export type Level = 'NOVICE' | 'BRONZE' | 'SILVER' | 'GOLD';

export const NEW_ANNOTATOR_RELIABILITY = 0.7;
const RELIABILITY_CAP = 0.99;

/**
 * reliability = (goldenCorrect + 0.5·agreed + 7) / (goldenAnswered + 0.5·resolved + 10), capped at
 * 0.99: a prior of 7 correct out of 10 (a new annotator is 0.7), golden answers counting fully and
 * agreement with consensus counting half.
 */
export function reliability(stats: AnnotatorStats): number {
  const value = (stats.goldenCorrect + 0.5 * stats.agreedResponses + 7) / (stats.goldenAnswered + 0.5 * stats.resolvedResponses + 10);
  return Math.min(RELIABILITY_CAP, value);
}

const LEVELS: ReadonlyArray<{ level: Level; resolved: number; reliability: number }> = [
  { level: 'GOLD', resolved: 500, reliability: 0.92 },
  { level: 'SILVER', resolved: 100, reliability: 0.85 },
  { level: 'BRONZE', resolved: 20, reliability: 0.75 },
];

export function level(stats: AnnotatorStats): Level {
  const r = reliability(stats);
  return LEVELS.find((rule) => stats.resolvedResponses >= rule.resolved && r >= rule.reliability)?.level ?? 'NOVICE';
}

/** contract: suspended once 10 golden answers (since the last reinstatement) are less than half right. */
export const SUSPENSION_MIN_GOLDEN = 10;
export const SUSPENSION_ACCURACY = 0.5;

export function shouldSuspend(goldenAnsweredSince: number, goldenCorrectSince: number): boolean {
  return goldenAnsweredSince >= SUSPENSION_MIN_GOLDEN && goldenCorrectSince / goldenAnsweredSince < SUSPENSION_ACCURACY;
}

/** Splits the annotators' pool of a completed task equally, in whole cents rounded down. */
export function earningPerAgreeingAnswer(costCents: number, share: number, agreeing: number): number {
  if (agreeing <= 0) return 0;
  return Math.floor(Math.floor(costCents * share) / agreeing);
}
