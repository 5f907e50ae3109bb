import { describe, expect, it } from 'vitest';
import { answerLogLikelihoods, oneCoinWeight, type AnnotatorCounts } from '../../src/consensus/label-model.ts';
import { refitScope, type RefitResult, type ScopeAnswers } from '../../src/consensus/refit.ts';
import { prng } from '../../bench/quality/random.ts';

interface Simulated {
  data: ScopeAnswers;
  truth: number[];
}

/**
 * A scope of K = 3 options: six good annotators (right 80 % of the time, wrong options at random), four
 * of whom answer each item, and annotator 6, a spammer who answers every item at random.
 */
function simulateScope(items = 400, seed = 7): Simulated {
  const random = prng(seed);
  const K = 3;
  const item: number[] = [];
  const annotator: number[] = [];
  const answer: number[] = [];
  const truth: number[] = [];
  const wrong = (t: number) => (t + 1 + Math.floor(random() * (K - 1))) % K;
  for (let i = 0; i < items; i++) {
    const t = Math.floor(random() * K);
    truth.push(t);
    const good = [0, 1, 2, 3, 4, 5].sort(() => random() - 0.5).slice(0, 4);
    for (const a of good) {
      item.push(i);
      annotator.push(a);
      answer.push(random() < 0.8 ? t : wrong(t));
    }
    item.push(i);
    annotator.push(6);
    answer.push(Math.floor(random() * K));
  }
  return {
    data: {
      optionCount: K,
      itemCount: items,
      annotatorCount: 7,
      item: Int32Array.from(item),
      annotator: Int32Array.from(annotator),
      answer: Int32Array.from(answer),
    },
    truth,
  };
}

const countsOf = (fit: RefitResult, a: number, K: number): AnnotatorCounts => ({
  matrix: fit.matrices.slice(a * K * K, (a + 1) * K * K),
  correct: fit.correct[a] ?? 0,
  answered: fit.answered[a] ?? 0,
});

/** The largest log-likelihood ratio an annotator's answer can carry between two options. */
function strongestWeight(counts: AnnotatorCounts, fit: RefitResult, K: number): number {
  let strongest = 0;
  for (let l = 0; l < K; l++) {
    const column = answerLogLikelihoods(counts, l, K, fit.prior);
    strongest = Math.max(strongest, Math.max(...column) - Math.min(...column));
  }
  return strongest;
}

const argmax = (values: ArrayLike<number>) => Array.from(values).reduce((best, v, k, all) => (v > (all[best] ?? -Infinity) ? k : best), 0);

