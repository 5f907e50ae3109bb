import { describe, expect, it } from 'vitest';
import {
  answerLogLikelihoods,
  emptyCounts,
  NEW_SCOPE_PRIOR,
  oneCoinLogLikelihoods,
  oneCoinWeight,
  type AnnotatorCounts,
} from '../../src/consensus/label-model.ts';
import { populationPrior } from '../../src/consensus/scope-prior.ts';
import { applyIncrement, decisionIncrement, goldenIncrement, oneCoinDecisionIncrement } from '../../src/consensus/soft-counts.ts';
import {
  addAnswer,
  decideTask,
  DEFAULT_TARGET_CONFIDENCE,
  defaultMaxResponses,
  probabilities,
  startLogPosterior,
  type StopDecision,
} from '../../src/consensus/stop-rule.ts';

/** Each answer from a different brand-new annotator in a brand-new scope, decided after every answer. */
function answerByNewAnnotators(optionCount: number, answers: number[], { targetConfidence = DEFAULT_TARGET_CONFIDENCE } = {}) {
  let logPosterior = startLogPosterior(optionCount);
  const decisions: StopDecision[] = [];
  answers.forEach((answer, i) => {
    logPosterior = addAnswer(logPosterior, answerLogLikelihoods(null, answer, optionCount));
    decisions.push(decideTask({ logPosterior, answerCount: i + 1, maxResponses: defaultMaxResponses(3), targetConfidence }));
  });
  return decisions;
}
const last = <T>(list: T[]) => list[list.length - 1];
const A = 0;
const B = 1;

describe('stop rule: the contract worked examples (new annotators, new scope, target 0.95, maxResponses 10)', () => {
  it('two options, 3 of 3 agree → 0.9270, keeps collecting', () => {
    expect(last(answerByNewAnnotators(2, [A, A, A]))).toEqual({ kind: 'continue', confidence: 0.927, best: A });
  });

  it('two options, 4 of 4 agree → 0.9674 COMPLETED', () => {
    expect(last(answerByNewAnnotators(2, [A, A, A, A]))).toEqual({ kind: 'complete', confidence: 0.9674, result: A });
  });

  it('two options, 2–1 then agreeing answers → COMPLETED at 5–1 (0.9674)', () => {
    const decisions = answerByNewAnnotators(2, [A, B, A, A, A, A]);
    expect(decisions.map((d) => d.kind)).toEqual(['continue', 'continue', 'continue', 'continue', 'continue', 'complete']);
    expect(decisions[2]).toMatchObject({ confidence: 0.7 });
    expect(last(decisions)).toEqual({ kind: 'complete', confidence: 0.9674, result: A });
  });

  it('three options, 3 of 3 agree → 0.9807 COMPLETED', () => {
    expect(last(answerByNewAnnotators(3, [A, A, A]))).toEqual({ kind: 'complete', confidence: 0.9807, result: A });
  });

  it('three options, 2–1–0 → 0.7935, keeps collecting', () => {
    expect(last(answerByNewAnnotators(3, [A, B, A]))).toEqual({ kind: 'continue', confidence: 0.7935, best: A });
  });

  it('answers alternating A,B,A,B,… → FAILED at the 10th', () => {
    const decisions = answerByNewAnnotators(2, [A, B, A, B, A, B, A, B, A, B]);
    expect(decisions.slice(0, 9).every((d) => d.kind === 'continue')).toBe(true);
    expect(last(decisions)).toMatchObject({ kind: 'fail', confidence: 0.5 });
  });
});

describe('stop rule', () => {
  it("completes as soon as the target is reached: the floor of validationsNeeded answers is sdk_answer's gate, before the rule is asked", () => {
    const decisions = answerByNewAnnotators(2, [A, A, A, A, A]);
    expect(decisions.map((d) => d.kind)).toEqual(['continue', 'continue', 'continue', 'complete', 'complete']);
  });

  it('never completes a tie, even at a target of 0.5', () => {
    expect(last(answerByNewAnnotators(2, [A, B], { targetConfidence: 0.5 }))).toMatchObject({ kind: 'continue', confidence: 0.5 });
    expect(last(answerByNewAnnotators(2, [A, B, A], { targetConfidence: 0.5 }))).toMatchObject({ kind: 'complete', result: A });
  });

  it('defaults maxResponses to max(10, 2 × validationsNeeded)', () => {
    expect(defaultMaxResponses(1)).toBe(10);
    expect(defaultMaxResponses(5)).toBe(10);
    expect(defaultMaxResponses(8)).toBe(16);
  });

  it('keeps the posterior finite and normalised after many confident answers', () => {
    let logPosterior = startLogPosterior(2);
    for (let i = 0; i < 2_000; i++) logPosterior = addAnswer(logPosterior, [Math.log(0.999), Math.log(0.001)]);
    const p = probabilities(logPosterior);
    expect(p[0]).toBe(1);
    expect((p[0] ?? NaN) + (p[1] ?? NaN)).toBeCloseTo(1, 12);
  });
});

