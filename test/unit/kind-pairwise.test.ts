import { describe, expect, it } from 'vitest';
import {
  addDecidedAnswer,
  decidePair,
  describeAnnotator,
  pairAnswerLogLikelihoods,
  pairLogPosterior,
  positionBias,
  rankGroup,
  refitPairs,
  type PairAnswer,
  type PairRefitResult,
  type PairTaskAnswer,
} from '../../src/consensus/kinds/pairwise.ts';
import { prng } from '../../bench/quality/random.ts';

type Behaviour = { left: number; reliability: number };

/**
 * A scope of pairs without ties: six good annotators (right 85 % of the time) and the behaviours given,
 * each answering every pair with A shown on the left or the right at random; answers mapped back to A/B.
 */
function simulate(extra: Behaviour[], items = 300, seed = 11) {
  const random = prng(seed);
  const crowd: Behaviour[] = [...Array.from({ length: 6 }, () => ({ left: 0, reliability: 0.85 })), ...extra];
  const item: number[] = [];
  const annotator: number[] = [];
  const choice: number[] = [];
  const aLeft: number[] = [];
  const truth: number[] = [];
  for (let i = 0; i < items; i++) {
    const t = random() < 0.5 ? 0 : 1;
    truth.push(t);
    crowd.forEach((behaviour, a) => {
      const left = random() < 0.5;
      // The answer as shown: 0 = left, 1 = right.
      const truthShown = left ? t : 1 - t;
      const shown = random() < behaviour.left ? 0 : random() < behaviour.reliability ? truthShown : 1 - truthShown;
      item.push(i);
      annotator.push(a);
      choice.push(left ? shown : 1 - shown);
      aLeft.push(left ? 1 : 0);
    });
  }
  const fit = refitPairs({
    itemCount: items,
    annotatorCount: crowd.length,
    item: Int32Array.from(item),
    annotator: Int32Array.from(annotator),
    choice: Int32Array.from(choice),
    aLeft: Uint8Array.from(aLeft),
    allowTie: new Uint8Array(items),
  });
  return { fit, truth };
}

/** How far one answer moves a pair's log-odds of A against B: its weight as evidence. */
function weight(fit: PairRefitResult, a: number, answer: PairAnswer): number {
  const [forA = 0, forB = 0] = pairAnswerLogLikelihoods(fit.counts[a] ?? null, answer, false, fit.prior);
  return Math.abs(forA - forB);
}

const leftPick = (aShownOn: 'left' | 'right'): PairAnswer => ({ choice: aShownOn === 'left' ? 'A' : 'B', aShownOn });

