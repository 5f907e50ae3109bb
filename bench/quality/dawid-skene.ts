// Dawid–Skene (1979) EM with a full confusion matrix per worker: the reference the quality bench
// compares against. Initialised from majority vote; a little smoothing keeps rare cells finite.

export interface Label {
  item: string;
  worker: string;
  label: string;
}

export function dawidSkene(labels: Label[], classes: string[], iterations = 50): Map<string, string> {
  const K = classes.length;
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const items = [...new Set(labels.map((l) => l.item))];
  const workers = [...new Set(labels.map((l) => l.worker))];
  const itemIndex = new Map(items.map((item, i) => [item, i]));
  const workerIndex = new Map(workers.map((worker, i) => [worker, i]));
  const byItem: Array<Array<[number, number]>> = items.map(() => []);
  for (const { item, worker, label } of labels) {
    byItem[itemIndex.get(item) as number]?.push([workerIndex.get(worker) as number, classIndex.get(label) as number]);
  }
  // T[i][k]: probability that item i is of class k. Start from vote shares.
  let T = byItem.map((answers) => {
    const row = new Array<number>(K).fill(0);
    for (const [, k] of answers) row[k] = (row[k] ?? 0) + 1;
    const total = row.reduce((a, b) => a + b, 0) || 1;
    return row.map((v) => v / total);
  });
  const SMOOTH = 0.01;
  for (let iteration = 0; iteration < iterations; iteration++) {
    // M-step: class priors and confusion matrices.
    const prior = new Array<number>(K).fill(0);
    for (const row of T) row.forEach((p, k) => (prior[k] = (prior[k] ?? 0) + p));
    const priorTotal = prior.reduce((a, b) => a + b, 0);
    const pi = workers.map(() => Array.from({ length: K }, () => new Array<number>(K).fill(SMOOTH)));
    byItem.forEach((answers, i) => {
      for (const [w, l] of answers) {
        for (let k = 0; k < K; k++) {
          const matrix = pi[w] as number[][];
          (matrix[k] as number[])[l] = ((matrix[k] as number[])[l] ?? 0) + (T[i]?.[k] ?? 0);
        }
      }
    });
    for (const matrix of pi) for (const row of matrix) {
      const total = row.reduce((a, b) => a + b, 0);
      row.forEach((v, l) => (row[l] = v / total));
    }
    // E-step: posterior class of each item.
    T = byItem.map((answers) => {
      const logp = prior.map((p) => Math.log(p / priorTotal + 1e-12));
      for (const [w, l] of answers) for (let k = 0; k < K; k++) logp[k] = (logp[k] ?? 0) + Math.log(pi[w]?.[k]?.[l] ?? 1e-12);
      const top = Math.max(...logp);
      const exps = logp.map((v) => Math.exp(v - top));
      const total = exps.reduce((a, b) => a + b, 0);
      return exps.map((v) => v / total);
    });
  }
  const result = new Map<string, string>();
  items.forEach((item, i) => {
    const row = T[i] as number[];
    result.set(item, classes[row.indexOf(Math.max(...row))] as string);
  });
  return result;
}
