// Today's rule replayed the same way as the model (same seeds, same random task and answer orders): the
// contract's first rule — one-coin weights from the reputation formula, threshold 0.75, maxResponses
// 2 × validationsNeeded — through the service's own decide() and reliability().
import { decide, posterior } from '../../src/consensus/consensus.ts';
import { reliability, type AnnotatorStats } from '../../src/consensus/reputation.ts';
import { DEFAULT_VALIDATIONS_NEEDED } from '@concord/contract';
import type { IndexedAnswer, IndexedDataset } from './indexed.ts';
import { asksStopRule, emptyOutcome, type ReplayOutcome } from './model-replay.ts';
import { expectedHit, prng, shuffle } from './random.ts';

// The contract's first rule, fixed here so the comparison stays today's rule whatever the service's defaults become.
const THRESHOLD = 0.75;
const maxResponsesOfFirstRule = (validationsNeeded: number) => 2 * validationsNeeded;

/** One replay of today's rule; a task it does not complete is scored by its posterior when it stopped. */
export function replayContractRule(data: IndexedDataset, seed: number): ReplayOutcome {
  const random = prng(seed);
  const validationsNeeded = DEFAULT_VALIDATIONS_NEEDED;
  const maxResponses = maxResponsesOfFirstRule(validationsNeeded);
  const options = data.classes;
  const stats: AnnotatorStats[] = Array.from({ length: data.workerCount }, () => ({
    goldenAnswered: 0,
    goldenCorrect: 0,
    resolvedResponses: 0,
    agreedResponses: 0,
  }));
  const weighted = (answers: IndexedAnswer[]) =>
    answers.map((a) => ({ answer: options[a.label] ?? '', reliability: reliability(stats[a.worker] ?? (stats[0] as AnnotatorStats)) }));
  const outcome = emptyOutcome();
  const items = shuffle(
    data.itemAnswers.map((_, i) => i),
    random,
  );
  for (const item of items) {
    const taken: IndexedAnswer[] = [];
    let result = -1;
    let lastPosterior: number[] = options.map(() => 1 / options.length);
    for (const answer of shuffle(data.itemAnswers[item] ?? [], random)) {
      taken.push(answer);
      lastPosterior = posterior(options, weighted(taken));
      if (!asksStopRule(taken.length, validationsNeeded)) continue;
      const decision = decide({ options, answers: weighted(taken), maxResponses, threshold: THRESHOLD });
      if (decision.kind === 'continue') continue;
      if (decision.kind === 'complete') {
        result = options.indexOf(decision.result);
        for (const a of taken) {
          const s = stats[a.worker];
          if (!s) continue;
          s.resolvedResponses += 1;
          if (a.label === result) s.agreedResponses += 1;
        }
      }
      break;
    }
    outcome.orders[item] = taken;
    outcome.usedAll += taken.length;
    const truth = data.truth[item] ?? -1;
    if (truth < 0) continue;
    outcome.usedScored += taken.length;
    outcome.scored += 1;
    if (result >= 0) {
      outcome.completed += 1;
      outcome.completedCorrect += result === truth ? 1 : 0;
      outcome.correctAll += result === truth ? 1 : 0;
    } else {
      outcome.correctAll += expectedHit(lastPosterior, truth);
    }
  }
  return outcome;
}
