// The arithmetic and words of the project page's charts by answer kind (GET /projects/:id/distribution's
// kinds, ratingScales and multiOptions), kept apart from the drawing so they can be tested: which kinds
// the completed tasks are of, a rating scale in its own order, a multi-select option's rate, and a
// pairwise result worded in the Labels chart.
import { ANSWER_KINDS, type AnswerKind } from '@concord/contract';
import { pairResultWords } from '../tasks/pairwise';
import { formatCount, formatPercent } from '../ui/format';
import type { ProjectDistribution } from './queries';

export type KindCounts = ProjectDistribution['kinds'];
export type RatingScale = ProjectDistribution['ratingScales'][number];
export type MultiOption = ProjectDistribution['multiOptions'][number];

export interface KindCount {
  kind: AnswerKind;
  count: number;
}

/**
 * The kinds the project's completed tasks are of, the most first (equal counts in the contract's order),
 * kinds without one left out. The service counts a written answer's review with its text task, not as
 * single choice.
 */
export function completedKinds(kinds: KindCounts): KindCount[] {
  return ANSWER_KINDS.map((kind) => ({ kind, count: kinds[kind] }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count);
}

/** Whether the completed tasks are of more than one kind: the page then says how many of each. */
export const mixesKinds = (kinds: KindCounts): boolean => completedKinds(kinds).length > 1;

/** A result as the Labels chart names it: where the project has pairwise tasks, A, B and tie in words ("A is better"). */
export const labelWords = (label: string, kinds: KindCounts): string => (kinds.pairwise > 0 ? pairResultWords(label) : label);

/** What the Labels chart counts, after "Results of the N completed tasks, most frequent first.": how each kind counts, when it does not count once. */
export function labelsNote(kinds: KindCounts): string {
  const notes: string[] = [];
  if (kinds.multi > 0) notes.push('A multi-select task counts once for each option it holds.');
  if (kinds.text > 0) notes.push('Written answers and their reviews are not labels: they count in the confidence only.');
  return notes.join(' ');
}

/** Levels written out in full up to this many characters; a longer scale is written by its ends. */
const SCALE_WORDS_MAX = 40;

/** A rating scale lowest → highest: every level when they are short ("1 → 2 → 3 → 4 → 5"), else its ends and its length ("0 → 10, 11 levels"). */
export function scaleWords(levels: readonly string[]): string {
  const all = levels.join(' → ');
  if (all.length <= SCALE_WORDS_MAX || levels.length <= 2) return all;
  return `${levels[0] ?? ''} → ${levels[levels.length - 1] ?? ''}, ${levels.length} levels`;
}

export interface ScaleBar {
  level: string;
  count: number;
  /** The level's share of the scale's completed tasks (0–1). */
  share: number;
}

/** Each level of a scale with its completed tasks and their share, in the scale's order (lowest first), never by frequency. */
export function scaleBars(scale: RatingScale): ScaleBar[] {
  return scale.levels.map((level, i) => {
    const count = scale.counts[i] ?? 0;
    return { level, count, share: scale.tasks > 0 ? count / scale.tasks : 0 };
  });
}

/** The mean decided level of a scale whose levels are all numbers ("1"…"5", "0"…"10"), or null (named levels have no mean). */
export function scaleMean(scale: RatingScale): number | null {
  const values = scale.levels.map((level) => (/^\s*-?\d+(\.\d+)?\s*$/.test(level) ? Number(level) : Number.NaN));
  if (values.some(Number.isNaN)) return null;
  let sum = 0;
  let tasks = 0;
  values.forEach((value, i) => {
    const count = scale.counts[i] ?? 0;
    sum += value * count;
    tasks += count;
  });
  return tasks > 0 ? sum / tasks : null;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * How many completed multi-select tasks offered an option. The API gives the count and the rate (to 4
 * decimals), not the tasks: when every completed multi-select task could have offered it (the rate is
 * count / all of them), that is exact; otherwise count / rate, rounded. Null when the rate says nothing
 * (an option never chosen, among tasks that were not all offered it).
 */
export function offeredTasks(option: MultiOption, multiTasks: number): number | null {
  if (multiTasks > 0 && round4(option.count / multiTasks) === option.rate) return multiTasks;
  return option.rate > 0 ? Math.round(option.count / option.rate) : null;
}

/** A multi-select option's rate in words: "42 % of 120 tasks"; "never chosen" when the tasks that offered it are not known. */
export function optionRateWords(option: MultiOption, multiTasks: number): string {
  const offered = offeredTasks(option, multiTasks);
  if (offered === null) return 'never chosen';
  return `${formatPercent(option.rate)} of ${formatCount(offered)} task${offered === 1 ? '' : 's'}`;
}
