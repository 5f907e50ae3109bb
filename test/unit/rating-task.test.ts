import { describe, expect, it } from 'vitest';
import { decideRatingTask, readRaterPrior } from '../../src/consensus/kinds/rating-task.ts';
import { NEW_RATER } from '../../src/consensus/kinds/rating.ts';
import type { TaskAnswer } from '../../src/consensus/task-decision.ts';

const levels = ['1', '2', '3', '4', '5'];
const L = levels.length;
/** An annotator's table after `n` tasks whose truth it rated at `shift` levels off (clamped to the scale). */
function provenCounts(n: number, shift: number): TaskAnswer['counts'] {
  const matrix = new Array<number>(L * L).fill(0);
  for (let t = 0; t < L; t++) {
    const cell = t * L + Math.min(L - 1, Math.max(0, t + shift));
    matrix[cell] = (matrix[cell] ?? 0) + n / L;
  }
  return { matrix, correct: shift === 0 ? n : 0, answered: n };
}
const answer = (annotatorId: string, level: string, counts: TaskAnswer['counts'] = null): TaskAnswer => ({ annotatorId, answer: level, counts });
const input = (answers: TaskAnswer[], rest: Partial<Parameters<typeof decideRatingTask>[0]> = {}) => ({
  levels,
  raterPrior: null,
  classPrior: null,
  answers,
  maxResponses: 10,
  targetConfidence: 0.95,
  ...rest,
});

describe('decideRatingTask', () => {
  it('keeps collecting while the top level is short of the target, and reports the posterior mean and interval meanwhile', () => {
    const decision = decideRatingTask(input([answer('a', '4'), answer('b', '4')]));
    expect(decision.kind).toBe('continue');
    expect(decision.best).toBe('4');
    expect(decision.rating.interval[0]).toBeLessThanOrEqual(3);
    expect(decision.rating.interval[1]).toBeGreaterThanOrEqual(3);
  });

  it('reads a lenient annotator through its bias: one who always rates a level high and says 4 points at 3', () => {
    const lenient = provenCounts(200, +1);
    const decision = decideRatingTask(input([answer('a', '4', lenient), answer('b', '4', lenient), answer('c', '4', lenient)]));
    expect(decision.best).toBe('3');
  });

  it('completes with one whole count at (result, answer) per answerer, the result named by its level', () => {
    const proven = provenCounts(200, 0);
    const decision = decideRatingTask(input([answer('a', '2', proven), answer('b', '2', proven), answer('c', '3', proven)]));
    expect(decision).toMatchObject({ kind: 'complete', result: '2' });
    if (decision.kind !== 'complete') return;
    expect(decision.confidence).toBeGreaterThanOrEqual(0.95);
    expect(decision.increments.map(({ annotatorId, increment }) => [annotatorId, increment.answer, increment.column?.indexOf(1)])).toEqual([
      ['a', 1, 1],
      ['b', 1, 1],
      ['c', 2, 1],
    ]);
  });

  it('fails at maxResponses when no level is certain enough', () => {
    const answers = ['1', '5', '1', '5'].map((level, i) => answer(`a${i}`, level));
    expect(decideRatingTask(input(answers, { maxResponses: 4 }))).toMatchObject({ kind: 'fail', result: null, increments: [] });
  });

  it('leans on the class prior of the scope', () => {
    const answers = [answer('a', '3'), answer('b', '4'), answer('c', '3'), answer('d', '4')];
    const towardsFour = decideRatingTask(input(answers, { classPrior: [0.02, 0.02, 0.06, 0.88, 0.02] }));
    const towardsThree = decideRatingTask(input(answers, { classPrior: [0.02, 0.02, 0.88, 0.06, 0.02] }));
    expect(towardsFour.best).toBe('4');
    expect(towardsThree.best).toBe('3');
  });
});

describe('readRaterPrior', () => {
  it('reads [bias, spread, lapse] as the re-fit stores it, and nothing else', () => {
    expect(readRaterPrior([0.1, 0.6, 0.2])).toEqual({ bias: 0.1, spread: 0.6, lapse: 0.2 });
    for (const stored of [null, [], [0, 0.5], [0, 0, 0.2], [0, 0.5, 1], [0, 0.5, Number.NaN], 'x']) expect(readRaterPrior(stored)).toBeNull();
    expect(NEW_RATER.lapse).toBeGreaterThan(0);
  });
});
