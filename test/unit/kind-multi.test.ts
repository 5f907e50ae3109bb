import { describe, expect, it } from 'vitest';
import {
  addMultiCounts,
  decideMulti,
  multiPosterior,
  NEW_TAGGER,
  refitMulti,
  tagWeights,
  taggerParams,
  type MultiAnswers,
  type TaggerParams,
} from '../../src/consensus/kinds/multi.ts';
import { prng } from '../../bench/quality/random.ts';

const K = 4;

/**
 * A scope of four options, each in an item's set with its own frequency: annotators 0–4 are good (tick
 * 85 % of what belongs, 5 % of what does not), three of whom answer each item, and annotator 5 ticks every
 * option with a chance of 40 % whatever the item.
 */
function simulate(items = 600, seed = 5): { data: MultiAnswers; truth: boolean[][] } {
  const random = prng(seed);
  const shares = [0.5, 0.3, 0.2, 0.1];
  const item: number[] = [];
  const annotator: number[] = [];
  const ticks: number[] = [];
  const truth: boolean[][] = [];
  for (let i = 0; i < items; i++) {
    const set = shares.map((share) => random() < share);
    truth.push(set);
    const answerers = [0, 1, 2, 3, 4].sort(() => random() - 0.5).slice(0, 3);
    for (const a of [...answerers, 5]) {
      item.push(i);
      annotator.push(a);
      for (const belongs of set) ticks.push(random() < (a === 5 ? 0.4 : belongs ? 0.85 : 0.05) ? 1 : 0);
    }
  }
  const data = {
    optionCount: K,
    itemCount: items,
    annotatorCount: 6,
    item: Int32Array.from(item),
    annotator: Int32Array.from(annotator),
    ticks: Uint8Array.from(ticks),
  };
  return { data, truth };
}

const strong: TaggerParams = { sensitivity: 0.9, specificity: 0.95 };
const stop = { maxResponses: 10, targetConfidence: 0.95 };

describe('multi-select posterior', () => {
  it('decides each option apart: one option’s answers leave another’s posterior as it is', () => {
    const a = multiPosterior(
      [
        { tagger: strong, chosen: [0] },
        { tagger: strong, chosen: [0, 2] },
      ],
      K,
    );
    const b = multiPosterior(
      [
        { tagger: strong, chosen: [0, 3] },
        { tagger: strong, chosen: [0] },
      ],
      K,
    );
    expect(a.probabilities[0]).toBeCloseTo(b.probabilities[0] ?? NaN, 12);
    expect(a.probabilities[1]).toBeCloseTo(b.probabilities[1] ?? NaN, 12);
    expect(a.probabilities[2]).toBeCloseTo(b.probabilities[3] ?? NaN, 12);
    expect(a.probabilities[0]).toBeGreaterThan(0.95);
    expect(a.probabilities[1]).toBeLessThan(0.05);
    // Option 2, one tick against one miss by equally good annotators, leans in (a tick is rarer evidence) but is undecided.
    expect(a.probabilities[2]).toBeGreaterThan(0.5);
    expect(a.probabilities[2]).toBeLessThan(0.95);
    expect(a.chosen).toEqual([0, 2]);
  });

  it('weighs each option by its class prior', () => {
    const answers = [{ tagger: NEW_TAGGER, chosen: [0, 1] }];
    const { probabilities } = multiPosterior(answers, 2, { classPrior: [0.1, 0.9] });
    expect(probabilities[0]).toBeLessThan(0.5);
    expect(probabilities[1]).toBeGreaterThan(0.9);
  });

  it('allows the empty set where the task does, and conditions on a non-empty one where it does not', () => {
    const none = [0, 1, 2].map(() => ({ tagger: strong, chosen: [] as number[] }));
    const empty = decideMulti(multiPosterior(none, K), { ...stop, answerCount: 3 });
    expect(empty.kind).toBe('complete');
    expect(empty.result).toEqual([]);
    // Two of three answers tick option 1, none anything else: without the empty set, option 1 is surer.
    const weak = [
      { tagger: strong, chosen: [1] },
      { tagger: strong, chosen: [1] },
      { tagger: strong, chosen: [] },
    ];
    const free = multiPosterior(weak, K);
    const needsOne = multiPosterior(weak, K, { allowEmpty: false });
    expect(needsOne.probabilities[1]).toBeGreaterThan(free.probabilities[1] ?? 1);
    // Given a non-empty set, the options' chances add up to at least one.
    const guarded = multiPosterior(none, K, { allowEmpty: false });
    expect(guarded.probabilities.reduce((sum, p) => sum + p, 0)).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(guarded.chosen).toHaveLength(1);
  });
});

