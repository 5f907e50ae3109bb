// bench/quality: replays a crowd dataset (answers.csv: question,worker,answer; truth.csv: question,truth)
// through the service's own consensus and reliability code, and compares with majority vote on the same
// answers and with Dawid–Skene on all answers. Usage: npm run bench:quality -- <dataset-dir> [--seed N]
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

function main() {
  const args = process.argv.slice(2);
  const dir = args.find((arg) => !arg.startsWith('--'));
  if (!dir) throw new Error('usage: npm run bench:quality -- <dataset-dir> [--seed N]');
  const seedIndex = args.indexOf('--seed');
  const seed = seedIndex >= 0 ? Number(args[seedIndex + 1]) : 42;
  const random = prng(seed);

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

  // The service's replay: tasks in random order, each task's answers in random order, stopping where
  // the service stops (consensus reached, or maxResponses without it).
  const validationsNeeded = DEFAULT_VALIDATIONS_NEEDED;
  const maxResponses = maxResponsesFor(validationsNeeded);
  const stats = new Map<string, AnnotatorStats>();
  const statsOf = (worker: string) => {
    let s = stats.get(worker);
    if (!s) stats.set(worker, (s = { goldenAnswered: 0, goldenCorrect: 0, resolvedResponses: 0, agreedResponses: 0 }));
    return s;
  };
  let used = 0;
  let decided = 0;
  let correct = 0;
  const usedPerItem = new Map<string, Label[]>();
  for (const item of shuffle([...byItem.keys()].filter((i) => truth.has(i)), random)) {
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
        decided += 1;
        if (decision.result === truth.get(item)) correct += 1;
        for (const a of taken) {
          const s = statsOf(a.worker);
          s.resolvedResponses += 1;
          if (a.label === decision.result) s.agreedResponses += 1;
        }
      }
      break;
    }
    used += taken.length;
    usedPerItem.set(item, taken);
  }

  // Baselines: majority vote on the same answers per task; Dawid–Skene on every answer.
  let mvCorrect = 0;
  for (const [item, taken] of usedPerItem) {
    if (majority(taken.map((a) => a.label), classes, random) === truth.get(item)) mvCorrect += 1;
  }
  const ds = dawidSkene(answers, classes);
  let dsCorrect = 0;
  for (const item of usedPerItem.keys()) if (ds.get(item) === truth.get(item)) dsCorrect += 1;

  const tasks = usedPerItem.size;
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'quality',
      dataset: path.basename(path.resolve(dir)),
      accuracy: round(correct / decided),
      decidedShare: round(decided / tasks),
      answersUsedShare: round(used / answers.filter((a) => truth.has(a.item)).length),
      mvSameBudgetAccuracy: round(mvCorrect / tasks),
      dsAllAnswersAccuracy: round(dsCorrect / tasks),
    })}\n`,
  );
}

main();
