// What a task's confidence means (CONTRACT §5): among tasks reported at confidence c, about a share c is
// right. The model's posterior (the class prior times the answers' likelihoods) overstates it wherever
// answers are not independent (a hard item fools several annotators at once), so the service reads the
// posterior's top probability through a per-scope map fitted on the scope's golden tasks, the only tasks
// whose truth the service knows.
//
// The map is fitted apart for tasks with 3, 4, 5–6 and 7 or more answers (ANSWER_GROUPS): the same raw
// probability means less after three answers from annotators the model trusts than after eight agreeing
// ones, and a golden task's long prefixes must not vouch for a task decided on its third answer. Every map
// is monotone and piecewise linear in the top option's log-odds z = ln(p/(1 − p)), with fixed knots
// (BIN_EDGES). In each bin it is the share of golden samples that were right, shrunk by `priorSamples`
// pseudo-samples towards a prior, then made monotone (pool-adjacent-violators). A group's prior is the
// map of all samples, whatever their number of answers, so a group with few golden samples reads mostly
// by the whole; the prior of that map is cautious: the bin's own raw probability, but never more than
// `priorCeiling` (0.93), so a confidence above that must be earned by the scope's golden tasks, not
// assumed from the model.
//
// A golden sample is a golden task's posterior after its first n answers (every n from `minAnswers` on: a
// prefix of n answers is what a task with n answers looks like), each answer read from its annotator's
// counts without that answer (which the counts hold with the task's truth). A golden task counts once in
// a bin: its prefixes there share its difficulty, so they are one piece of evidence, not several. With no
// golden sample the map is the identity, so a scope without golden evidence reports the posterior as it
// is and the contract's worked examples hold. Applying the map is O(bins) per decision; it is fitted in
// the re-fit, which also measures it: the reliability diagram the buyer sees is the map fitted without
// one fifth of the golden tasks, applied to that fifth, five times over (a map checked on its own samples
// agrees with them by construction).
import { probabilities, topOption } from './stop-rule.ts';

/** The upper edges of the bins in z (the last bin is open above). */
export const BIN_EDGES: readonly number[] = Object.freeze([0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 11]);

/** The fewest answers of each group of tasks the map is fitted apart for (fewer than the first: the first group). */
export const ANSWER_GROUPS: readonly number[] = Object.freeze([3, 4, 5, 7]);

/** The group of a task with this many answers. */
export function groupOf(answers: number): number {
  let group = 0;
  ANSWER_GROUPS.forEach((from, g) => {
    if (answers >= from) group = g;
  });
  return group;
}

/** One answer group's map. */
export interface GroupMap {
  /** Per bin (BIN_EDGES.length + 1): the calibrated probability at the bin's mean raw probability… */
  calibrated: number[];
  /** …which is this (the knot the map interpolates between). */
  raw: number[];
  /** Golden tasks per bin (each counted once in a bin)… */
  samples: number[];
  /** …and how many of them were right (the measured accuracy, before shrinking). */
  hits: number[];
}

export interface Calibration {
  /** Per answer group (ANSWER_GROUPS), its map. */
  groups: GroupMap[];
  /**
   * The map measured on golden tasks it was not fitted on (five folds), in ten bands of the calibrated
   * confidence: the mean confidence the map gave, the share right, the samples. Empty for the identity.
   */
  reliability: Array<{ confidence: number; accuracy: number; samples: number }>;
  /** Golden tasks the map was fitted on (0: the identity). */
  goldenItems: number;
}

export interface CalibrationSettings {
  /** Pseudo-samples of the prior in every bin. */
  priorSamples: number;
  /** The most a bin's prior assumes (its raw probability, capped at this). */
  priorCeiling: number;
  /** The fewest answers a sample holds (the default validationsNeeded: no task is decided on fewer). */
  minAnswers: number;
}

// Measured on bench/quality's eleven replays (docs/label-quality.md), one setting for all: the ceiling
// halved the calibration error of rte, web and skewed dog and face without costing restaurant its
// completions; more prior samples, or a higher ceiling, traded one against the other.
export const CALIBRATION: Readonly<CalibrationSettings> = Object.freeze({ priorSamples: 10, priorCeiling: 0.93, minAnswers: 3 });

const logOdds = (p: number) => Math.log(p / (1 - p));
const fromLogOdds = (z: number) => 1 / (1 + Math.exp(-z));
const clamp = (p: number) => Math.min(1 - 1e-12, Math.max(1e-12, p));

