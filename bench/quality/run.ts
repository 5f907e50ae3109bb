// bench/quality: replays a crowd dataset (answers.csv: question,worker,answer; truth.csv: question,truth)
// through the service's own consensus and reliability code, and compares with majority vote on the same
// answers and with Dawid–Skene on all answers. Usage: npm run bench:quality -- <dataset-dir> [--seed N]
// (without --seed: the mean of ten replays, seeds 1–10).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { decide } from '../../src/consensus/consensus.ts';
import { reliability, type AnnotatorStats } from '../../src/consensus/reputation.ts';
import { DEFAULT_VALIDATIONS_NEEDED, maxResponsesFor } from '../../src/modules/tasks/task-rules.ts';
import { dawidSkene, type Label } from './dawid-skene.ts';

const THRESHOLD = 0.75;

/** A small seeded PRNG (mulberry32), so a run can be repeated exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function majority(labels: string[], classes: string[], random: () => number): string {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const tied = classes.filter((c) => counts.get(c) === top);
  return tied[Math.floor(random() * tied.length)] as string;
}

interface Replay {
  decided: number;
  correct: number;
  used: number;
  mvCorrect: number;
}

/**
 * The service's replay with one seed: the tasks (those with a known truth) in random order, each
 * task's answers in random order, stopping where the service stops (consensus reached, or maxResponses
 * without it); then majority vote (random tie-break) on exactly the answers each task used.
 */
function replay(tasks: string[], byItem: Map<string, Label[]>, truth: Map<string, string>, classes: string[], seed: number): Replay {
  const random = prng(seed);
  const validationsNeeded = DEFAULT_VALIDATIONS_NEEDED;
  const maxResponses = maxResponsesFor(validationsNeeded);
  const stats = new Map<string, AnnotatorStats>();
  const statsOf = (worker: string) => {
    let s = stats.get(worker);
    if (!s) stats.set(worker, (s = { goldenAnswered: 0, goldenCorrect: 0, resolvedResponses: 0, agreedResponses: 0 }));
    return s;
  };
  const outcome: Replay = { decided: 0, correct: 0, used: 0, mvCorrect: 0 };
  const usedPerItem = new Map<string, Label[]>();
  for (const item of shuffle(tasks, random)) {
    const taken: Label[] = [];
    for (const answer of shuffle(byItem.get(item) ?? [], random)) {
      taken.push(answer);
      const decision = decide({
        options: classes,
        answers: taken.map((a) => ({ answer: a.label, reliability: reliability(statsOf(a.worker)) })),
        validationsNeeded,
        maxResponses,
        threshold: THRESHOLD,
      });
      if (decision.kind === 'continue') continue;
      if (decision.kind === 'complete') {
        outcome.decided += 1;
        if (decision.result === truth.get(item)) outcome.correct += 1;
        for (const a of taken) {
          const s = statsOf(a.worker);
          s.resolvedResponses += 1;
          if (a.label === decision.result) s.agreedResponses += 1;
        }
      }
      break;
    }
    outcome.used += taken.length;
    usedPerItem.set(item, taken);
  }
  for (const [item, taken] of usedPerItem) {
    if (majority(taken.map((a) => a.label), classes, random) === truth.get(item)) outcome.mvCorrect += 1;
  }
  return outcome;
}

/** One seed moves the figures by ±2 points, so by default ten replays (seeds 1–10) are averaged. */
const DEFAULT_SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

function main() {
  const args = process.argv.slice(2);
  const dir = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--seed');
  if (!dir) throw new Error('usage: npm run bench:quality -- <dataset-dir> [--seed N]');
  const seedIndex = args.indexOf('--seed');
  const seeds = seedIndex >= 0 ? [Number(args[seedIndex + 1])] : DEFAULT_SEEDS;
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error('--seed takes a whole number');

  const answers = (parse(readFileSync(path.join(dir, 'answers.csv')), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>).map(
    (row): Label => ({ item: String(row.question), worker: String(row.worker), label: String(row.answer) }),
  );
  const truthRows = parse(readFileSync(path.join(dir, 'truth.csv')), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  const truth = new Map(truthRows.map((row) => [String(row.question), String(row.truth)]));
  const classes = [...new Set([...answers.map((a) => a.label), ...truth.values()])].sort();
  const byItem = new Map<string, Label[]>();
  for (const answer of answers) {
    const list = byItem.get(answer.item) ?? [];
    list.push(answer);
    byItem.set(answer.item, list);
  }
  const tasks = [...byItem.keys()].filter((item) => truth.has(item));
  const answersWithTruth = answers.filter((a) => truth.has(a.item)).length;

  // Dawid–Skene on every answer: the same for every seed.
  const ds = dawidSkene(answers, classes);
  const dsCorrect = tasks.filter((item) => ds.get(item) === truth.get(item)).length;

  const replays = seeds.map((seed) => replay(tasks, byItem, truth, classes, seed));
  const mean = (figure: (r: Replay) => number) => replays.reduce((sum, r) => sum + figure(r), 0) / replays.length;
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'quality',
      dataset: path.basename(path.resolve(dir)),
      accuracy: round(mean((r) => r.correct / r.decided)),
      decidedShare: round(mean((r) => r.decided / tasks.length)),
      answersUsedShare: round(mean((r) => r.used / answersWithTruth)),
      mvSameBudgetAccuracy: round(mean((r) => r.mvCorrect / tasks.length)),
      dsAllAnswersAccuracy: round(dsCorrect / tasks.length),
    })}\n`,
  );
}

main();