describe('label model: weights', () => {
  it.each([2, 3, 4, 5, 10])('a brand-new annotator in a brand-new scope of %i options weighs exactly ln(r·(K−1)/(1−r)), r = 0.7', (K) => {
    for (const counts of [null, emptyCounts(K)]) {
      const column = answerLogLikelihoods(counts, 0, K);
      for (let k = 1; k < K; k++) expect((column[0] ?? NaN) - (column[k] ?? NaN)).toBeCloseTo(oneCoinWeight(0.7, K), 12);
      // Every wrong option is equally unlikely: one-coin, no matrix yet.
      expect(new Set(column.slice(1).map((v) => v.toFixed(12))).size).toBe(1);
    }
    expect(oneCoinWeight(0.7, 2)).toBeCloseTo(Math.log(7 / 3), 12);
  });

  it('backs off towards one reliability while the matrix holds few answers, weighing it n/(n + 5)', () => {
    // An annotator who answers A whatever the truth, and B only when B is true: their A says nothing.
    const saysA = (n: number): AnnotatorCounts => ({ matrix: [n / 2, 0, n / 4, n / 4], correct: (3 * n) / 4, answered: n });
    const weightOfA = (n: number) => {
      const column = answerLogLikelihoods(saysA(n), A, 2);
      return (column[0] ?? NaN) - (column[1] ?? NaN);
    };
    const oneCoin = oneCoinWeight(0.7, 2);
    // Few answers: close to the one-coin weight; many: close to the matrix, where A is barely evidence.
    expect(Math.abs(weightOfA(2) - oneCoin)).toBeLessThan(0.3);
    expect(weightOfA(4000)).toBeCloseTo(Math.log(1 / 0.5), 2);
    expect(weightOfA(2)).toBeGreaterThan(weightOfA(20));
    expect(weightOfA(20)).toBeGreaterThan(weightOfA(200));
    // The mixture itself, at n = 5: half the matrix (with its prior of 2 per row), half the one-coin form.
    const n = 5;
    const r = (saysA(n).correct + 4 * 0.7) / (n + 4);
    const cell = (k: number, l: number, count: number, rowTotal: number) => (count + 2 * (k === l ? 0.7 : 0.3)) / (rowTotal + 2);
    const expected0 = 0.5 * cell(0, 0, n / 2, n / 2) + 0.5 * r;
    const expected1 = 0.5 * cell(1, 0, n / 4, n / 2) + 0.5 * (1 - r);
    const column = answerLogLikelihoods(saysA(n), A, 2);
    expect(column[0]).toBeCloseTo(Math.log(expected0), 12);
    expect(column[1]).toBeCloseTo(Math.log(expected1), 12);
  });

  it('uses the one-coin form for a task whose options differ from the scope’s', () => {
    const counts: AnnotatorCounts = { matrix: [9, 1, 0, 10], correct: 19, answered: 20 };
    const r = (19 + 4 * 0.7) / (20 + 4);
    const column = oneCoinLogLikelihoods(counts, 2, 4);
    expect(column[2]).toBeCloseTo(Math.log(r), 12);
    for (const k of [0, 1, 3]) expect(column[k]).toBeCloseTo(Math.log((1 - r) / 3), 12);
  });

  it('an annotator who is always wrong in a consistent way becomes evidence for the truth', () => {
    // Says B when A is true and A when B is true, 50 times each.
    const counts: AnnotatorCounts = { matrix: [0, 50, 50, 0], correct: 0, answered: 100 };
    const column = answerLogLikelihoods(counts, B, 2);
    expect(column[0]).toBeGreaterThan((column[1] ?? NaN) + 2);
  });
});

describe('label model: soft counts', () => {
  it('moves each answerer of a completed task by one whole count into (result, answer)', () => {
    const agreeing = applyIncrement(emptyCounts(2), decisionIncrement(2, A, A));
    expect(agreeing).toEqual({ matrix: [1, 0, 0, 0], correct: 1, answered: 1 });
    const dissenting = applyIncrement(emptyCounts(2), decisionIncrement(2, A, B));
    expect(dissenting).toEqual({ matrix: [0, 1, 0, 0], correct: 0, answered: 1 });
  });

  it('moves a golden answer by one whole count into (truth, answer)', () => {
    const after = applyIncrement(emptyCounts(3), goldenIncrement(3, 2, 1));
    expect(after.matrix).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 0]);
    expect(after).toMatchObject({ correct: 0, answered: 1 });
  });

  it('moves only the one-coin counts for a task on another option set', () => {
    const after = applyIncrement(emptyCounts(2), oneCoinDecisionIncrement(2, 2));
    expect(after.matrix).toEqual([0, 0, 0, 0]);
    expect(after).toMatchObject({ correct: 1, answered: 1 });
  });

  it('leaves the stored counts it was given unchanged', () => {
    const before = emptyCounts(2);
    applyIncrement(before, decisionIncrement(2, A, A));
    expect(before.matrix).toEqual([0, 0, 0, 0]);
  });
});

describe('scope prior', () => {
  it('is the contract’s r0 for a scope with no answers', () => {
    const prior = populationPrior({ optionCount: 2, matrices: [0, 0, 0, 0], correct: [0], answered: [0] });
    expect(prior.reliability).toBeCloseTo(NEW_SCOPE_PRIOR.reliability, 12);
    expect(Array.from(prior.shape ?? [])).toEqual([0.7, 0.3, 0.3, 0.7].map((p) => expect.closeTo(p, 12)));
  });

  it('follows a scope whose annotators are weaker than r0', () => {
    const annotators = 50;
    const matrices = Array.from({ length: annotators }, () => [30, 20, 20, 30]).flat();
    const prior = populationPrior({ optionCount: 2, matrices, correct: new Array(annotators).fill(60), answered: new Array(annotators).fill(100) });
    expect(prior.reliability).toBeGreaterThan(0.6);
    expect(prior.reliability).toBeLessThan(0.62);
  });
});
