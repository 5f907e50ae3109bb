import { describe, expect, it } from 'vitest';
import {
  decidePairTask,
  groupReports,
  pairClassPrior,
  pairIncrement,
  rankGroups,
  readPairPrior,
  storedPairClassPrior,
  type DecidedGroupPair,
  type PairParticipant,
} from '../../src/consensus/kinds/pairwise-task.ts';
import { incrementMatrix } from '../../src/consensus/task-decision.ts';

const answer = (annotatorId: string, choice: string, swapped: boolean, counts: PairParticipant['counts'] = null): PairParticipant => ({
  annotatorId,
  answer: choice,
  swapped,
  counts,
});
const input = (answers: PairParticipant[], rest: Partial<Parameters<typeof decidePairTask>[0]> = {}) => ({
  allowTie: false,
  prior: null,
  classPrior: null,
  answers,
  maxResponses: 10,
  targetConfidence: 0.95,
  ...rest,
});
/** An annotator who always picked the left-shown candidate: 20 answers, truth left 10 times and right 10 times. */
const alwaysLeft: PairParticipant['counts'] = { matrix: [10, 0, 0, 10, 0, 0, 0, 0, 0], correct: 10, answered: 20 };
/** A careful annotator: 19 right of 20, in both orders. */
const careful: PairParticipant['counts'] = { matrix: [10, 0, 0, 1, 9, 0, 0, 0, 0], correct: 19, answered: 20 };

describe('decidePairTask', () => {
  it('completes at the target on agreeing answers, whichever order each saw, and moves each table as shown', () => {
    const answers = [answer('a', 'B', false), answer('b', 'B', true), answer('c', 'B', false), answer('d', 'B', true)];
    expect(decidePairTask(input(answers.slice(0, 3))).kind).toBe('continue');
    const decision = decidePairTask(input(answers));
    expect(decision).toMatchObject({ kind: 'complete', result: 'B' });
    expect(decision.confidence).toBeGreaterThanOrEqual(0.95);
    if (decision.kind !== 'complete') throw new Error('not complete');
    // Not swapped, B is the right side (shown index 1): cell (1, 1) = 4; swapped, B is left: cell (0, 0) = 0.
    expect(decision.increments.map(({ annotatorId, increment }) => [annotatorId, incrementMatrix(increment, 3).indexOf(1), increment.correct])).toEqual([
      ['a', 4, 1],
      ['b', 0, 1],
      ['c', 4, 1],
      ['d', 0, 1],
    ]);
  });

  it('gives an answer from someone who always picks the left side no weight, and one from a careful annotator much', () => {
    const left = decidePairTask(input([answer('x', 'A', false, alwaysLeft)], {}));
    expect(left.posterior[0]).toBeCloseTo(0.5, 1);
    const judged = decidePairTask(input([answer('y', 'A', false, careful)], {}));
    expect(judged.posterior[0]).toBeGreaterThan(0.85);
  });

  it('takes a tie only on a task that allows it, and fails at maxResponses', () => {
    expect(() => decidePairTask(input([answer('a', 'tie', false)]))).toThrow(RangeError);
    const tied = decidePairTask(input([answer('a', 'tie', false)], { allowTie: true }));
    expect(tied.posterior).toHaveLength(3);
    const split = [answer('a', 'A', false), answer('b', 'B', false), answer('c', 'A', true)];
    expect(decidePairTask(input(split, { maxResponses: 3 }))).toMatchObject({ kind: 'fail', result: null, increments: [] });
  });

  it('pairIncrement counts the truth and the answer as the annotator saw them', () => {
    expect(incrementMatrix(pairIncrement('A', false, 'A'), 3)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(incrementMatrix(pairIncrement('A', true, 'A'), 3)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(incrementMatrix(pairIncrement('tie', true, 'B'), 3)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(pairIncrement('tie', true, 'B').correct).toBe(0);
  });
});

describe('the stored scope of a pairwise scope', () => {
  it('reads the typical annotator [bias, reliability] and refuses what is not one', () => {
    expect(readPairPrior([0.1, 0.8])).toEqual({ bias: 0.1, reliability: 0.8 });
    for (const bad of [null, [], [0.1], [1, 0.8], [0, 1], ['0', 0.8]]) expect(readPairPrior(bad)).toBeNull();
  });

  it('keeps the class prior as the shares of A, B and tie, and reads them back', () => {
    const prior = { a: 0.7, tie: 0.2 };
    const stored = storedPairClassPrior(prior);
    expect(stored.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 12);
    const back = pairClassPrior(stored);
    expect(back?.a).toBeCloseTo(0.7, 12);
    expect(back?.tie).toBeCloseTo(0.2, 12);
    expect(pairClassPrior(null)).toBeNull();
    expect(pairClassPrior([0.5, 0.5])).toBeNull();
  });
});

describe('groups', () => {
  const pair = (A: string, B: string, result: string, confidence = 0.97, group = 'g'): DecidedGroupPair => ({
    group,
    candidates: { A, B },
    result,
    confidence,
    allowTie: true,
  });

  it('ranks a round robin by its wins, and reports who beat whom', () => {
    const pairs = [pair('y', 'x', 'B'), pair('y', 'z', 'A'), pair('x', 'z', 'A'), pair('p', 'q', 'tie', 0.9, 'other')];
    expect(
      rankGroups(pairs)
        .get('g')
        ?.map((r) => r.candidate),
    ).toEqual(['x', 'y', 'z']);
    const [g, other] = groupReports(pairs);
    expect(g).toMatchObject({
      group: 'g',
      pairs: 3,
      winRate: [
        [null, 1, 1],
        [0, null, 1],
        [0, 0, null],
      ],
    });
    // A tie: each candidate won half, and they share a rank.
    expect(other).toMatchObject({
      group: 'other',
      pairs: 1,
      winRate: [
        [null, 0.5],
        [0.5, null],
      ],
    });
    expect(other?.ranking.map((r) => r.rank)).toEqual([1, 1]);
  });

  it('leaves pairs that were never compared as null and skips a result that is not a pair answer', () => {
    const [report] = groupReports([pair('a', 'b', 'A'), pair('c', 'd', 'B'), pair('a', 'c', 'maybe')]);
    expect(report?.pairs).toBe(2);
    const names = report?.ranking.map((r) => r.candidate) ?? [];
    const rate = (i: string, j: string) => report?.winRate[names.indexOf(i)]?.[names.indexOf(j)];
    expect(rate('a', 'b')).toBe(1);
    expect(rate('a', 'c')).toBeNull();
    expect(rate('d', 'c')).toBe(1);
  });
});
