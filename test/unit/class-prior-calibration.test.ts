// The scope's class prior and the confidence map fitted on its golden tasks (src/consensus/scope-prior.ts,
// calibration.ts, and their use by the re-fit and the decision).
import { describe, expect, it } from 'vitest';
import { prng } from '../../bench/quality/random.ts';
import {
  ANSWER_GROUPS,
  BIN_EDGES,
  binOf,
  calibrateConfidence,
  calibratedPosterior,
  fitCalibration,
  IDENTITY_CALIBRATION,
  modelPosterior,
  readCalibration,
  readClassPrior,
  type CalibrationSamples,
  type GroupMap,
} from '../../src/consensus/calibration.ts';
import { NEW_SCOPE_PRIOR } from '../../src/consensus/label-model.ts';
import { refitScope } from '../../src/consensus/refit.ts';
import { classPrior } from '../../src/consensus/scope-prior.ts';
import { decideWithModel } from '../../src/consensus/task-decision.ts';

const newAnswers = (...values: string[]) => values.map((answer, i) => ({ annotatorId: `a${i}`, answer, counts: null }));

/** Golden samples: `items` golden tasks of two options, each answered `answers` times, each prefix a sample. */
function goldenSamples(items: number, answers: number, evidencePerAnswer: number, rightShare: number, seed = 1): CalibrationSamples {
  const random = prng(seed);
  const evidence: number[] = [];
  const truth: number[] = [];
  const prefix: number[] = [];
  for (let g = 0; g < items; g++) {
    // The answers all say option 0; the truth is option 0 for a share `rightShare` of the tasks.
    const t = random() < rightShare ? 0 : 1;
    for (let n = 1; n <= answers; n++) {
      evidence.push(n * evidencePerAnswer, 0);
      truth.push(t);
      prefix.push(n);
    }
  }
  return { optionCount: 2, evidence: Float64Array.from(evidence), truth: Int32Array.from(truth), prefix: Int32Array.from(prefix), goldenItems: items };
}