/** The identity's knot in each bin: the probability at its middle (the open top bin: 1.5 past its edge). */
function identityKnots(): number[] {
  const knots: number[] = [];
  let low = 0;
  for (const edge of BIN_EDGES) {
    knots.push(fromLogOdds((low + edge) / 2));
    low = edge;
  }
  knots.push(fromLogOdds(low + 1.5));
  return knots;
}

const IDENTITY_GROUP: Readonly<GroupMap> = Object.freeze({
  calibrated: Object.freeze(identityKnots()) as number[],
  raw: Object.freeze(identityKnots()) as number[],
  samples: Object.freeze(new Array<number>(BIN_EDGES.length + 1).fill(0)) as number[],
  hits: Object.freeze(new Array<number>(BIN_EDGES.length + 1).fill(0)) as number[],
});

/** No golden evidence: the posterior as the model computes it. */
export const IDENTITY_CALIBRATION: Readonly<Calibration> = Object.freeze({
  groups: ANSWER_GROUPS.map(() => IDENTITY_GROUP),
  reliability: [],
  goldenItems: 0,
});

const BINS = BIN_EDGES.length + 1;
const isNumbers = (value: unknown, length: number): value is number[] =>
  Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'number' && Number.isFinite(item));

/**
 * A stored map as the answer path and the quality route read it (jsonb): anything but a whole, well-formed
 * map is the identity, so a damaged row costs calibration, never an answer.
 */
export function readCalibration(stored: unknown): Calibration {
  if (typeof stored !== 'object' || stored === null) return IDENTITY_CALIBRATION;
  const map = stored as Record<string, unknown>;
  const isGroup = (group: unknown) =>
    typeof group === 'object' &&
    group !== null &&
    ['calibrated', 'raw', 'samples', 'hits'].every((key) => isNumbers((group as Record<string, unknown>)[key], BINS));
  const grouped = Array.isArray(map.groups) && map.groups.length === ANSWER_GROUPS.length && map.groups.every(isGroup);
  // A map stored before the answer groups (one set of bins) reads the same for every group until the next re-fit.
  const single = !grouped && isGroup(map);
  if (!(grouped || single) || typeof map.goldenItems !== 'number' || !(map.goldenItems >= 0)) return IDENTITY_CALIBRATION;
  const reliability = Array.isArray(map.reliability)
    ? (map.reliability as unknown[]).filter(
        (band): band is Calibration['reliability'][number] =>
          typeof band === 'object' &&
          band !== null &&
          ['confidence', 'accuracy', 'samples'].every((key) => typeof (band as Record<string, unknown>)[key] === 'number'),
      )
    : [];
  const groupOfStored = (group: Record<string, unknown>): GroupMap => ({
    calibrated: group.calibrated as number[],
    raw: group.raw as number[],
    samples: group.samples as number[],
    hits: group.hits as number[],
  });
  const groups = grouped ? (map.groups as Array<Record<string, unknown>>).map(groupOfStored) : ANSWER_GROUPS.map(() => groupOfStored(map));
  return { groups, reliability, goldenItems: map.goldenItems };
}

/** A stored class prior for K options: K positive shares, else null (uniform). */
export function readClassPrior(stored: unknown, optionCount: number): number[] | null {
  return isNumbers(stored, optionCount) && stored.every((share) => share > 0) ? stored : null;
}

export const binOf = (p: number): number => {
  const z = logOdds(clamp(p));
  const bin = BIN_EDGES.findIndex((edge) => z < edge);
  return bin < 0 ? BIN_EDGES.length : bin;
};

/**
 * The calibrated probability of a top probability p after `answers` answers, by the map of their group:
 * linear between the knots in log-odds; below the first knot p scaled by the first knot's ratio (never
 * above p); above the last knot the last knot's value (never above p).
 */
export function calibrateConfidence(p: number, answers: number, calibration: Calibration): number {
  const map = calibration.groups[groupOf(answers)];
  return calibration.goldenItems === 0 || !map ? p : readGroup(map, p);
}

/** One group's map at p (calibrateConfidence). */
function readGroup(map: GroupMap, p: number): number {
  const z = logOdds(clamp(p));
  const knots = map.raw.map((raw) => logOdds(clamp(raw)));
  const values = map.calibrated;
  const last = knots.length - 1;
  if (z <= (knots[0] ?? 0)) {
    const scale = (values[0] ?? 0.5) / (map.raw[0] ?? 0.5);
    return Math.min(p, Math.max(0, p * scale));
  }
  if (z >= (knots[last] ?? 0)) return Math.min(p, values[last] ?? p);
  let i = 0;
  while (z > (knots[i + 1] ?? Infinity)) i += 1;
  const share = (z - (knots[i] ?? 0)) / ((knots[i + 1] ?? 1) - (knots[i] ?? 0));
  return (values[i] ?? 0) + share * ((values[i + 1] ?? 0) - (values[i] ?? 0));
}