describe('re-fit (Dawid–Skene EM)', () => {
  it('leaves a spammer who answers at random with near-zero weight, and the good annotators with theirs', () => {
    // 2 000 items: the spammer's 667 answers per true option leave little sampling noise in their matrix.
    const { data } = simulateScope(2_000);
    const fit = refitScope(data);
    // Before: a new annotator's weight, ln(0.7·2/0.3) ≈ 1.54.
    expect(oneCoinWeight(0.7, 3)).toBeGreaterThan(1.5);
    expect(strongestWeight(countsOf(fit, 6, 3), fit, 3)).toBeLessThan(0.15);
    expect((fit.correct[6] ?? 0) / (fit.answered[6] ?? 1)).toBeCloseTo(1 / 3, 1);
    for (let a = 0; a < 6; a++) expect(strongestWeight(countsOf(fit, a, 3), fit, 3)).toBeGreaterThan(1.5);
  });

  it('labels better than majority vote on the same answers', () => {
    const { data, truth } = simulateScope();
    const fit = refitScope(data);
    let fitted = 0;
    let majority = 0;
    for (let i = 0; i < data.itemCount; i++) {
      if (argmax(fit.posteriors.subarray(fit.posteriorStart[i], fit.posteriorStart[i + 1])) === truth[i]) fitted += 1;
      const votes = [0, 0, 0];
      for (let j = 0; j < data.item.length; j++) if (data.item[j] === i) votes[data.answer[j] ?? 0] = (votes[data.answer[j] ?? 0] ?? 0) + 1;
      if (argmax(votes) === truth[i]) majority += 1;
    }
    expect(fitted).toBeGreaterThan(majority);
    expect(fitted / data.itemCount).toBeGreaterThan(0.9);
  });

  it('gives the same fit whatever the order of the answers', () => {
    const { data } = simulateScope(120);
    const order = Array.from(data.item, (_, j) => j).reverse();
    const shuffled: ScopeAnswers = {
      ...data,
      item: Int32Array.from(order, (j) => data.item[j] ?? 0),
      annotator: Int32Array.from(order, (j) => data.annotator[j] ?? 0),
      answer: Int32Array.from(order, (j) => data.answer[j] ?? 0),
    };
    const a = refitScope(data);
    const b = refitScope(shuffled);
    for (let c = 0; c < a.posteriors.length; c++) expect(b.posteriors[c]).toBeCloseTo(a.posteriors[c] ?? NaN, 9);
    for (let c = 0; c < a.matrices.length; c++) expect(b.matrices[c]).toBeCloseTo(a.matrices[c] ?? NaN, 9);
  });

  it('returns counts of decided items only, so the online step can count open ones when they are decided', () => {
    const { data } = simulateScope(100);
    const counted = new Uint8Array(100).fill(1);
    counted.fill(0, 0, 10);
    const fit = refitScope({ ...data, counted });
    const total = fit.answered.reduce((sum, n) => sum + n, 0);
    expect(total).toBe(90 * 5);
    // Soft counts: each answer adds one in all to its column, so the matrices hold every counted answer.
    expect(fit.matrices.reduce((sum, n) => sum + n, 0)).toBeCloseTo(90 * 5, 6);
    // Open items still get a posterior.
    expect((fit.posteriors[0] ?? NaN) + (fit.posteriors[1] ?? NaN) + (fit.posteriors[2] ?? NaN)).toBeCloseTo(1, 12);
  });

  it('holds golden items at their truth and counts their answers whole', () => {
    const data: ScopeAnswers = {
      optionCount: 2,
      itemCount: 2,
      annotatorCount: 1,
      item: Int32Array.from([0, 1]),
      annotator: Int32Array.from([0, 0]),
      answer: Int32Array.from([1, 1]),
      truth: Int32Array.from([0, -1]),
    };
    const fit = refitScope(data);
    expect(Array.from(fit.posteriors.subarray(0, 2))).toEqual([1, 0]);
    // Golden item: one whole count in (truth 0, answer 1).
    expect(fit.matrices[1]).toBeGreaterThanOrEqual(1);
  });

  it('fits tasks on another option set in the one-coin form, with a posterior over their own options', () => {
    const data: ScopeAnswers = {
      optionCount: 2,
      itemCount: 2,
      annotatorCount: 3,
      item: Int32Array.from([0, 0, 0, 1, 1, 1]),
      annotator: Int32Array.from([0, 1, 2, 0, 1, 2]),
      answer: Int32Array.from([0, 0, 1, 3, 3, 2]),
      itemOptionCount: Uint16Array.from([0, 4]),
    };
    const fit = refitScope(data);
    expect(Array.from(fit.posteriorStart)).toEqual([0, 2, 6]);
    const second = Array.from(fit.posteriors.subarray(2, 6));
    expect(argmax(second)).toBe(3);
    expect(second[0]).toBeCloseTo(second[1] ?? NaN, 12);
    // The one-coin item moved the one-coin counts, not the 2×2 matrices.
    expect(fit.answered[0]).toBe(2);
    expect(fit.matrices.subarray(0, 4).reduce((s, n) => s + n, 0)).toBeCloseTo(1, 12);
  });
});

describe('refitScope against a label swap', () => {
  /**
   * Two options; on every item three adversarial annotators give the wrong option and two good ones the
   * right one, so majority vote is wrong everywhere and EM from it settles on the mirror image of the
   * truth (the adversarial look good). The service decided the items right (say, thanks to golden tasks).
   */
  function swapped(items = 30) {
    const random = prng(11);
    const item: number[] = [];
    const annotator: number[] = [];
    const answer: number[] = [];
    const truth: number[] = [];
    for (let i = 0; i < items; i++) {
      const t = random() < 0.5 ? 0 : 1;
      truth.push(t);
      for (const a of [0, 1, 2, 3, 4]) {
        item.push(i);
        annotator.push(a);
        answer.push(a < 3 ? 1 - t : t);
      }
    }
    const data: ScopeAnswers = {
      optionCount: 2,
      itemCount: items,
      annotatorCount: 5,
      item: Int32Array.from(item),
      annotator: Int32Array.from(annotator),
      answer: Int32Array.from(answer),
    };
    return { data, truth };
  }
  const topOf = (fit: RefitResult, i: number) => ((fit.posteriors[(fit.posteriorStart[i] ?? 0) + 1] ?? 0) > 0.5 ? 1 : 0);

  it('without the decisions, the fit from majority vote is the mirror image', () => {
    const { data, truth } = swapped();
    const fit = refitScope(data);
    expect(fit.start).toBe('majority');
    expect(fit.decidedAgreement).toBeNull();
    expect(truth.every((t, i) => topOf(fit, i) !== t)).toBe(true);
  });

  it('a fit that overturns most decisions is fitted again from them, and that fit is kept', () => {
    const { data, truth } = swapped();
    const fit = refitScope({ ...data, decided: Int32Array.from(truth) });
    expect(fit.start).toBe('decisions');
    expect(fit.decidedAgreement).toBe(1);
    expect(truth.every((t, i) => topOf(fit, i) === t)).toBe(true);
    // The good annotators' matrices are diagonal again: cell (t, t) holds their answers.
    expect(fit.matrices[3 * 4 + 0]).toBeGreaterThan(fit.matrices[3 * 4 + 1] ?? 0);
  });

  it('a fit that overturns a minority of decisions is a correction and stays', () => {
    const { data, truth } = simulateScope(200, 3);
    const decided = Int32Array.from(truth.map((t, i) => (i % 5 === 0 ? (t + 1) % 3 : t)));
    const fit = refitScope({ ...data, decided });
    expect(fit.start).toBe('majority');
    expect(fit.decidedAgreement).toBeGreaterThan(0.7);
  });
});

