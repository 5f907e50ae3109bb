// The worker thread that runs one scope's Dawid–Skene re-fit (refit-thread.ts starts it), so that seconds
// of EM at millions of answers never hold the service's event loop. It receives the scope's typed
// arrays (transferred, not copied), answers with the new counts and prior (transferred back), and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { refitScope, type RefitOptions, type ScopeAnswers } from '../../consensus/refit.ts';
import type { FitMessage } from './refit-thread.ts';

const { data, options } = workerData as { data: ScopeAnswers; options: RefitOptions };
const fit = refitScope(data, options);
const shape = fit.prior.shape ? Float64Array.from(fit.prior.shape) : null;
const message: FitMessage = {
  matrices: fit.matrices,
  correct: fit.correct,
  answered: fit.answered,
  prior: { reliability: fit.prior.reliability, shape },
  iterations: fit.iterations,
};
// The item posteriors stay here: the job stores counts and the prior only.
const transfer = [fit.matrices, fit.correct, fit.answered, ...(shape ? [shape] : [])].map((array) => array.buffer as ArrayBuffer);
parentPort?.postMessage(message, transfer);
