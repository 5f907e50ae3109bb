// bench/quality: replays a crowd dataset through the service's own consensus code and prints one JSON line.
// Usage: npm run bench:quality -- <dataset-dir> [--seed N] [--skew S] [--target T] (without --seed: the mean of
// seeds 1–10; --target: the target confidence the replay's tasks complete at, 0.95 by default).
// Each replay draws a seeded 5 % of the items with a truth as golden tasks: served and learned from as the
// service does (every answer taken, the counts taught with the truth, the calibration fitted on them), never
// scored and never counted in the figures, majority vote's included.
// Figures (bench/README.md): the learned model's accuracy on COMPLETED tasks (`completedAccuracy`, and
// `accuracy`, its old name, kept for one release), its completed share, its accuracy on every scored task,
// its share of the answers; the calibration error of the confidence it reported on every scored task; the
// accuracy GET /projects/:id/quality would estimate for the completed tasks; majority vote over all tasks at
// the same budget; the service's Dawid–Skene re-fit on every answer against textbook Dawid–Skene; the
// contract's first rule replayed the same way.
// --skew S keeps every item of the most frequent true class and a seeded random subset of the others, so
// that the most frequent class is a share S of the items with a truth (a dataset already as skewed is kept
// whole; items without a truth are dropped).
// npm run bench:quality -- --kind K [--seed N] runs the simulated-crowd benchmark of answer kind K (rating,
// multi, …, or all of them) instead, one JSON line per kind (kinds.ts).
import { refitScope } from '../../src/consensus/refit.ts';
import { replayContractRule } from './contract-replay.ts';
import { readDataset } from './dataset.ts';
import { indexDataset, type IndexedDataset } from './indexed.ts';
import { kindFigures } from './kinds.ts';
import { majorityAtBudget } from './majority-budget.ts';
import { calibrationError, drawGolden, replayModel, SERVICE_REPLAY, type ReplayOutcome } from './model-replay.ts';
import { expectedHit, prng, shuffle } from './random.ts';
import { textbookAccuracy } from './textbook-ds.ts';

/** One seed moves the figures by a point or two, so by default ten replays (seeds 1–10) are averaged. */
const DEFAULT_SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

/** The re-fit over every answer of the dataset, scored on the items with a truth. */
function refitAllAnswersAccuracy(data: IndexedDataset): number {
  const item: number[] = [];
  const annotator: number[] = [];
  const answer: number[] = [];
  data.itemAnswers.forEach((answers, i) => {
    for (const a of answers) {
      item.push(i);
      annotator.push(a.worker);
      answer.push(a.label);
    }
  });
  const fit = refitScope({
    optionCount: data.classes.length,
    itemCount: data.itemAnswers.length,
    annotatorCount: data.workerCount,
    item: Int32Array.from(item),
    annotator: Int32Array.from(annotator),
    answer: Int32Array.from(answer),
  });
  let correct = 0;
  let scored = 0;
  data.truth.forEach((truth, i) => {
    if (truth < 0) return;
    scored += 1;
    correct += expectedHit(Array.from(fit.posteriors.subarray(fit.posteriorStart[i], fit.posteriorStart[i + 1])), truth);
  });
  return correct / scored;
}

/** Every item's answers in a random order: the draws majority vote at fixed overlaps is measured on. */
function randomOrders(data: IndexedDataset, seed: number) {
  const random = prng(seed ^ 0x9e3779b9);
  return data.itemAnswers.map((answers) => shuffle(answers, random));
}

interface SeedFigures {
  model: ReplayOutcome;
  contract: ReplayOutcome;
  mvSameBudget: number;
}

function parseArgs(argv: string[]): { dir: string; seeds: number[]; skew: number | null; target: number } {
  const dir = argv.find((arg, i) => !arg.startsWith('--') && !['--seed', '--skew', '--target'].includes(argv[i - 1] ?? ''));
  if (!dir) throw new Error('usage: npm run bench:quality -- <dataset-dir> [--seed N] [--skew S] [--target T]');
  const seedIndex = argv.indexOf('--seed');
  const seeds = seedIndex >= 0 ? [Number(argv[seedIndex + 1])] : DEFAULT_SEEDS;
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error('--seed takes a whole number');
  const skewIndex = argv.indexOf('--skew');
  const skew = skewIndex >= 0 ? Number(argv[skewIndex + 1]) : null;
  if (skew !== null && !(skew > 0 && skew < 1)) throw new Error('--skew takes a share between 0 and 1, e.g. 0.9');
  const targetIndex = argv.indexOf('--target');
  const target = targetIndex >= 0 ? Number(argv[targetIndex + 1]) : SERVICE_REPLAY.targetConfidence;
  if (!(target >= 0.5 && target < 1)) throw new Error('--target takes a confidence from 0.5 to 0.999');
  return { dir, seeds, skew, target };
}

