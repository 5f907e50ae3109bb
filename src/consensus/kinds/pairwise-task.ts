// One pairwise task's decision as the answer path takes it: the pairwise model (pairwise.ts) over the
// task's answers, each mapped back to A/B by the order its assignment showed and read through its
// annotator's position bias and reliability in the task's scope, the scope's class prior, and the stop
// rule. Pure, like task-decision.ts, whose result shape it returns (the result as A, B or tie), so the
// settlement plan treats every kind alike. A pairwise scope's options are always A, B, tie (its counts
// are 3×3 tables as shown on screen, whatever a task allows).
import type { AnnotatorCounts } from '../label-model.ts';
import { goldenIncrement, type CountIncrement } from '../soft-counts.ts';
import type { TaskDecision } from '../task-decision.ts';
import {
  decidePair,
  NEW_PAIRWISE_PRIOR,
  PAIR_CHOICES,
  rankGroup,
  shownIndex,
  UNIFORM_PAIR_CLASS_PRIOR,
  type GroupPair,
  type PairChoice,
  type PairClassPrior,
  type PairwisePrior,
  type PairTaskAnswer,
  type RankedCandidate,
} from './pairwise.ts';
import { round4 } from '../stop-rule.ts';

/** One answer of a pairwise task: canonical (A, B or tie), with whether its assignment showed B first. */
export interface PairParticipant {
  annotatorId: string;
  answer: string;
  swapped: boolean;
  counts: AnnotatorCounts | null;
}

export interface PairTaskInput {
  allowTie: boolean;
  /** The scope's typical annotator; null before the scope's first re-fit. */
  prior: PairwisePrior | null;
  /** How often A is the better of a pair and how often a pair is a tie; null: uniform. */
  classPrior: PairClassPrior | null;
  /** Every answer of the task, this one included. */
  answers: readonly PairParticipant[];
  maxResponses: number;
  targetConfidence: number;
}

export type PairTaskDecision = TaskDecision & { posterior: number[] };

const isChoice = (answer: string): answer is PairChoice => (PAIR_CHOICES as readonly string[]).includes(answer);

/**
 * The scope's typical annotator as the re-fit stores it (label_scopes.prior_shape = [bias, reliability]), or
 * null when what is stored does not read as one.
 */