describe('the class prior', () => {
  it('is uniform for a scope with no tasks, and moves from uniform towards the frequencies as tasks accumulate', () => {
    expect(classPrior([0, 0], 0)).toEqual([0.5, 0.5]);
    // 5 pseudo-tasks per option: three tasks of one option are far from locking it in.
    const young = classPrior([3, 0], 3);
    expect(young[0]).toBeCloseTo(8 / 13, 10);
    expect(young[0]).toBeLessThan(0.65);
    const old = classPrior([9_500, 500], 10_000);
    expect(old[0]).toBeCloseTo(9_505 / 10_010, 10);
    expect(old.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
  });

  it('keeps every option possible in a scope whose tasks were all one option', () => {
    const prior = classPrior([2_000, 0, 0], 2_000);
    expect(prior[0]).toBeGreaterThan(0.98);
    expect(prior[1]).toBeGreaterThan(0);
    expect(prior[2]).toBeGreaterThan(0);
  });

  it('is learned by the re-fit on a skewed scope, and a lone dissent no longer outvotes two on the rare side of the prior', () => {
    // 400 tasks, 95 % option 0; 12 annotators right 85 % of the time; three answers per task.
    const random = prng(7);
    const item: number[] = [];
    const annotator: number[] = [];
    const answer: number[] = [];
    for (let i = 0; i < 400; i++) {
      const truth = random() < 0.95 ? 0 : 1;
      for (let a = 0; a < 3; a++) {
        item.push(i);
        annotator.push(Math.floor(random() * 12));
        answer.push(random() < 0.85 ? truth : 1 - truth);
      }
    }
    const fit = refitScope({
      optionCount: 2,
      itemCount: 400,
      annotatorCount: 12,
      item: Int32Array.from(item),
      annotator: Int32Array.from(annotator),
      answer: Int32Array.from(answer),
    });
    expect(fit.classPrior[0]).toBeGreaterThan(0.85);
    expect(fit.classPrior[0]).toBeLessThan(0.99);
    // Without golden tasks the calibration stays the identity.
    expect(fit.calibration).toEqual(IDENTITY_CALIBRATION);
    // One "1" among three new annotators' answers: the prior keeps "0" ahead, and three "0"s complete at once.
    const decide = (...values: string[]) =>
      decideWithModel({
        options: ['0', '1'],
        scope: { options: ['0', '1'], prior: NEW_SCOPE_PRIOR, classPrior: fit.classPrior },
        answers: newAnswers(...values),
        maxResponses: 10,
        targetConfidence: 0.95,
      });
    expect(decide('0', '0', '0')).toMatchObject({ kind: 'complete', result: '0' });
    expect(decide('0', '1', '0').kind).toBe('continue');
    expect(decide('0', '1', '0')).toMatchObject({ best: '0' });
  });
});

describe('the confidence map', () => {
  it('is the identity without golden evidence, so the contract’s worked examples hold', () => {
    expect(
      fitCalibration({ optionCount: 2, evidence: new Float64Array(0), truth: new Int32Array(0), prefix: new Int32Array(0), goldenItems: 0 }, null),
    ).toEqual(IDENTITY_CALIBRATION);
    expect(calibratedPosterior([1.2, -0.4], null)).toEqual(modelPosterior([1.2, -0.4], null));
    const decide = (...values: string[]) =>
      decideWithModel({
        options: ['A', 'B'],
        scope: { options: ['A', 'B'], prior: NEW_SCOPE_PRIOR, classPrior: null, calibration: IDENTITY_CALIBRATION },
        answers: newAnswers(...values),
        maxResponses: 10,
        targetConfidence: 0.95,
      });
    expect(decide('A', 'A', 'A')).toMatchObject({ kind: 'continue', confidence: 0.927 });
    expect(decide('A', 'A', 'A', 'A')).toMatchObject({ kind: 'complete', confidence: 0.9674 });
    expect(decide('A', 'B', 'A', 'A', 'A', 'A')).toMatchObject({ kind: 'complete', confidence: 0.9674 });
  });

  it('stays close to the identity where the golden tasks say the model is right', () => {
    const map = fitCalibration(goldenSamples(200, 8, 1.5, 1), null);
    expect(map.goldenItems).toBe(200);
    // Every golden task right: where its prefixes of n answers are (the map is fitted by number of answers), no
    // group is pulled below its raw probability by much.
    for (const answers of [3, 4, 5, 6, 8]) {
      const p = 1 / (1 + Math.exp(-1.5 * answers));
      expect(calibrateConfidence(p, answers, map)).toBeGreaterThan(p - 0.05);
    }
  });

  it('lowers the confidence to what golden tasks whose answers agree on the wrong option show, and then nothing completes at 0.95', () => {
    // The answers agree on option 0 for every golden task, but 20 % of them are option 1.
    const map = fitCalibration(goldenSamples(300, 10, 1.2, 0.8), null);
    for (const p of [0.99, 0.999, 0.99999]) {
      expect(calibrateConfidence(p, 10, map)).toBeGreaterThan(0.7);
      expect(calibrateConfidence(p, 10, map)).toBeLessThan(0.86);
    }
    const decision = decideWithModel({
      options: ['A', 'B'],
      scope: { options: ['A', 'B'], prior: NEW_SCOPE_PRIOR, classPrior: null, calibration: map },
      answers: newAnswers('A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A'),
      maxResponses: 10,
      targetConfidence: 0.95,
    });
    expect(decision.kind).toBe('fail');
    expect(decision.confidence).toBeLessThan(0.86);
  });

  it('with golden evidence, assumes no band more than 93 % right until its own golden samples show it', () => {
    // One golden task whose three answers lean weakly: samples in the low bands only, the high bands empty.
    const thin = fitCalibration(goldenSamples(1, 3, 0.3, 1, 17), null);
    expect(thin.goldenItems).toBe(1);
    for (const answers of [3, 10]) for (const p of [0.99, 0.9999]) expect(calibrateConfidence(p, answers, thin)).toBeLessThanOrEqual(0.93);
    // Many right golden samples in the high bands earn more than the ceiling.
    const earned = fitCalibration(goldenSamples(300, 10, 1.2, 1, 19), null);
    expect(calibrateConfidence(0.9999, 10, earned)).toBeGreaterThan(0.98);
  });

  it('moves from the identity towards the golden evidence as golden tasks accumulate', () => {
    const few = calibrateConfidence(0.999, 6, fitCalibration(goldenSamples(3, 10, 1.2, 0, 3), null));
    const many = calibrateConfidence(0.999, 6, fitCalibration(goldenSamples(300, 10, 1.2, 0, 3), null));
    // All golden tasks wrong: a few pull the band part of the way down, many pull it far down (not to the
    // floor: the bands below, which no golden prefix of six answers reached, keep their prior, and the map
    // stays monotone).
    expect(few).toBeLessThan(0.999);
    expect(many).toBeLessThan(few);
    expect(many).toBeLessThan(0.35);
  });

  it('is monotone in the raw confidence and keeps the order of the options', () => {
    const map = fitCalibration(goldenSamples(100, 10, 0.9, 0.7, 5), null);
    for (const answers of ANSWER_GROUPS) {
      let previous = 0;
      for (let z = -1; z < (BIN_EDGES.at(-1) ?? 11) + 3; z += 0.25) {
        const value = calibrateConfidence(1 / (1 + Math.exp(-z)), answers, map);
        expect(value).toBeGreaterThanOrEqual(previous - 1e-12);
        previous = value;
      }
    }
    const posterior = calibratedPosterior([3, 1, 0], [0.2, 0.3, 0.5], { calibration: map, answers: 5 });
    expect(posterior.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
    const raw = modelPosterior([3, 1, 0], [0.2, 0.3, 0.5]);
    expect(posterior.indexOf(Math.max(...posterior))).toBe(raw.indexOf(Math.max(...raw)));
  });

  it('never lets a poor band turn the runner-up into the result', () => {
    // Golden tasks whose answers lean 60/40 are right a third of the time: the first band maps below 1/2.
    const map = fitCalibration(goldenSamples(200, 3, 0.15, 0.33, 9), null);
    expect(calibrateConfidence(0.61, 3, map)).toBeLessThan(0.5);
    const evidence = [0.45, 0];
    const raw = modelPosterior(evidence, null);
    const posterior = calibratedPosterior(evidence, null, { calibration: map, answers: 3 });
    expect(raw[0]).toBeGreaterThan(raw[1] ?? 1);
    expect(posterior[0]).toBeGreaterThanOrEqual(posterior[1] ?? 1);
    const decision = decideWithModel({
      options: ['A', 'B'],
      scope: { options: ['A', 'B'], prior: NEW_SCOPE_PRIOR, classPrior: null, calibration: map },
      answers: newAnswers('A', 'A', 'B'),
      maxResponses: 3,
      targetConfidence: 0.5,
    });
    expect(decision).toMatchObject({ best: 'A' });
  });

  it('is measured on golden tasks it was not fitted on: overconfident evidence shows below the diagonal', () => {
    // Every golden task's answers agree, and a fifth of them are wrong: held out, the map says so.
    const map = fitCalibration(goldenSamples(300, 10, 1.2, 0.8, 11), null);
    const samples = map.reliability.reduce((sum, band) => sum + band.samples, 0);
    expect(samples).toBe(300 * 8);
    const top = map.reliability.at(-1);
    expect(top?.accuracy).toBeGreaterThan(0.7);
    expect(top?.accuracy).toBeLessThan(0.9);
    expect(IDENTITY_CALIBRATION.reliability).toEqual([]);
  });

  it('is fitted apart by the number of answers: long agreeing golden prefixes do not vouch for a task decided on its third answer', () => {
    // Golden tasks whose answers agree on option 0; a fifth are option 1. The first three answers carry
    // strong evidence each (trusted annotators), the later ones weak evidence, so a 3-answer prefix and a
    // 10-answer prefix reach the same raw probability; only the long ones are all right.
    const random = prng(21);
    const evidence: number[] = [];
    const truth: number[] = [];
    const prefix: number[] = [];
    for (let g = 0; g < 400; g++) {
      const wrong = random() < 0.2;
      for (let n = 1; n <= 10; n++) {
        const z = Math.min(n, 3) * 4 + Math.max(0, n - 3) * 0.05;
        // Wrong tasks are found out by their later answers: from the seventh on they lean the other way.
        evidence.push(wrong && n >= 7 ? 0 : z, wrong && n >= 7 ? z : 0);
        truth.push(wrong ? 1 : 0);
        prefix.push(n);
      }
    }
    const map = fitCalibration(
      { optionCount: 2, evidence: Float64Array.from(evidence), truth: Int32Array.from(truth), prefix: Int32Array.from(prefix), goldenItems: 400 },
      null,
    );
    const p = 1 / (1 + Math.exp(-12.1));
    expect(calibrateConfidence(p, 3, map)).toBeLessThan(0.85);
    expect(calibrateConfidence(p, 10, map)).toBeGreaterThan(0.95);
  });

  it('counts a golden task once in a bin, however many of its prefixes fall there', () => {
    // One golden task, ten answers each adding almost nothing after the third: all of its 7+ prefixes share a bin.
    const evidence: number[] = [];
    for (let n = 1; n <= 10; n++) evidence.push(4 + n * 0.01, 0);
    const map = fitCalibration(
      {
        optionCount: 2,
        evidence: Float64Array.from(evidence),
        truth: new Int32Array(10),
        prefix: Int32Array.from({ length: 10 }, (_, i) => i + 1),
        goldenItems: 1,
      },
      null,
    );
    const group = map.groups[ANSWER_GROUPS.indexOf(7)] as GroupMap;
    const bin = binOf(1 / (1 + Math.exp(-4.08)));
    expect(group.samples[bin]).toBe(1);
    expect(group.hits[bin]).toBe(1);
  });

  it('reads a group with no golden samples by the map of all its samples', () => {
    // Golden tasks with three answers only: tasks with more answers read what the three-answer prefixes
    // showed, not the bare prior (which would hold them below 0.93 whatever the golden tasks say).
    const map = fitCalibration(goldenSamples(300, 3, 2, 1, 23), null);
    for (const answers of [4, 5, 9]) expect(calibrateConfidence(0.999, answers, map)).toBeGreaterThan(0.95);
  });

  it('is read from storage only when whole: anything else is the identity, and a class prior of another length is uniform', () => {
    const map = fitCalibration(goldenSamples(50, 10, 1.2, 0.9, 13), null);
    expect(readCalibration(JSON.parse(JSON.stringify(map)))).toEqual(map);
    const [first, ...rest] = map.groups as [GroupMap, ...GroupMap[]];
    const damagedGroups = [
      map.groups.slice(1),
      [{ ...first, raw: first.raw.slice(1) }, ...rest],
      [{ ...first, calibrated: [...first.calibrated.slice(1), Number.NaN] }, ...rest],
    ];
    for (const damaged of [null, 'x', {}, ...damagedGroups.map((groups) => ({ ...map, groups })), { ...map, goldenItems: -1 }]) {
      expect(readCalibration(damaged)).toEqual(IDENTITY_CALIBRATION);
    }
    expect(readCalibration({ ...map, reliability: [{ confidence: 0.9 }, ...map.reliability] }).reliability).toEqual(map.reliability);
    // A map stored before the answer groups (one set of bins) reads the same for every group.
    const legacy = readCalibration({ ...first, reliability: map.reliability, goldenItems: map.goldenItems });
    expect(legacy.groups).toEqual(ANSWER_GROUPS.map(() => first));
    expect(calibrateConfidence(0.99, 9, legacy)).toBe(calibrateConfidence(0.99, 3, map));
    expect(readClassPrior([0.9, 0.1], 2)).toEqual([0.9, 0.1]);
    for (const damaged of [null, [0.9], [0.5, 0.3, 0.2], [1, 0], ['0.5', '0.5']]) expect(readClassPrior(damaged, 2)).toBeNull();
  });
});
