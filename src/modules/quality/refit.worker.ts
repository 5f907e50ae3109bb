// The worker thread that runs one scope's Dawid–Skene re-fit (refit-thread.ts starts it), so that seconds
// of EM at millions of answers never hold the service's event loop. It receives the scope's typed
// arrays (transferred, not copied), answers with fitted − snapshot per annotator, the rows to write in
// annotator-id order, the new prior (transferred back), class prior and calibration map, and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { refitScope } from '../../consensus/refit.ts';
import { subtractSnapshot, writeOrder } from './counts-delta.ts';
import type { FitMessage, FitRequest } from './refit-thread.ts';

const { answers, snapshot, annotatorIds, options } = workerData as FitRequest;
const fit = refitScope(answers, options);
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
  start: fit.start,
  decidedAgreement: fit.decidedAgreement,
  goldenSetAside: fit.goldenSetAside.reduce((n, aside) => n + aside, 0),
};
const transfer = [write.matrices, write.correct, write.answered, write.changed, write.order, ...(shape ? [shape] : [])].map(
  (array) => array.buffer as ArrayBuffer,
);
parentPort?.postMessage(message, transfer);
