// The arithmetic and words of a project's pairwise report (GET /projects/:id/pairwise), kept apart from
// the drawing so they can be tested: a win rate as a cell of the heat map and its colour, and the
// annotators' position bias summed up.
import type { Schemas } from '../api/schemas';

export type ProjectPairwise = Schemas['ProjectPairwise'];
export type PairGroup = ProjectPairwise['groups'][number];
export type PairAnnotator = ProjectPairwise['annotators'][number];

/** Beyond this measured position bias (either way) an annotator is said to lean to one side. */
export const BIAS_THRESHOLD = 0.2;

/** A win rate as a heat-map cell: "67 %"; "—" where the two were never compared (and on the diagonal). */
export const winRateText = (share: number | null | undefined): string => (share === null || share === undefined ? '—' : `${Math.round(share * 100)} %`);

const mix = (from: readonly number[], to: readonly number[], t: number) => from.map((channel, i) => Math.round(channel + ((to[i] ?? channel) - channel) * t));
const WHITE = [255, 255, 255];
const WIN = [46, 160, 90]; // green: the row's candidate won most of its comparisons with the column's
const LOSS = [214, 96, 77]; // red: it lost most of them

/**
 * The background of a win-rate cell: white at an even 50 %, deepening to green as the row's candidate wins
 * more and to red as it loses more (at most 70 % of the full colour, so the figure stays readable on it);
 * null (never compared) has none.
 */
export function heatColor(share: number | null | undefined): string | null {
  if (share === null || share === undefined) return null;
  const clamped = Math.min(1, Math.max(0, share));
  const strength = Math.abs(clamped - 0.5) * 2 * 0.7;
  const [r, g, b] = mix(WHITE, clamped >= 0.5 ? WIN : LOSS, strength);
  return `rgb(${r}, ${g}, ${b})`;
}

/** A number signed, to two decimals (a position bias, a ranking's score): "+0.35", "−0.08" (a true minus sign), "0.00". */
export function formatSigned(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  if (rounded === 0) return '0.00';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(2)}`;
}

/** Which side a measured bias leans to, if beyond BIAS_THRESHOLD: "leans to the first shown", "no clear lean". */
export const biasLean = (bias: number): string => (Math.abs(bias) <= BIAS_THRESHOLD ? 'no clear lean' : `leans to the ${bias > 0 ? 'first' : 'second'} shown`);

/** A position bias in words: its value and which side the annotator leans to. */
export const biasWords = (bias: number | null): string => (bias === null ? 'Not measured yet' : `${formatSigned(bias)}: ${biasLean(bias)}`);

export interface BiasSummary {
  annotators: number;
  /** Annotators whose bias was measured (they saw both orders). */
  measured: number;
  /** Of them, those beyond BIAS_THRESHOLD toward the candidate shown first, and toward the second. */
  leanFirst: number;
  leanSecond: number;
}

/** How many of the project's pairwise annotators lean to one side, and to which. */
export function summariseBias(annotators: readonly Pick<PairAnnotator, 'positionBias'>[]): BiasSummary {
  const summary: BiasSummary = { annotators: annotators.length, measured: 0, leanFirst: 0, leanSecond: 0 };
  for (const { positionBias } of annotators) {
    if (positionBias === null) continue;
    summary.measured += 1;
    if (positionBias > BIAS_THRESHOLD) summary.leanFirst += 1;
    else if (positionBias < -BIAS_THRESHOLD) summary.leanSecond += 1;
  }
  return summary;
}

/** Whether a project has anything pairwise to report: the section shows only then. */
export const hasPairwiseData = (report: ProjectPairwise | undefined): boolean => Boolean(report && (report.groups.length > 0 || report.annotators.length > 0));