describe('multi-select stop rule', () => {
  it('completes once every option is decided either way (sdk_answer asks only from validationsNeeded answers on)', () => {
    const agreeing = [0, 1, 2].map(() => ({ tagger: strong, chosen: [0, 2] }));
    const done = decideMulti(multiPosterior(agreeing, K), { ...stop, answerCount: 3 });
    expect(done.kind).toBe('complete');
    expect(done.result).toEqual([0, 2]);
    for (const c of done.confidence) expect(c).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps collecting while one option is undecided, and fails at maxResponses', () => {
    const split = [[0], [0, 1], [0], [0, 1]].map((chosen) => ({ tagger: strong, chosen }));
    const posterior = multiPosterior(split, K);
    const open = decideMulti(posterior, { ...stop, answerCount: 4 });
    expect(open.kind).toBe('continue');
    expect(open.decided).toEqual([true, false, true, true]);
    const failed = decideMulti(posterior, { ...stop, answerCount: 10 });
    expect(failed.kind).toBe('fail');
    expect(failed.result).toBeNull();
    expect(failed.best).toContain(0);
  });
});

describe('multi-select learning', () => {
  it('a completed task adds one count per option at (decided, ticked)', () => {
    // Result {0, 1}; the answer ticked {1, 2}: option 0 present·left, 1 present·ticked, 2 absent·ticked, 3 absent·left.
    expect(addMultiCounts(null, K, [0, 1], [1, 2])).toEqual([1, 1, 1, 1]);
    expect(addMultiCounts([2, 0, 0, 0], K, [], [])).toEqual([6, 0, 0, 0]);
    const careless = taggerParams([40, 0, 30, 10]);
    expect(careless.sensitivity).toBeLessThan(0.3);
    expect(careless.specificity).toBeGreaterThan(0.95);
  });

  it('the re-fit leaves a spammer ~no weight and the good annotators theirs', () => {
    const { data } = simulate();
    const fit = refitMulti(data);
    const spammer = tagWeights(fit.taggers[5] as TaggerParams);
    expect(Math.abs(spammer.ticked)).toBeLessThan(0.2);
    expect(Math.abs(spammer.left)).toBeLessThan(0.2);
    // Before any answer, every annotator weighs as a new one: ln(0.7/0.3) ≈ 0.85 per tick.
    expect(tagWeights(NEW_TAGGER).ticked).toBeGreaterThan(0.8);
    for (let a = 0; a < 5; a++) {
      const good = tagWeights(fit.taggers[a] as TaggerParams);
      expect(good.ticked).toBeGreaterThan(2);
      expect(good.left).toBeLessThan(-1.5);
    }
    expect(fit.classPrior[0]).toBeGreaterThan(fit.classPrior[3] ?? 1);
  });

  it('the re-fit gets more sets exactly right than per-option majority vote on the same answers', () => {
    const { data, truth } = simulate();
    const fit = refitMulti(data);
    let fitted = 0;
    let majority = 0;
    const byItem = truth.map((): number[] => []);
    data.item.forEach((i, j) => byItem[i]?.push(j));
    truth.forEach((set, i) => {
      const answers = byItem[i] ?? [];
      if (set.every((belongs, o) => (fit.posteriors[i * K + o] ?? 0) > 0.5 === belongs)) fitted += 1;
      if (set.every((belongs, o) => 2 * answers.reduce((n, j) => n + (data.ticks[j * K + o] ?? 0), 0) > answers.length === belongs)) majority += 1;
    });
    expect(fitted).toBeGreaterThan(majority);
  });

  it('returns the counts of counted items only, and holds known options at their truth', () => {
    const { data, truth } = simulate(50);
    const counted = new Uint8Array(50).fill(1);
    counted.fill(0, 0, 10);
    const known = new Int8Array(50 * K).fill(-1);
    for (let o = 0; o < K; o++) known[20 * K + o] = truth[20]?.[o] ? 1 : 0;
    const fit = refitMulti({ ...data, counted, truth: known });
    // Each of the 40 counted items' four answers adds one count per option.
    expect(fit.counts.reduce((sum, n) => sum + n, 0)).toBeCloseTo(40 * 4 * K, 6);
    for (let o = 0; o < K; o++) expect(fit.posteriors[20 * K + o]).toBe(truth[20]?.[o] ? 1 : 0);
  });
});