/** ln π for a class prior (null: uniform, all zeros), for K options. */
export function logClassPrior(classPrior: ArrayLike<number> | null, optionCount: number): number[] {
  return Array.from({ length: optionCount }, (_, k) => (classPrior ? Math.log(Math.max(1e-6, classPrior[k] ?? 0)) : 0));
}

/** The model's posterior of a task from its evidence E (Σ of its answers' ln P(answer | k)) and the class prior. */
export function modelPosterior(evidence: ArrayLike<number>, classPrior: ArrayLike<number> | null): number[] {
  const logPrior = logClassPrior(classPrior, evidence.length);
  return probabilities(logPrior.map((value, k) => value + (evidence[k] ?? 0)));
}

/** The scope's map, and the answers the task has (which pick the group of the map it is read by). */
export interface MapReading {
  calibration: Calibration;
  answers: number;
}

/**
 * The calibrated posterior: the top option's probability read through the map, the others scaled to share
 * the rest as they did. The order of the options is unchanged: the top never drops below the runner-up
 * (a map of a poor band can say less than 1/2, and the result must stay the model's most probable option).
 */
export function calibratedPosterior(evidence: ArrayLike<number>, classPrior: ArrayLike<number> | null, reading?: MapReading): number[] {
  const posterior = modelPosterior(evidence, classPrior);
  if (!reading || reading.calibration.goldenItems === 0) return posterior;
  const top = topOption(posterior).index;
  const p = posterior[top] ?? 0;
  let second = 0;
  for (let k = 0; k < posterior.length; k++) if (k !== top) second = Math.max(second, posterior[k] ?? 0);
  const rest = 1 - p;
  // With c the top and the others scaled by (1 − c)/(1 − p), the runner-up stays at most c iff c ≥ p₂/(1 − p + p₂).
  const c = Math.max(calibrateConfidence(p, reading.answers, reading.calibration), rest > 0 ? second / (rest + second) : 0);
  return posterior.map((value, k) => (k === top ? c : rest > 0 ? (value * (1 - c)) / rest : (1 - c) / (posterior.length - 1)));
}

/** The golden samples: a golden task's evidence after each of its first n answers, and its truth. */
export interface CalibrationSamples {
  optionCount: number;
  /** Sample s's evidence at [s·K, (s+1)·K). */
  evidence: Float64Array;
  truth: Int32Array;
  /** Sample s holds the first prefix[s] answers of its golden task. */
  prefix: Int32Array;
  goldenItems: number;
}

/** Pool-adjacent-violators: the non-decreasing sequence closest to `values` (weighted least squares). */
function monotone(values: readonly number[], weights: readonly number[]): number[] {
  const blocks: Array<{ value: number; weight: number; size: number }> = [];
  values.forEach((value, i) => {
    blocks.push({ value, weight: weights[i] ?? 1, size: 1 });
    while (blocks.length > 1 && (blocks[blocks.length - 2]?.value ?? 0) > (blocks[blocks.length - 1]?.value ?? 0)) {
      const b = blocks.pop() as { value: number; weight: number; size: number };
      const a = blocks.pop() as { value: number; weight: number; size: number };
      const weight = a.weight + b.weight;
      blocks.push({ value: (a.value * a.weight + b.value * b.weight) / weight, weight, size: a.size + b.size });
    }
  });
  return blocks.flatMap((block) => new Array<number>(block.size).fill(block.value));
}

/** A golden sample as the fit reads it: the model's top probability, whether it was right, and its golden task. */
interface Scored {
  p: number;
  hit: number;
  item: number;
  answers: number;
}

/** The samples of at least minAnswers answers, scored by the model's posterior. */
function scoreSamples(samples: CalibrationSamples, classPrior: ArrayLike<number> | null, settings: CalibrationSettings): Scored[] {
  const K = samples.optionCount;
  const scored: Scored[] = [];
  let item = -1;
  for (let s = 0; s < samples.truth.length; s++) {
    if ((samples.prefix[s] ?? 0) === 1 || s === 0) item += 1;
    if ((samples.prefix[s] ?? 0) < settings.minAnswers) continue;
    const posterior = modelPosterior(samples.evidence.subarray(s * K, (s + 1) * K), classPrior);
    const top = topOption(posterior).index;
    scored.push({ p: posterior[top] ?? 0, hit: top === samples.truth[s] ? 1 : 0, item, answers: samples.prefix[s] ?? 0 });
  }
  return scored;
}

