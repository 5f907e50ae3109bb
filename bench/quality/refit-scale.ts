// The re-fit at the scale the job must handle: Dawid–Skene EM (src/consensus/refit.ts, the function the worker will
// run) over a synthetic scope of 10 M answers on 1 M tasks, measuring time and peak memory.
// Usage: npx tsx bench/quality/refit-scale.ts [--answers N] [--tasks N] [--annotators N] [--options K] [--unsorted] [--golden S]
// The generator: each annotator has a fixed kind — good (right 85 %), weak (60 %), biased (says option 0
// half the time whatever the truth) or a spammer (uniform at random) — and tasks draw their answerers at
// random. Answers come sorted by task (as `ORDER BY task_id` delivers them) unless --unsorted, which
// shuffles them and makes the re-fit build its own index (one more Int32Array per answer).
import { performance } from 'node:perf_hooks';
import { refitScope, type ScopeAnswers } from '../../src/consensus/refit.ts';
import { prng } from './random.ts';
import { wholeNumberArgument } from '../lib.ts';

const KINDS = ['good', 'weak', 'biased', 'spammer'] as const;
const KIND_SHARES = [0.5, 0.3, 0.1, 0.1];

/** One synthetic scope: answers sorted by task, and each task's truth. */
function generate(answers: number, tasks: number, annotators: number, K: number, random: () => number) {
  const kind = Uint8Array.from({ length: annotators }, () => {
    let u = random();
    for (let k = 0; k < KINDS.length; k++) if ((u -= KIND_SHARES[k] ?? 0) < 0) return k;
    return 0;
  });
  const truth = Int32Array.from({ length: tasks }, () => Math.floor(random() * K));
  const item = new Int32Array(answers);
  const annotator = new Int32Array(answers);
  const answer = new Int32Array(answers);
  const other = (t: number) => (t + 1 + Math.floor(random() * (K - 1))) % K;
  for (let j = 0; j < answers; j++) {
    const i = Math.floor((j * tasks) / answers);
    const a = Math.floor(random() * annotators);
    const t = truth[i] ?? 0;
    item[j] = i;
    annotator[j] = a;
    switch (KINDS[kind[a] ?? 0]) {
      case 'good':
        answer[j] = random() < 0.85 ? t : other(t);
        break;
      case 'weak':
        answer[j] = random() < 0.6 ? t : other(t);
        break;
      case 'biased':
        answer[j] = random() < 0.5 ? 0 : random() < 0.7 ? t : other(t);
        break;
      default:
        answer[j] = Math.floor(random() * K);
    }
  }
  return { item, annotator, answer, truth };
}

/** Fisher–Yates over the three parallel arrays, so the re-fit has to index the answers itself. */
function shuffleAnswers(data: { item: Int32Array; annotator: Int32Array; answer: Int32Array }, random: () => number) {
  for (let j = data.item.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1));
    for (const array of [data.item, data.annotator, data.answer]) {
      const swap = array[j] ?? 0;
      array[j] = array[k] ?? 0;
      array[k] = swap;
    }
  }
}

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

function main() {
  const answers = wholeNumberArgument('answers', 10_000_000);
  const tasks = wholeNumberArgument('tasks', 1_000_000);
  const annotators = wholeNumberArgument('annotators', 20_000);
  const K = wholeNumberArgument('options', 4);
  const unsorted = process.argv.includes('--unsorted');
  const random = prng(1);
  const generated = generate(answers, tasks, annotators, K, random);
  if (unsorted) shuffleAnswers(generated, random);
  // Not the truth: given to the re-fit it would mean every task is golden. --golden S gives it for a
  // share S of the tasks (every 1/S-th), as the service gives its golden tasks' truth.
  const goldenIndex = process.argv.indexOf('--golden');
  const goldenShare = goldenIndex >= 0 ? Number(process.argv[goldenIndex + 1]) : 0;
  const { item, annotator, answer } = generated;
  const truth = goldenShare > 0 ? Int32Array.from(generated.truth, (t, i) => (i % Math.round(1 / goldenShare) === 0 ? t : -1)) : undefined;
  const data: ScopeAnswers = { optionCount: K, itemCount: tasks, annotatorCount: annotators, item, annotator, answer, truth };
  const before = process.memoryUsage();
  const started = performance.now();
  const fit = refitScope(data);
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  let correct = 0;
  for (let i = 0; i < tasks; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if ((fit.posteriors[i * K + k] ?? 0) > (fit.posteriors[i * K + best] ?? 0)) best = k;
    if (best === generated.truth[i]) correct += 1;
  }
  let majority = 0;
  const votes = new Int32Array(K);
  for (let i = 0, j = 0; i < tasks; i++) {
    votes.fill(0);
    // Majority vote on the same answers (sorted input only: answers of task i are contiguous).
    for (; j < answers && generated.item[j] === i; j++) votes[generated.answer[j] ?? 0] = (votes[generated.answer[j] ?? 0] ?? 0) + 1;
    let best = 0;
    for (let k = 1; k < K; k++) if ((votes[k] ?? 0) > (votes[best] ?? 0)) best = k;
    if (best === generated.truth[i]) majority += 1;
  }
  process.stdout.write(
    `${JSON.stringify({
      bench: 'refit-scale',
      answers,
      tasks,
      annotators,
      options: K,
      sortedInput: !unsorted,
      goldenShare,
      goldenSetAside: fit.goldenSetAside.reduce((n, aside) => n + aside, 0),
      iterations: fit.iterations,
      seconds: Math.round(seconds * 10) / 10,
      secondsPerIteration: Math.round((seconds / fit.iterations) * 100) / 100,
      inputMb: mb(answers * 3 * 4),
      rssBeforeMb: mb(before.rss),
      peakRssMb,
      accuracy: Math.round((correct / tasks) * 10_000) / 10_000,
      majorityVoteAccuracy: unsorted ? null : Math.round((majority / tasks) * 10_000) / 10_000,
    })}\n`,
  );
}

main();