export function readPairPrior(stored: unknown): PairwisePrior | null {
  if (!Array.isArray(stored) || stored.length !== 2 || !stored.every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
  const [bias, reliability] = stored as [number, number];
  return Math.abs(bias) < 1 && reliability > 0 && reliability < 1 ? { bias, reliability } : null;
}

/** The scope's class prior as stored over [A, B, tie] (readClassPrior's shares) in the model's terms. */
export function pairClassPrior(shares: readonly number[] | null): PairClassPrior | null {
  if (!shares || shares.length !== 3) return null;
  const [a = 0, b = 0, tie = 0] = shares;
  return { a: a / (a + b), tie };
}

/** The model's class prior as label_scopes.class_prior stores it: the shares of A, B and tie. */
export const storedPairClassPrior = (prior: PairClassPrior): number[] => [(1 - prior.tie) * prior.a, (1 - prior.tie) * (1 - prior.a), prior.tie];

/** A stored answer as the model reads it. */
function pairAnswer(participant: PairParticipant): PairTaskAnswer {
  if (!isChoice(participant.answer)) throw new RangeError(`a pairwise answer is A, B or tie, not ${participant.answer}`);
  const counts = participant.counts?.matrix.length === 9 ? { shown: participant.counts.matrix } : null;
  return { choice: participant.answer, aShownOn: participant.swapped ? 'right' : 'left', counts };
}

/** A choice as the annotator saw it: 0 the first shown, 1 the second, 2 a tie. */
const asShown = (choice: PairChoice, swapped: boolean): number => shownIndex(PAIR_CHOICES.indexOf(choice), !swapped);

/**
 * One answerer's increment after a pair was decided at `truth` (a decision's result, or a golden task's
 * known answer): one count in their 3×3 table at (the truth as they saw it, their answer as they saw it).
 */
export const pairIncrement = (answer: PairChoice, swapped: boolean, truth: PairChoice): CountIncrement =>
  goldenIncrement(3, asShown(truth, swapped), asShown(answer, swapped));

/**
 * The stop rule on the pair's posterior. A completed task moves each answerer's 3×3 table by one count at
 * (the result as they saw it, their answer as they saw it).
 */
export function decidePairTask(input: PairTaskInput): PairTaskDecision {
  const answers = input.answers.map(pairAnswer);
  const decision = decidePair({
    answers,
    allowTie: input.allowTie,
    maxResponses: input.maxResponses,
    targetConfidence: input.targetConfidence,
    scope: { prior: input.prior ?? NEW_PAIRWISE_PRIOR, classPrior: input.classPrior ?? UNIFORM_PAIR_CLASS_PRIOR },
  });
  const posterior = decision.posterior;
  if (decision.kind !== 'complete') {
    if (decision.kind === 'continue') return { kind: 'continue', confidence: decision.confidence, best: decision.best, posterior };
    return { kind: 'fail', confidence: decision.confidence, result: null, best: decision.best, increments: [], posterior };
  }
  const result = decision.result;
  const increments = input.answers.map((answer, i) => ({
    annotatorId: answer.annotatorId,
    increment: pairIncrement(answers[i]?.choice ?? 'A', answer.swapped, result),
  }));
  return { kind: 'complete', confidence: decision.confidence, result, best: result, increments, posterior };
}

/** A decided pair of a group as stored: its candidates, result and confidence. */
export interface DecidedGroupPair {
  group: string;
  candidates: { A: string; B: string };
  result: string;
  confidence: number;
  allowTie: boolean;
}

/** The decided pairs that can rank their group (a pair answer as the result, two different candidates), by group. */
function pairsByGroup(pairs: readonly DecidedGroupPair[]): Map<string, DecidedGroupPair[]> {
  const byGroup = new Map<string, DecidedGroupPair[]>();
  for (const pair of pairs) {
    if (!isChoice(pair.result) || pair.candidates.A === pair.candidates.B) continue;
    const list = byGroup.get(pair.group) ?? [];
    list.push(pair);
    byGroup.set(pair.group, list);
  }
  return byGroup;
}

/**
 * A group's ranking of its candidates: Bradley–Terry over its decided pairs (rankGroup), each pair weighing
 * in as its posterior — the result at its confidence, the rest shared by the other answers the task allowed
 * (the stored form of a decision: exact for a pair without ties).
 */
function rankPairs(pairs: readonly DecidedGroupPair[]): RankedCandidate[] {
  const games: GroupPair[] = pairs.map((pair) => {
    const allowed = pair.allowTie ? 3 : 2;
    const rest = (1 - pair.confidence) / (allowed - 1);
    const posterior = PAIR_CHOICES.slice(0, allowed).map((choice) => (choice === pair.result ? pair.confidence : rest));
    return { a: pair.candidates.A, b: pair.candidates.B, posterior };
  });
  return rankGroup(games).map((r) => ({ ...r, score: round4(r.score) }));
}

/** Each group's ranking of its candidates (rankPairs over its decided pairs). */
export function rankGroups(pairs: readonly DecidedGroupPair[]): Map<string, RankedCandidate[]> {
  return new Map([...pairsByGroup(pairs)].map(([group, groupPairs]) => [group, rankPairs(groupPairs)]));
}

/** A group as the project's pairwise report shows it: its ranking and who beat whom. */
export interface GroupReport {
  group: string;
  /** Decided pairs of the group. */
  pairs: number;
  ranking: RankedCandidate[];
  /**
   * winRate[i][j]: the share of the decided pairs of ranking[i] and ranking[j] that i won, a tie counting
   * half (4 decimals); null where the two were never compared, and on the diagonal.
   */
  winRate: Array<Array<number | null>>;
}

/** Each group's ranking and win-rate matrix from its decided pairs, the groups with the most pairs first (then by name). */
export function groupReports(pairs: readonly DecidedGroupPair[]): GroupReport[] {
  const reports: GroupReport[] = [];
  for (const [group, groupPairs] of pairsByGroup(pairs)) {
    const ranking = rankPairs(groupPairs);
    const position = new Map(ranking.map((entry, i) => [entry.candidate, i]));
    const n = ranking.length;
    const won = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    const played = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (const pair of groupPairs) {
      const a = position.get(pair.candidates.A) ?? 0;
      const b = position.get(pair.candidates.B) ?? 0;
      const aScore = pair.result === 'A' ? 1 : pair.result === 'tie' ? 0.5 : 0;
      (won[a] as number[])[b] = (won[a]?.[b] ?? 0) + aScore;
      (won[b] as number[])[a] = (won[b]?.[a] ?? 0) + 1 - aScore;
      (played[a] as number[])[b] = (played[a]?.[b] ?? 0) + 1;
      (played[b] as number[])[a] = (played[b]?.[a] ?? 0) + 1;
    }
    const winRate = won.map((row, i) => row.map((wins, j) => ((played[i]?.[j] ?? 0) === 0 ? null : round4(wins / (played[i]?.[j] ?? 1)))));
    reports.push({ group, pairs: groupPairs.length, ranking, winRate });
  }
  return reports.sort((x, y) => y.pairs - x.pairs || (x.group < y.group ? -1 : x.group > y.group ? 1 : 0));
}