describe('re-fit: golden evidence weighed against regular work', () => {
  /**
   * simulateScope's crowd, every tenth item golden, and annotators 7 and 8 answering every item as an app
   * that has learned which tasks are golden would: right on each golden item, at random on the others.
   * `gamers: false` puts two more random annotators in their place.
   */
  function withGamers(gamers: boolean, items = 2_000, seed = 11) {
    const { data, truth } = simulateScope(items, seed);
    const random = prng(seed + 1);
    const item = Array.from(data.item);
    const annotator = Array.from(data.annotator);
    const answer = Array.from(data.answer);
    const golden = (i: number) => i % 10 === 0;
    for (let i = 0; i < items; i++) {
      for (const a of [7, 8]) {
        item.push(i);
        annotator.push(a);
        answer.push(gamers && golden(i) ? (truth[i] ?? 0) : Math.floor(random() * 3));
      }
    }
    const scope: ScopeAnswers = {
      ...data,
      annotatorCount: 9,
      item: Int32Array.from(item),
      annotator: Int32Array.from(annotator),
      answer: Int32Array.from(answer),
      truth: Int32Array.from(truth, (t, i) => (golden(i) ? t : -1)),
    };
    return { data: scope, truth };
  }

  const accuracy = (fit: RefitResult, data: ScopeAnswers, truth: number[]) => {
    let right = 0;
    let scored = 0;
    for (let i = 0; i < data.itemCount; i++) {
      if ((data.truth?.[i] ?? -1) >= 0) continue;
      scored += 1;
      if (argmax(fit.posteriors.subarray(fit.posteriorStart[i], fit.posteriorStart[i + 1])) === truth[i]) right += 1;
    }
    return right / scored;
  };

  it('an annotator perfect on golden tasks and random elsewhere gains no weight over one random everywhere', () => {
    const { data } = withGamers(true);
    const fit = refitScope(data);
    const spammer = strongestWeight(countsOf(fit, 6, 3), fit, 3);
    for (const gamer of [7, 8]) {
      expect(fit.goldenSetAside[gamer]).toBe(1);
      expect(strongestWeight(countsOf(fit, gamer, 3), fit, 3)).toBeLessThan(Math.max(0.15, spammer + 0.05));
      // Counted with its golden answers (200 right ones on the diagonal), the same annotator would weigh
      // about three times a random annotator (0.39 against 0.12 here): what the rule takes away.
      const counted = countsOf(fit, gamer, 3);
      const matrix = Array.from(counted.matrix);
      for (let i = 0; i < data.itemCount; i += 10) {
        const t = data.truth?.[i] ?? 0;
        matrix[t * 3 + t] = (matrix[t * 3 + t] ?? 0) + 1;
      }
      const withGolden = { matrix, correct: counted.correct + 200, answered: counted.answered + 200 };
      expect(strongestWeight(withGolden, fit, 3)).toBeGreaterThan(spammer + 0.2);
    }
  });

  it('keeps the golden answers of honest annotators and labels as well as with random annotators in the gamers’ place', () => {
    for (const seed of [11, 12, 13]) {
      const gamed = withGamers(true, 2_000, seed);
      const fit = refitScope(gamed.data);
      for (let a = 0; a < 7; a++) expect(fit.goldenSetAside[a]).toBe(0);
      const plain = withGamers(false, 2_000, seed);
      const plainFit = refitScope(plain.data);
      expect(Array.from(plainFit.goldenSetAside)).toEqual(new Array(9).fill(0));
      expect(accuracy(fit, gamed.data, gamed.truth)).toBeGreaterThanOrEqual(accuracy(plainFit, plain.data, plain.truth) - 0.005);
    }
  });
});
