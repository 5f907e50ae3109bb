// The worker thread that runs one scope's re-fit (refit-thread.ts starts it), so that seconds of EM at
// millions of answers never hold the service's event loop. It receives the scope's typed arrays
// (transferred, not copied), answers with fitted − snapshot per annotator, the rows to write in
// annotator-id order, the new prior (transferred back), class prior and calibration map, and exits.
// A single-choice scope is fitted by Dawid–Skene (refitScope); a rating scope by the rating model's EM
// (refitRatings), whose counts have the same L×L shape and whose typical rater is stored as the prior; a
// multi-select scope by its EM (refitMulti): four counts per annotator, the typical annotator's
// [sensitivity, specificity] as the prior, and a class prior per option; a pairwise scope by the pairwise
// model's EM (refitPairs): a 3×3 table as shown per annotator, the typical annotator's [bias, reliability]
// as the prior, and the class prior over A, B and tie.
import { parentPort, workerData } from 'node:worker_threads';
import { IDENTITY_CALIBRATION } from '../../consensus/calibration.ts';
import { countsSideOf } from '../../consensus/kinds/multi-task.ts';
import { optionsRight, refitMulti } from '../../consensus/kinds/multi.ts';
import { storedPairClassPrior } from '../../consensus/kinds/pairwise-task.ts';
import { refitPairs } from '../../consensus/kinds/pairwise.ts';
import { refitRatings } from '../../consensus/kinds/rating.ts';
import { refitScope, type RefitResult } from '../../consensus/refit.ts';
import { subtractSnapshot, writeOrder } from './counts-delta.ts';
import type { FitMessage, FitRequest } from './refit-thread.ts';

const { answers, snapshot, annotatorIds, options, answerKind } = workerData as FitRequest;

/** A rating scope's fit in refitScope's terms: `correct` is each table's diagonal, the prior the typical rater. */
function refitRatingScope(): Pick<RefitResult, 'matrices' | 'correct' | 'answered' | 'prior' | 'classPrior' | 'calibration' | 'iterations'> {
  const L = answers.optionCount;
  const fit = refitRatings({ ...answers, levelCount: L });
  const correct = new Float64Array(answers.annotatorCount);
  for (let a = 0; a < answers.annotatorCount; a++) {
    for (let l = 0; l < L; l++) correct[a] = (correct[a] ?? 0) + (fit.counts[a * L * L + l * L + l] ?? 0);
  }
  const { bias, spread, lapse } = fit.prior;
  return {
    matrices: fit.counts,
    correct,
    answered: fit.answered,
    prior: { reliability: 1 - lapse, shape: Float64Array.of(bias, spread, lapse) },
    classPrior: fit.classPrior,
    calibration: IDENTITY_CALIBRATION,
    iterations: fit.iterations,
  };
}

/**
 * A multi-select scope's fit in refitScope's terms. Its answers and golden truths arrive as bit masks over
 * the options (quality.repository.ts); `answered` counts answers, `correct` the share of options each got right.
 */
function refitMultiScope(): Pick<RefitResult, 'matrices' | 'correct' | 'answered' | 'prior' | 'classPrior' | 'calibration' | 'iterations'> {
  const K = answers.optionCount;
  const ticks = new Uint8Array(answers.item.length * K);
  answers.answer.forEach((mask, j) => {
    for (let o = 0; o < K; o++) ticks[j * K + o] = (mask >> o) & 1;
  });
  const truth = answers.truth ? new Int8Array(answers.itemCount * K) : undefined;
  answers.truth?.forEach((mask, i) => {
    for (let o = 0; o < K; o++) if (truth) truth[i * K + o] = mask < 0 ? -1 : (mask >> o) & 1;
  });
  const { item, annotator, itemCount, annotatorCount, counted } = answers;
  const fit = refitMulti({ optionCount: K, itemCount, annotatorCount, item, annotator, ticks, ...(truth ? { truth } : {}), ...(counted ? { counted } : {}) });
  const correct = new Float64Array(answers.annotatorCount);
  const answered = new Float64Array(answers.annotatorCount);
  for (let a = 0; a < answers.annotatorCount; a++) {
    const counts = fit.counts.subarray(a * 4, a * 4 + 4);
    // Each answer adds one count per option.
    answered[a] = counts.reduce((sum, n) => sum + n, 0) / K;
    correct[a] = optionsRight(counts, K);
  }
  const { sensitivity, specificity } = fit.prior;
  return {
    matrices: fit.counts,
    correct,
    answered,
    prior: { reliability: (sensitivity + specificity) / 2, shape: Float64Array.of(sensitivity, specificity) },
    classPrior: fit.classPrior,
    calibration: IDENTITY_CALIBRATION,
    iterations: fit.iterations,
  };
}

