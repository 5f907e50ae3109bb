// What GET /projects/:id/quality tells a buyer about a batch's labels, from figures the database adds up
// (docs/label-quality.md): the accuracy its completed labels can be expected to have, the golden evidence
// that expectation rests on, and a plain warning when that evidence is too thin to check it. Pure.
import type { Calibration } from './calibration.ts';
import { round4 } from './stop-rule.ts';

/** Below this many golden answers the calibration cannot be checked: the report says so. */
export const MIN_GOLDEN_ANSWERS = 100;
/** The reliability diagram is drawn from this many golden samples in the scope's map on. */
export const MIN_RELIABILITY_SAMPLES = 100;

const Z95 = 1.959964;

export interface Interval {
  low: number;
  high: number;
}

/** The Wilson score interval (95 %) of k successes in n trials; null for n = 0. */
export function wilsonInterval(k: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** What the database adds up over one scope's tasks and golden tasks. */
export interface ScopeFigures {
  completed: number;
  failed: number;
  open: number;
  /** Tasks whose result the buyer rejected (result review), and tasks that delivered a result at least once. */
  rejected: number;
  delivered: number;
  /** Σ confidence and Σ confidence·(1 − confidence) over the COMPLETED tasks. */
  confidenceSum: number;
  confidenceVariance: number;
  /** Σ answers and Σ cost (cents) over the COMPLETED tasks. */
  answersSum: number;
  costSum: number;
  goldenTasks: number;
  goldenAnswers: number;
  goldenCorrect: number;
  /** The scope's stored map (null before its first re-fit) and when it was fitted. */
  calibration: Calibration | null;
  refittedAt: Date | null;
}

export type QualityWarningCode = 'NO_COMPLETED_TASKS' | 'NO_GOLDEN_TASKS' | 'THIN_GOLDEN_EVIDENCE';

export interface QualityReport {
  completed: number;
  failed: number;
  open: number;
  completedShare: number | null;
  failedShare: number | null;
  rejected: number;
  delivered: number;
  rejectedShare: number | null;
  expectedAccuracy: number | null;
  expectedAccuracyInterval: Interval | null;
  meanAnswersPerCompleted: number | null;
  costPerCompletedCents: number | null;
  golden: { tasks: number; answers: number; correct: number; shareCorrect: number | null; interval: Interval | null };
  calibration: {
    goldenTasks: number;
    refittedAt: string | null;
    /** Per band of confidence, the confidence the map gave golden samples it was not fitted on and the share right; [] while thin. */
    reliability: Array<{ confidence: number; accuracy: number; samples: number }>;
  };
  warnings: Array<{ code: QualityWarningCode; message: string }>;
}

const roundInterval = (interval: Interval | null) => (interval ? { low: round4(interval.low), high: round4(interval.high) } : null);

/** The report of one scope's figures. */
export function qualityReport(figures: ScopeFigures): QualityReport {
  const decided = figures.completed + figures.failed;
  const n = figures.completed;
  const expected = n > 0 ? figures.confidenceSum / n : null;
  // If each completed label is right with its confidence, independently, the share right has this spread.
  const spread = n > 0 ? Math.sqrt(figures.confidenceVariance) / n : 0;
  const expectedInterval = expected === null ? null : { low: Math.max(0, expected - Z95 * spread), high: Math.min(1, expected + Z95 * spread) };
  const goldenShare = figures.goldenAnswers > 0 ? figures.goldenCorrect / figures.goldenAnswers : null;
  const goldenInterval = wilsonInterval(figures.goldenCorrect, figures.goldenAnswers);
  const calibration = figures.calibration;
  // The map measured on golden tasks it was not fitted on (calibration.ts), once there are enough samples.
  const reliabilityBands = calibration?.reliability ?? [];
  const samples = reliabilityBands.reduce((sum, band) => sum + band.samples, 0);
  const reliability =
    samples >= MIN_RELIABILITY_SAMPLES
      ? reliabilityBands.map((band) => ({ confidence: round4(band.confidence), accuracy: round4(band.accuracy), samples: band.samples }))
      : [];
  const warnings: QualityReport['warnings'] = [];
  if (n === 0) warnings.push({ code: 'NO_COMPLETED_TASKS', message: 'No task has completed yet: there is no label to judge.' });
  if (figures.goldenTasks === 0) {
    warnings.push({
      code: 'NO_GOLDEN_TASKS',
      message:
        "There are no golden tasks here, so the confidence is the model's own and nothing checks it. Add golden tasks (about 5 % of the items) for a measured confidence.",
    });
  } else if (figures.goldenAnswers < MIN_GOLDEN_ANSWERS) {
    warnings.push({
      code: 'THIN_GOLDEN_EVIDENCE',
      message: `Only ${figures.goldenAnswers} golden answers so far (${MIN_GOLDEN_ANSWERS} are needed to check the confidence): take the expected accuracy as the model's estimate, not a measurement.`,
    });
  }
  return {
    completed: figures.completed,
    failed: figures.failed,
    open: figures.open,
    completedShare: decided > 0 ? round4(figures.completed / decided) : null,
    failedShare: decided > 0 ? round4(figures.failed / decided) : null,
    rejected: figures.rejected,
    delivered: figures.delivered,
    rejectedShare: figures.delivered > 0 ? round4(figures.rejected / figures.delivered) : null,
    expectedAccuracy: expected === null ? null : round4(expected),
    expectedAccuracyInterval: roundInterval(expectedInterval),
    meanAnswersPerCompleted: n > 0 ? round4(figures.answersSum / n) : null,
    costPerCompletedCents: n > 0 ? round4(figures.costSum / n) : null,
    golden: {
      tasks: figures.goldenTasks,
      answers: figures.goldenAnswers,
      correct: figures.goldenCorrect,
      shareCorrect: goldenShare === null ? null : round4(goldenShare),
      interval: roundInterval(goldenInterval),
    },
    calibration: { goldenTasks: calibration?.goldenItems ?? 0, refittedAt: figures.refittedAt?.toISOString() ?? null, reliability },
    warnings,
  };
}