describe('pairwise annotator model', () => {
  it('gives a position-biased annotator little weight after the re-fit and measures their bias', () => {
    const { fit, truth } = simulate([{ left: 0.8, reliability: 0.8 }]);
    const biased = 6;
    const good = weight(fit, 0, leftPick('left'));
    expect(good).toBeGreaterThan(1.2);
    // The left pick of an annotator who picks the left 80 % of the time is worth a fraction of a good one's.
    expect(weight(fit, biased, leftPick('left'))).toBeLessThan(0.25 * good);
    expect(weight(fit, biased, leftPick('right'))).toBeLessThan(0.25 * good);
    expect(positionBias(fit.counts[biased] ?? null)).toBeGreaterThan(0.7);
    expect(positionBias(fit.counts[biased] ?? null)).toBeLessThan(0.9);
    expect(Math.abs(positionBias(fit.counts[0] ?? null) ?? 1)).toBeLessThan(0.1);
    const summary = describeAnnotator(fit.counts[biased] ?? null, fit.prior);
    expect(summary.bias).toBeGreaterThan(0.7);
    expect(summary.reliability).toBeGreaterThan(0.65);
    // The fit still gets the pairs right.
    const right = truth.filter((t, i) => (fit.posteriors[3 * i + t] ?? 0) > 0.5).length;
    expect(right / truth.length).toBeGreaterThan(0.97);
  });

  it('maps answers back: an annotator who always picks the left, shown A left half the time, ends near zero weight', () => {
    const { fit } = simulate([{ left: 1, reliability: 0 }]);
    const always = 6;
    expect(weight(fit, always, leftPick('left'))).toBeLessThan(0.05);
    expect(weight(fit, always, leftPick('right'))).toBeLessThan(0.05);
    expect(positionBias(fit.counts[always] ?? null)).toBeGreaterThan(0.95);
    // Their "A" answers were all given with A on the left, their "B" answers with A on the right: as shown,
    // every one of them is in the "left" column.
    const shown = Array.from(fit.counts[always]?.shown ?? []);
    expect((shown[0] ?? 0) + (shown[3] ?? 0)).toBeCloseTo(300, 6);
  });

  it('counts an answer online on the side it was shown on', () => {
    // "B" with A on the right is a pick of the left candidate; the truth B was shown on the left too.
    const counts = addDecidedAnswer(null, { choice: 'B', aShownOn: 'right' }, 'B');
    expect(Array.from(counts.shown)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0]);
    const again = addDecidedAnswer(counts, { choice: 'B', aShownOn: 'left' }, 'A');
    // Truth A shown on the left, answer B shown on the right.
    expect(Array.from(again.shown)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(counts.shown)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('weighs a new annotator with the contract reliability of 0.7', () => {
    const [forA = 0, forB = 0] = pairAnswerLogLikelihoods(null, { choice: 'A', aShownOn: 'right' }, false);
    expect(forA - forB).toBeCloseTo(Math.log(0.7 / 0.3), 10);
  });
});

const newAnswers = (choices: Array<'A' | 'B' | 'tie'>): PairTaskAnswer[] =>
  choices.map((choice, i) => ({ choice, aShownOn: i % 2 === 0 ? 'left' : 'right', counts: null }));

const rule = { maxResponses: 10, targetConfidence: 0.95 };

describe('pairwise stop rule', () => {
  it('completes once the confidence reaches the target', () => {
    // Three agreeing new annotators: 0.7³ / (0.7³ + 0.3³) = 0.927, short of 0.95; a fourth makes 0.967.
    const three = decidePair({ answers: newAnswers(['A', 'A', 'A']), allowTie: false, ...rule });
    expect(three).toMatchObject({ kind: 'continue', best: 'A', confidence: 0.927 });
    const four = decidePair({ answers: newAnswers(['A', 'A', 'A', 'A']), allowTie: false, ...rule });
    expect(four).toMatchObject({ kind: 'complete', result: 'A', confidence: 0.9674 });
  });

  it('fails at maxResponses without consensus', () => {
    const split = newAnswers(['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B']);
    expect(decidePair({ answers: split.slice(0, 9), allowTie: false, ...rule }).kind).toBe('continue');
    expect(decidePair({ answers: split, allowTie: false, ...rule })).toMatchObject({ kind: 'fail', confidence: 0.5 });
  });
});

describe('pairwise ties', () => {
  it('refuses a tie where ties are not allowed and keeps the posterior on A and B', () => {
    expect(() => decidePair({ answers: newAnswers(['A', 'tie']), allowTie: false, ...rule })).toThrow(RangeError);
    const posterior = decidePair({ answers: newAnswers(['A', 'B', 'A']), allowTie: false, ...rule }).posterior;
    expect(posterior).toHaveLength(2);
    expect(posterior[0]).toBeCloseTo(0.7, 10);
  });

  it('lets a tie win where ties are allowed', () => {
    const ties = decidePair({ answers: newAnswers(['tie', 'tie', 'tie']), allowTie: true, ...rule });
    expect(ties.posterior).toHaveLength(3);
    // Three options: each new answer weighs ln(0.7 / 0.15) against each other one, and three agreeing make
    // 4.67³ / (4.67³ + 2) = 0.9807.
    expect(ties).toMatchObject({ kind: 'complete', result: 'tie', confidence: 0.9807 });
    // An answer for A adds nothing to B over tie: both are a wrong answer's (1 − r)/2.
    const [a = 0, b = 0, tie = 0] = pairLogPosterior(newAnswers(['A']), true);
    expect(b).toBeCloseTo(tie, 12);
    expect(a - b).toBeCloseTo(Math.log(0.7 / 0.15), 10);
  });
});

describe('Bradley–Terry ranking of a group', () => {
  const order = ['c', 'e', 'a', 'd', 'b'];
  // Every pair once, the worse candidate as A, and B (the better) winning for sure.
  const roundRobin = () => order.flatMap((better, i) => order.slice(i + 1).map((worse) => ({ a: worse, b: better, posterior: [0, 1] })));

  it('recovers a known order from consistent pairs, the undefeated candidate finite', () => {
    const ranked = rankGroup(roundRobin());
    expect(ranked.map((r) => r.candidate)).toEqual(order);
    expect(ranked.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    for (const r of ranked) expect(Number.isFinite(r.score)).toBe(true);
    // The undefeated and the winless stay within a few units of log-strength of the reference.
    expect(ranked[0]?.score ?? NaN).toBeLessThan(10);
    expect(ranked[4]?.score ?? NaN).toBeGreaterThan(-10);
    const scores = ranked.map((r) => r.score);
    for (let i = 1; i < scores.length; i++) expect(scores[i] ?? NaN).toBeLessThan(scores[i - 1] ?? NaN);
  });

  it('keeps a single undefeated pair finite and shares the rank of equals', () => {
    const one = rankGroup([{ a: 'x', b: 'y', posterior: [1, 0] }]);
    expect(one.map((r) => r.candidate)).toEqual(['x', 'y']);
    expect(Number.isFinite(one[0]?.score)).toBe(true);
    expect(one[0]?.score ?? NaN).toBeCloseTo(-(one[1]?.score ?? NaN), 6);
    const tied = rankGroup([{ a: 'x', b: 'y', posterior: [0, 0, 1] }]);
    expect(tied.map((r) => r.rank)).toEqual([1, 1]);
  });

  it('weighs each pair by its posterior', () => {
    // x beat y for sure; y beat x, z beat x by coin flips: x is still ahead of y.
    const ranked = rankGroup([
      { a: 'x', b: 'y', posterior: [1, 0] },
      { a: 'y', b: 'x', posterior: [0.55, 0.45] },
      { a: 'z', b: 'x', posterior: [0.5, 0.5] },
    ]);
    const score = Object.fromEntries(ranked.map((r) => [r.candidate, r.score]));
    expect(score.x ?? NaN).toBeGreaterThan(score.y ?? NaN);
    expect(() => rankGroup([{ a: 'x', b: 'x', posterior: [1, 0] }])).toThrow(RangeError);
  });
});
