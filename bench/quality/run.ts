// bench/quality: replays a crowd dataset through the service's own consensus code and prints one JSON line.
// Usage: npm run bench:quality -- <dataset-dir> [--seed N] (without --seed: the mean of seeds 1–10).
// Figures (bench/README.md): the learned model's accuracy on COMPLETED tasks, its completed share, its
// accuracy on every scored task, its share of the answers; majority vote over all tasks at the same
// budget; the service's Dawid–Skene re-fit on every answer; today's rule replayed the same way.
import { refitScope } from '../../src/consensus/refit.ts';
import { replayContractRule } from './contract-replay.ts';
import { readDataset } from './dataset.ts';
import { indexDataset, type IndexedDataset } from './indexed.ts';
import { majorityAtBudget } from './majority-budget.ts';
import { replayModel, type ReplayOutcome } from './model-replay.ts';
import { expectedHit, prng, shuffle } from './random.ts';

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

function parseArgs(argv: string[]): { dir: string; seeds: number[] } {
  const dir = argv.find((arg, i) => !arg.startsWith('--') && argv[i - 1] !== '--seed');
  if (!dir) throw new Error('usage: npm run bench:quality -- <dataset-dir> [--seed N]');
  const seedIndex = argv.indexOf('--seed');
  const seeds = seedIndex >= 0 ? [Number(argv[seedIndex + 1])] : DEFAULT_SEEDS;
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error('--seed takes a whole number');
  return { dir, seeds };
}

function main() {
  const { dir, seeds } = parseArgs(process.argv.slice(2));
  const data = indexDataset(readDataset(dir));
  const figures = seeds.map((seed): SeedFigures => {
    const model = replayModel(data, seed);
    return {
      model,
      contract: replayContractRule(data, seed),
      mvSameBudget: majorityAtBudget(data, randomOrders(data, seed), model.usedScored),
    };
  });
  const mean = (figure: (f: SeedFigures) => number) => figures.reduce((sum, f) => sum + figure(f), 0) / figures.length;
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'quality',
      dataset: data.name,
      accuracy: round(mean((f) => f.model.completedCorrect / Math.max(1, f.model.completed))),
      completedShare: round(mean((f) => f.model.completed / f.model.scored)),
      accuracyAll: round(mean((f) => f.model.correctAll / f.model.scored)),
      answersUsedShare: round(mean((f) => f.model.usedAll / data.answerCount)),
      mvSameBudgetAccuracy: round(mean((f) => f.mvSameBudget)),
      dsAllAnswersAccuracy: round(refitAllAnswersAccuracy(data)),
      contractRuleAccuracyAll: round(mean((f) => f.contract.correctAll / f.contract.scored)),
      contractRuleAnswersUsedShare: round(mean((f) => f.contract.usedAll / data.answerCount)),
    })}\n`,
  );
}

main();
