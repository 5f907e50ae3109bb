// A dataset as integers, as the service's re-fit sees a scope: options, items and workers numbered from 0.
import type { Dataset } from './dataset.ts';

export interface IndexedAnswer {
  worker: number;
  label: number;
}

export interface IndexedDataset {
  name: string;
  classes: string[];
  /** Every item that has answers, with its answers in file order. */
  itemAnswers: IndexedAnswer[][];
  /** Per item: the index of its true label, −1 when unknown. */
  truth: Int32Array;
  workerCount: number;
  answerCount: number;
}

/** Numbers the classes (sorted), the items that have answers, and the workers. */
export function indexDataset(dataset: Dataset): IndexedDataset {
  const classes = [...new Set([...dataset.answers.map((a) => a.label), ...dataset.truth.values()])].sort();
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const itemIndex = new Map<string, number>();
  const workerIndex = new Map<string, number>();
  const itemAnswers: IndexedAnswer[][] = [];
  const truthOf: number[] = [];
  for (const { item, worker, label } of dataset.answers) {
    let i = itemIndex.get(item);
    if (i === undefined) {
      itemIndex.set(item, (i = itemAnswers.length));
      itemAnswers.push([]);
      const truth = dataset.truth.get(item);
      truthOf.push(truth === undefined ? -1 : (classIndex.get(truth) ?? -1));
    }
    let w = workerIndex.get(worker);
    if (w === undefined) workerIndex.set(worker, (w = workerIndex.size));
    itemAnswers[i]?.push({ worker: w, label: classIndex.get(label) ?? 0 });
  }
  return {
    name: dataset.name,
    classes,
    itemAnswers,
    truth: Int32Array.from(truthOf),
    workerCount: workerIndex.size,
    answerCount: dataset.answers.length,
  };
}
