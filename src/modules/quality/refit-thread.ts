// Runs refitScope (src/consensus/refit.ts) in a worker thread: the fit is pure CPU for seconds at
// millions of answers, and on the event loop it would stall every request of the process meanwhile.
import { Worker } from 'node:worker_threads';
import type { AnswerKind } from '@concord/contract';
import type { Calibration } from '../../consensus/calibration.ts';
import type { RefitOptions, RefitResult, ScopeAnswers } from '../../consensus/refit.ts';
import type { CountsWrite } from './counts-delta.ts';
import type { SnapshotCounts } from './scope-answers.builder.ts';

/** What the worker is given: the scope's answers and the stored counts they were read with. */
export interface FitRequest {
  answers: ScopeAnswers;
  snapshot: SnapshotCounts;
  /** The ids of the fit's annotators, by index (the worker orders the writes by them). */
  annotatorIds: readonly string[];
  options: RefitOptions;
  /** The scope's answer kind: which model fits it. */
  answerKind: AnswerKind;
}

/** What the worker sends back: the new counts as fitted − snapshot, and the prior; not the item posteriors. */
export interface FitMessage {
  write: CountsWrite;
  /** Σ of the fitted `answered`: the counted answers at the snapshot. */
  countedAnswers: number;
  prior: { reliability: number; shape: Float64Array | null };
  classPrior: number[];
  calibration: Calibration;
  iterations: number;
  /** Where the kept fit started (refitScope: 'decisions' after a label swap) and how many decisions it keeps. */
  start: RefitResult['start'];
  decidedAgreement: number | null;
  /** Annotators whose golden answers were left out of their counts (refit.ts GOLDEN_CONSISTENCY). */
  goldenSetAside: number;
}

/**
 * The worker's entry point beside this file: refit.worker.ts when the service runs from its sources
 * (`npm start`, vitest), refit.worker.js when compiled. Node 20 does not carry `--import tsx`'s module
 * hooks into worker threads (an execArgv of ['--import', 'tsx'] still fails on the .ts extension), so
 * from sources the worker is a one-line module that registers tsx in the thread and then imports the
 * .ts entry.
 */
function startWorker(workerData: unknown, transferList: ArrayBuffer[]): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./refit.worker.js', here), { workerData, transferList });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./refit.worker.ts', here).href;
  const source = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { eval: true, workerData, transferList });
}

/**
 * Fits the scope in a new worker thread. The arrays are transferred: `request`'s are unusable
 * afterwards. An aborted signal terminates the worker and rejects with the signal's reason.
 */
export function fitInWorker(request: FitRequest, signal?: AbortSignal): Promise<FitMessage> {
  signal?.throwIfAborted();
  const { answers, snapshot } = request;
  const buffers = new Set<ArrayBuffer>();
  const arrays = [answers.item, answers.annotator, answers.answer, answers.itemOptionCount, answers.truth, answers.counted, answers.decided];
  for (const array of [...arrays, snapshot.matrices, snapshot.correct, snapshot.answered]) {
    if (array) buffers.add(array.buffer as ArrayBuffer);
  }
  const worker = startWorker(request, [...buffers]);
  return new Promise<FitMessage>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      settle(() => reject(signal?.reason));
      void worker.terminate();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: FitMessage) => settle(() => resolve(message)));
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`the re-fit worker exited (code ${code}) without a result`))));
  });
}