/** The dataset skewed so that its most frequent true class is a share `skew` of its items (see the header). */
function skewDataset(data: IndexedDataset, skew: number, seed = 1): IndexedDataset {
  const withTruth = data.itemAnswers.map((_, i) => i).filter((i) => (data.truth[i] ?? -1) >= 0);
  const frequency = new Array<number>(data.classes.length).fill(0);
  for (const i of withTruth) frequency[data.truth[i] ?? 0] = (frequency[data.truth[i] ?? 0] ?? 0) + 1;
  const majority = frequency.indexOf(Math.max(...frequency));
  const majorityItems = withTruth.filter((i) => data.truth[i] === majority);
  const others = withTruth.filter((i) => data.truth[i] !== majority);
  const keepOthers = Math.min(others.length, Math.round((majorityItems.length * (1 - skew)) / skew));
  const kept = [...majorityItems, ...shuffle(others, prng(seed ^ 0x2545f491)).slice(0, keepOthers)].sort((a, b) => a - b);
  const itemAnswers = kept.map((i) => data.itemAnswers[i] ?? []);
  return {
    ...data,
    name: `${data.name}@skew${skew}`,
    itemAnswers,
    truth: Int32Array.from(kept.map((i) => data.truth[i] ?? -1)),
    answerCount: itemAnswers.reduce((sum, answers) => sum + answers.length, 0),
  };
}

/** The dataset with the golden items' truths hidden: what majority vote and the first rule are scored on. */
function withoutGolden(data: IndexedDataset, golden: Int32Array): IndexedDataset {
  return { ...data, truth: data.truth.map((truth, i) => ((golden[i] ?? -1) >= 0 ? -1 : truth)) };
}

function main() {
  const { dir, seeds, skew, target } = parseArgs(process.argv.slice(2));
  const read = indexDataset(readDataset(dir));
  const data = skew === null ? read : skewDataset(read, skew);
  const figures = seeds.map((seed): SeedFigures => {
    const model = replayModel(data, seed, { ...SERVICE_REPLAY, targetConfidence: target });
    const scored = withoutGolden(data, drawGolden(data, seed, SERVICE_REPLAY.goldenShare));
    return {
      model,
      contract: replayContractRule(scored, seed),
      mvSameBudget: majorityAtBudget(scored, randomOrders(scored, seed), model.usedScored),
    };
  });
  const mean = (figure: (f: SeedFigures) => number) => figures.reduce((sum, f) => sum + figure(f), 0) / figures.length;
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  // The completed tasks' figures are the mean over the replays that completed any: a replay that completed
  // nothing has no completed accuracy (averaged in as 0, it understated both figures).
  const completing = figures.filter((f) => f.model.completed > 0);
  const meanCompleted = (figure: (f: SeedFigures) => number) =>
    completing.length === 0 ? 0 : completing.reduce((sum, f) => sum + figure(f), 0) / completing.length;
  const completedAccuracy = meanCompleted((f) => f.model.completedCorrect / f.model.completed);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'quality',
      dataset: data.name,
      items: data.itemAnswers.length,
      goldenItems: figures[0]?.model.golden ?? 0,
      completedAccuracy: round(completedAccuracy),
      accuracy: round(completedAccuracy),
      estimatedAccuracy: round(meanCompleted((f) => f.model.completedConfidence / f.model.completed)),
      calibrationError: round(mean((f) => calibrationError(f.model.reported))),
      completedShare: round(mean((f) => f.model.completed / f.model.scored)),
      accuracyAll: round(mean((f) => f.model.correctAll / f.model.scored)),
      answersUsedShare: round(mean((f) => f.model.usedAll / data.answerCount)),
      goldenSetAside: round(mean((f) => f.model.goldenSetAside)),
      mvSameBudgetAccuracy: round(mean((f) => f.mvSameBudget)),
      dsAllAnswersAccuracy: round(refitAllAnswersAccuracy(data)),
      dsTextbookAccuracy: round(textbookAccuracy(data)),
      contractRuleAccuracyAll: round(mean((f) => f.contract.correctAll / f.contract.scored)),
      contractRuleAnswersUsedShare: round(mean((f) => f.contract.usedAll / data.answerCount)),
    })}\n`,
  );
}

/** --kind K [--seed N]: the kind benchmarks' lines (kinds.ts), on the same seeds as a dataset's replay. */
async function kindMain(argv: string[]) {
  const kind = argv[argv.indexOf('--kind') + 1];
  if (!kind || kind.startsWith('--')) throw new Error('usage: npm run bench:quality -- --kind <rating|multi|pairwise|text|all> [--seed N]');
  const seedIndex = argv.indexOf('--seed');
  const seeds = seedIndex >= 0 ? [Number(argv[seedIndex + 1])] : DEFAULT_SEEDS;
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error('--seed takes a whole number');
  for await (const line of kindFigures(kind, seeds)) process.stdout.write(`${JSON.stringify(line)}\n`);
}

if (process.argv.includes('--kind')) await kindMain(process.argv.slice(2));
else main();
