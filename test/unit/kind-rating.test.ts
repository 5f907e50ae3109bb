import { describe, expect, it } from 'vitest';
import {
  addRatingCount,
  centralInterval,
  decideRating,
  fitRater,
  NEW_RATER,
  raterTable,
  ratingLogLikelihoods,
  ratingPosterior,
  refitRatings,
  type RaterParams,
  type RatingAnswers,
} from '../../src/consensus/kinds/rating.ts';
import { prng } from '../../bench/quality/random.ts';

const L = 5;

/**
 * A scope of five levels: annotators 0–3 are good (the true level 70 % of the time, one level off 15 % each
 * way, kept within the scale), annotator 4 rates every item exactly one level high (the top level stays the
 * top level) and annotator 5 answers at random. Every item gets three good answers, the lenient one's and
 * the spammer's.
 */
function simulate(items = 400, seed = 3): { data: RatingAnswers; truth: number[] } {
  const random = prng(seed);
  const item: number[] = [];
  const annotator: number[] = [];
  const answer: number[] = [];
  const truth: number[] = [];
  const clampLevel = (l: number) => Math.min(L - 1, Math.max(0, l));
  const push = (i: number, a: number, l: number) => {
    item.push(i);
    annotator.push(a);
    answer.push(l);
  };
  for (let i = 0; i < items; i++) {
    const t = Math.floor(random() * L);
    truth.push(t);
    for (const a of [0, 1, 2, 3].sort(() => random() - 0.5).slice(0, 3)) {
      const u = random();
      push(i, a, clampLevel(u < 0.7 ? t : u < 0.85 ? t - 1 : t + 1));
    }
    push(i, 4, clampLevel(t + 1));
    push(i, 5, Math.floor(random() * L));
  }
  const data = {
    levelCount: L,
    itemCount: items,
    annotatorCount: 6,
    item: Int32Array.from(item),
    annotator: Int32Array.from(annotator),
    answer: Int32Array.from(answer),
  };
  return { data, truth };
}

/** The spread of an annotator's evidence: the largest ln-likelihood ratio one of its answers carries between two levels. */
function strongestWeight(rater: RaterParams): number {
  let strongest = 0;
  for (let l = 0; l < L; l++) {
    const column = ratingLogLikelihoods(rater, l, L);
    strongest = Math.max(strongest, Math.max(...column) - Math.min(...column));
  }
  return strongest;
}