const FOLDS = 5;

/** The scope's calibration map from its golden samples and class prior, with its held-out reliability. */
export function fitCalibration(samples: CalibrationSamples, classPrior: ArrayLike<number> | null, settings: CalibrationSettings = CALIBRATION): Calibration {
  const scored = scoreSamples(samples, classPrior, settings);
  const map = mapOf(scored, samples.goldenItems, settings);
  if (map.goldenItems === 0) return map;
  // Five folds of golden tasks: each fold's samples read through the map fitted on the other four.
  const checked: Array<{ confidence: number; hit: number }> = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const others = scored.filter((sample) => sample.item % FOLDS !== fold);
    const held = scored.filter((sample) => sample.item % FOLDS === fold);
    const fitted = mapOf(others, new Set(others.map((sample) => sample.item)).size, settings);
    for (const sample of held) checked.push({ confidence: calibrateConfidence(sample.p, sample.answers, fitted), hit: sample.hit });
  }
  return { ...map, reliability: reliabilityBands(checked) };
}

/**
 * Confidences reported and whether each was right, in ten equal-width bands of the confidence: each
 * band's mean confidence, share right and count (empty bands left out). The reliability diagram, and
 * bench/quality's calibration error, are read from it.
 */
export function reliabilityBands(points: Iterable<{ confidence: number; hit: number }>): Calibration['reliability'] {
  const bands = Array.from({ length: 10 }, () => ({ confidence: 0, accuracy: 0, samples: 0 }));
  for (const { confidence, hit } of points) {
    const band = bands[Math.min(9, Math.floor(confidence * 10))] as { confidence: number; accuracy: number; samples: number };
    band.confidence += confidence;
    band.accuracy += hit;
    band.samples += 1;
  }
  return bands
    .filter((band) => band.samples > 0)
    .map((band) => ({ confidence: band.confidence / band.samples, accuracy: band.accuracy / band.samples, samples: band.samples }));
}

/** The map of scored samples from `goldenItems` golden tasks (the identity without any). */
function mapOf(scored: readonly Scored[], goldenItems: number, settings: CalibrationSettings): Calibration {
  if (goldenItems === 0 || scored.length === 0) return IDENTITY_CALIBRATION;
  // The map of every sample whatever its number of answers, shrunk towards the cautious prior, is the prior
  // of each group's map: a group with few golden tasks (or none: golden tasks answered fewer times than
  // regular ones) reads mostly by it, one with many by its own.
  const pooled = groupMap(scored, settings, (knot) => Math.min(knot, settings.priorCeiling));
  const groups = ANSWER_GROUPS.map((_, g) =>
    groupMap(
      scored.filter((sample) => groupOf(sample.answers) === g),
      settings,
      (knot) => readGroup(pooled, knot),
    ),
  );
  return { groups, reliability: [], goldenItems };
}

/** One map from its samples, each bin shrunk towards `prior` at its knot. */
function groupMap(scored: readonly Scored[], settings: CalibrationSettings, prior: (knot: number) => number): GroupMap {
  const count = new Array<number>(BINS).fill(0);
  const rawSum = new Array<number>(BINS).fill(0);
  const hits = new Array<number>(BINS).fill(0);
  const binned = scored.map((sample) => ({ ...sample, bin: binOf(sample.p) }));
  const key = ({ item, bin }: { item: number; bin: number }) => `${item}:${bin}`;
  const inBin = new Map<string, number>();
  for (const sample of binned) inBin.set(key(sample), (inBin.get(key(sample)) ?? 0) + 1);
  for (const sample of binned) {
    const { p, hit, bin } = sample;
    const weight = 1 / (inBin.get(key(sample)) ?? 1);
    count[bin] = (count[bin] ?? 0) + weight;
    rawSum[bin] = (rawSum[bin] ?? 0) + p * weight;
    hits[bin] = (hits[bin] ?? 0) + hit * weight;
  }
  const identity = identityKnots();
  const m = settings.priorSamples;
  // Each bin's knot: its samples' mean raw probability (the identity's knot when it has none).
  const raw = identity.map((knot, b) => ((count[b] ?? 0) > 0 ? (rawSum[b] ?? 0) / (count[b] ?? 1) : knot));
  const shrunk = raw.map((knot, b) => ((hits[b] ?? 0) + m * prior(knot)) / ((count[b] ?? 0) + m));
  const weights = count.map((n) => n + m);
  // Knots must rise strictly for the interpolation: a pooled run keeps its mean raw probability per knot.
  return { calibrated: monotone(shrunk, weights), raw, samples: count, hits };
}
