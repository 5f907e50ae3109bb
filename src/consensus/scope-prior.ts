// A scope's population prior (for crowds like bench/quality's `web`, where 177 sparse annotators are weaker than the
// contract's r0 = 0.7 assumes): after a re-fit, what the scope assumes of an annotator before their own
// answers say otherwise is its typical annotator — the average of the annotators' confusion matrices, each
// weighted by how well its matrix is known (the back-off weight n/(n + backoffAnswers)) — shrunk towards r0
// by populationPriorAnswers pseudo-answers per row. Before the first re-fit a scope uses r0 exactly.
import { LABEL_MODEL, NEW_SCOPE_PRIOR, priorCell, type LabelModelSettings, type ScopePrior } from './label-model.ts';

/** Every annotator's counts in one scope, as the re-fit holds them: annotator a's K×K at [a·K², (a+1)·K²). */
export interface ScopeCounts {
  optionCount: number;
  matrices: ArrayLike<number>;
  correct: ArrayLike<number>;
  answered: ArrayLike<number>;
}

/** The population prior of a scope's counts (a scope with no answers gets the contract's r0). */
export function populationPrior(counts: ScopeCounts, settings: LabelModelSettings = LABEL_MODEL): ScopePrior {
  const K = counts.optionCount;
  const KK = K * K;
  const pooled = new Float64Array(KK);
  let correct = 0;
  let answered = 0;
  for (let a = 0; a < counts.answered.length; a++) {
    const n = counts.answered[a] ?? 0;
    if (n === 0) continue;
    // An annotator's matrix, normalised and weighted by n/(n + b): at most one annotator's worth each.
    const scale = 1 / (n + settings.backoffAnswers);
    for (let c = 0; c < KK; c++) pooled[c] = (pooled[c] ?? 0) + scale * (counts.matrices[a * KK + c] ?? 0);
    correct += scale * (counts.correct[a] ?? 0);
    answered += scale * n;
  }
  const lambda = settings.populationPriorAnswers;
  const shape = new Array<number>(KK);
  for (let k = 0; k < K; k++) {
    let rowTotal = 0;
    for (let l = 0; l < K; l++) rowTotal += pooled[k * K + l] ?? 0;
    for (let l = 0; l < K; l++) shape[k * K + l] = ((pooled[k * K + l] ?? 0) + lambda * priorCell(NEW_SCOPE_PRIOR, K, k, l)) / (rowTotal + lambda);
  }
  const reliability = (correct + lambda * K * NEW_SCOPE_PRIOR.reliability) / (answered + lambda * K);
  return { reliability, shape };
}

/**
 * A scope's class prior: how often each option is the truth, from the re-fit's item posteriors (`sums[k]` =
 * Σ over `items` tasks of P(option k)), smoothed with `classPriorItems` pseudo-tasks per option so that a
 * young scope stays near uniform and an early run of one option cannot lock it in: (Σ_k + λ) / (N + Kλ).
 */
export function classPrior(sums: ArrayLike<number>, items: number, settings: LabelModelSettings = LABEL_MODEL): number[] {
  const K = sums.length;
  const lambda = settings.classPriorItems;
  return Array.from({ length: K }, (_, k) => ((sums[k] ?? 0) + lambda) / (items + K * lambda));
}