describe('rating model: an ordinal annotator', () => {
  it('P(answer | level) is a distribution peaked at level + bias', () => {
    const table = raterTable({ bias: 1, spread: 0.3, lapse: 0.05 }, L);
    for (let t = 0; t < L; t++) {
      const row = Array.from(table.subarray(t * L, (t + 1) * L));
      expect(row.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
      expect(row.indexOf(Math.max(...row))).toBe(Math.min(L - 1, t + 1));
    }
  });

  it('fitRater recovers an annotator’s bias, spread and lapse from its counts', () => {
    const truth: RaterParams = { bias: 1, spread: 0.4, lapse: 0.1 };
    const table = raterTable(truth, L);
    // 200 answers per level, in proportion: the counts an annotator with these parameters would gather.
    const counts = Array.from(table, (p) => 200 * p);
    const fitted = fitRater(counts, L);
    expect(fitted.bias).toBeCloseTo(1, 1);
    expect(fitted.spread).toBeCloseTo(0.4, 1);
    expect(fitted.lapse).toBeCloseTo(0.1, 1);
  });

  it('without answers an annotator is the prior', () => {
    const fitted = fitRater(null, L);
    expect(fitted.bias).toBeCloseTo(NEW_RATER.bias, 1);
    expect(fitted.spread).toBeCloseTo(NEW_RATER.spread, 1);
    expect(fitted.lapse).toBeCloseTo(NEW_RATER.lapse, 1);
  });

  it('a completed task adds one whole count at (result, answer)', () => {
    const counts = addRatingCount(addRatingCount(null, L, 2, 3), L, 2, 3);
    expect(counts[2 * L + 3]).toBe(2);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(2);
  });
});

describe('refitRatings', () => {
  it('learns a consistently lenient annotator’s +1 bias, so its answers point at the right level', () => {
    const { data } = simulate();
    const fit = refitRatings(data);
    const lenient = fit.raters[4] as RaterParams;
    expect(lenient.bias).toBeGreaterThan(0.8);
    expect(lenient.bias).toBeLessThan(1.2);
    // Three answers of level 3 (index 3) from the lenient annotator: before the re-fit they say 3…
    const threes = [3, 3, 3].map((answer) => ({ answer }));
    const before = ratingPosterior(
      threes.map(({ answer }) => ({ rater: fitRater(null, L), answer })),
      L,
    );
    expect(before.best).toBe(3);
    // …after it, 2, and with more confidence than a new annotator's three agreeing answers give: it is informative, not wrong.
    const after = ratingPosterior(
      threes.map(({ answer }) => ({ rater: lenient, answer })),
      L,
      fit.classPrior,
    );
    expect(after.best).toBe(2);
    expect(after.probabilities[2]).toBeGreaterThan(before.probabilities[3] ?? 1);
    expect(strongestWeight(lenient)).toBeGreaterThan(3);
  });

  it('gives a spammer ~no weight and the good annotators theirs', () => {
    const { data } = simulate(1_000);
    const fit = refitRatings(data);
    const spammer = fit.raters[5] as RaterParams;
    expect(spammer.lapse).toBeGreaterThan(0.8);
    expect(strongestWeight(spammer)).toBeLessThan(0.5);
    for (let a = 0; a < 4; a++) expect(strongestWeight(fit.raters[a] as RaterParams)).toBeGreaterThan(3);
  });

  it('labels closer to the truth than the median of the same answers', () => {
    const { data, truth } = simulate();
    const fit = refitRatings(data);
    let modelError = 0;
    let medianError = 0;
    truth.forEach((t, i) => {
      const posterior = Array.from(fit.posteriors.subarray(i * L, (i + 1) * L));
      modelError += Math.abs(posterior.indexOf(Math.max(...posterior)) - t);
      const answers = Array.from(data.answer).filter((_, j) => data.item[j] === i);
      const sorted = answers.sort((a, b) => a - b);
      medianError += Math.abs((sorted[2] ?? 0) - t);
    });
    expect(modelError).toBeLessThan(0.5 * medianError);
  });

  it('returns the counts of counted items only, and golden items at their truth', () => {
    const { data, truth } = simulate(100);
    const counted = new Uint8Array(100).fill(1);
    counted.fill(0, 0, 10);
    const golden = new Int32Array(100).fill(-1);
    golden[50] = truth[50] ?? 0;
    const fit = refitRatings({ ...data, counted, truth: golden });
    expect(fit.answered.reduce((sum, n) => sum + n, 0)).toBe(90 * 5);
    expect(fit.counts.reduce((sum, n) => sum + n, 0)).toBeCloseTo(90 * 5, 6);
    expect(fit.posteriors[50 * L + (truth[50] ?? 0)]).toBe(1);
  });
});

describe('rating posterior and stop rule', () => {
  const good: RaterParams = { bias: 0, spread: 0.2, lapse: 0.02 };
  const stop = { maxResponses: 10, targetConfidence: 0.95 };

  it('reports the central 90 % interval', () => {
    expect(centralInterval([0.02, 0.03, 0.9, 0.05, 0])).toEqual([2, 2]);
    expect(centralInterval([0.1, 0.2, 0.4, 0.2, 0.1])).toEqual([0, 4]);
    expect(centralInterval([0, 0, 0.5, 0.46, 0.04])).toEqual([2, 3]);
    const posterior = ratingPosterior(
      [3, 3, 4].map((answer) => ({ rater: good, answer })),
      L,
    );
    expect(posterior.interval[0]).toBeLessThanOrEqual(3);
    expect(posterior.interval[1]).toBeGreaterThanOrEqual(3);
    expect(posterior.mean).toBeGreaterThan(3);
    expect(posterior.mean).toBeLessThan(4);
  });

  it('completes on the top level once it reaches the target (sdk_answer asks only from validationsNeeded answers on)', () => {
    const answers = [2, 2, 2].map((answer) => ({ rater: good, answer }));
    const done = decideRating(ratingPosterior(answers, L), { ...stop, answerCount: 3 });
    expect(done.kind).toBe('complete');
    expect(done.result).toBe(2);
    expect(done.interval).toEqual([2, 2]);
  });

  it('keeps collecting while the top level is below the target, and fails at maxResponses', () => {
    // Answers split between two neighbouring levels: the 90 % interval is one level wide, the top level unsure.
    const split = [2, 3, 2, 3].map((answer) => ({ rater: good, answer }));
    const posterior = ratingPosterior(split, L);
    expect(posterior.interval).toEqual([2, 3]);
    expect(decideRating(posterior, { ...stop, answerCount: 4 }).kind).toBe('continue');
    const failed = decideRating(posterior, { ...stop, answerCount: 10 });
    expect(failed.kind).toBe('fail');
    expect(failed.result).toBeNull();
    expect([2, 3]).toContain(failed.best);
  });

  it('leans on the class prior where the answers leave levels tied', () => {
    const tied = [1, 3].map((answer) => ({ rater: good, answer }));
    expect(ratingPosterior(tied, L, [0.1, 0.1, 0.1, 0.6, 0.1]).best).toBe(3);
    expect(ratingPosterior(tied, L, [0.1, 0.6, 0.1, 0.1, 0.1]).best).toBe(1);
  });
});
