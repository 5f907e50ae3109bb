// The worker thread that runs one scope's re-fit (refit-thread.ts starts it), so that seconds of EM at
// millions of answers never hold the service's event loop. It receives the scope's typed arrays
// (transferred, not copied), answers with fitted − snapshot per annotator, the rows to write in
// annotator-id order, the new prior (transferred back), class prior and calibration map, and exits.
// A single-choice scope is fitted by Dawid–Skene (refitScope); a rating scope by the rating model's EM
// (refitRatings), whose counts have the same L×L shape and whose typical rater is stored as the prior.
import { parentPort, workerData } from 'node:worker_threads';
import { IDENTITY_CALIBRATION } from '../../consensus/calibration.ts';
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

const single = answerKind === 'rating' ? null : refitScope(answers, options);
const fit = single ?? refitRatingScope();
let countedAnswers = 0;
for (const n of fit.answered) countedAnswers += n;
const deltas = subtractSnapshot(fit, snapshot, answers.optionCount);
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
