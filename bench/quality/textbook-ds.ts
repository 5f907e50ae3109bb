// The reference the service's re-fit is held to: Dawid & Skene (1979) as textbooks write it, written
// plainly and apart from the service's code. One full K×K confusion matrix per worker (maximum likelihood,
// with a hair of smoothing so no cell is 0), a class prior learned as the mean posterior, EM from majority
// vote until no posterior moves by more than 1e-6 (at most 200 iterations).
import type { IndexedDataset } from './indexed.ts';
import { expectedHit } from './random.ts';

const SMOOTHING = 0.01;

/** Every item's posterior over the classes after EM over all answers. */
export function textbookDawidSkene(data: IndexedDataset): number[][] {
  const K = data.classes.length;
  // Majority vote (vote shares) to start.
  let T = data.itemAnswers.map((answers) => {
    const votes = new Array<number>(K).fill(0);
    for (const a of answers) votes[a.label] = (votes[a.label] ?? 0) + 1 / answers.length;
    return votes;
  });
  for (let iteration = 0; iteration < 200; iteration++) {
    // M-step: the class prior and every worker's confusion matrix from the posteriors.
    const prior = new Array<number>(K).fill(0);
    for (const t of T) for (let k = 0; k < K; k++) prior[k] = (prior[k] ?? 0) + (t[k] ?? 0) / T.length;
    const confusion = Array.from({ length: data.workerCount }, () => Array.from({ length: K }, () => new Array<number>(K).fill(SMOOTHING)));
    data.itemAnswers.forEach((answers, i) => {
      for (const a of answers) {
        const matrix = confusion[a.worker] as number[][];
        for (let k = 0; k < K; k++) (matrix[k] as number[])[a.label] = ((matrix[k] as number[])[a.label] ?? 0) + ((T[i] as number[])[k] ?? 0);
      }
    });
    for (const matrix of confusion) {
      for (const row of matrix) {
        const total = row.reduce((sum, value) => sum + value, 0);
        for (let l = 0; l < K; l++) row[l] = (row[l] ?? 0) / total;
      }
    }
    // E-step: each item's posterior.
    let change = 0;
    T = data.itemAnswers.map((answers, i) => {
      const log = prior.map((p) => Math.log(Math.max(p, 1e-300)));
      for (const a of answers) for (let k = 0; k < K; k++) log[k] = (log[k] ?? 0) + Math.log(confusion[a.worker]?.[k]?.[a.label] ?? 1e-300);
      const top = Math.max(...log);
      const exps = log.map((value) => Math.exp(value - top));
      const total = exps.reduce((sum, value) => sum + value, 0);
      const posterior = exps.map((value) => value / total);
      posterior.forEach((value, k) => (change = Math.max(change, Math.abs(value - ((T[i] as number[])[k] ?? 0)))));
      return posterior;
    });
    if (change < 1e-6) break;
  }
  return T;
}

/** Textbook Dawid–Skene's accuracy over the items with a truth (ties split evenly). */
export function textbookAccuracy(data: IndexedDataset): number {
  const T = textbookDawidSkene(data);
  let correct = 0;
  let scored = 0;
  data.truth.forEach((truth, i) => {
    if (truth < 0) return;
    scored += 1;
    correct += expectedHit(T[i] ?? [], truth);
  });
  return correct / scored;
}