/**
 * A pairwise scope's fit in refitScope's terms. Each answer arrives as its choice (0 A, 1 B, 2 tie) plus 3
 * when B was shown first (quality.repository.ts); an item on its own options (A and B) allows no tie.
 */
function refitPairScope(): Pick<RefitResult, 'matrices' | 'correct' | 'answered' | 'prior' | 'classPrior' | 'calibration' | 'iterations'> {
  const { item, annotator, itemCount, annotatorCount, counted, truth } = answers;
  const choice = new Uint8Array(item.length);
  const aLeft = new Uint8Array(item.length);
  answers.answer.forEach((code, j) => {
    choice[j] = code % 3;
    aLeft[j] = code < 3 ? 1 : 0;
  });
  const allowTie = new Uint8Array(itemCount);
  for (let i = 0; i < itemCount; i++) allowTie[i] = (answers.itemOptionCount?.[i] ?? 0) === 0 ? 1 : 0;
  const fit = refitPairs({ itemCount, annotatorCount, item, annotator, choice, aLeft, allowTie, ...(truth ? { truth } : {}), ...(counted ? { counted } : {}) });
  const matrices = new Float64Array(annotatorCount * 9);
  const correct = new Float64Array(annotatorCount);
  const answered = new Float64Array(annotatorCount);
  fit.counts.forEach(({ shown }, a) => {
    for (let c = 0; c < 9; c++) {
      const n = shown[c] ?? 0;
      matrices[a * 9 + c] = n;
      answered[a] = (answered[a] ?? 0) + n;
      if (c % 4 === 0) correct[a] = (correct[a] ?? 0) + n;
    }
  });
  const { bias, reliability } = fit.prior;
  return {
    matrices,
    correct,
    answered,
    prior: { reliability, shape: Float64Array.of(bias, reliability) },
    classPrior: storedPairClassPrior(fit.classPrior),
    calibration: IDENTITY_CALIBRATION,
    iterations: fit.iterations,
  };
}

const KIND_FITS = { multi: refitMultiScope, rating: refitRatingScope, pairwise: refitPairScope } as const;
const single = answerKind === 'single' ? refitScope(answers, options) : null;
const fit = single ?? KIND_FITS[answerKind as keyof typeof KIND_FITS]();
let countedAnswers = 0;
for (const n of fit.answered) countedAnswers += n;
const deltas = subtractSnapshot(fit, snapshot, countsSideOf(answerKind, answers.optionCount));
const write = { ...deltas, order: writeOrder(deltas.changed, annotatorIds) };
const shape = fit.prior.shape ? Float64Array.from(fit.prior.shape) : null;
// The item posteriors stay here: the job stores counts and the prior only.
const message: FitMessage = {
  write,
  countedAnswers,
  prior: { reliability: fit.prior.reliability, shape },
  classPrior: fit.classPrior,
  calibration: fit.calibration,
  iterations: fit.iterations,
  start: single?.start ?? 'majority',
  decidedAgreement: single?.decidedAgreement ?? null,
  goldenSetAside: single ? single.goldenSetAside.reduce((n, aside) => n + aside, 0) : 0,
};
const transfer = [write.matrices, write.correct, write.answered, write.changed, write.order, ...(shape ? [shape] : [])].map(
  (array) => array.buffer as ArrayBuffer,
);
parentPort?.postMessage(message, transfer);
