import { describe, expect, it } from 'vitest';
import { chosenIndexes, decideMultiTask, readTaggerPrior } from '../../src/consensus/kinds/multi-task.ts';
import type { TaskAnswer } from '../../src/consensus/task-decision.ts';

const options = ['fine', 'offensive', 'spam'];
const answer = (annotatorId: string, chosen: string[], counts: TaskAnswer['counts'] = null): TaskAnswer => ({
  annotatorId,
  answer: JSON.stringify(chosen),
  counts,
});
const input = (answers: TaskAnswer[], rest: Partial<Parameters<typeof decideMultiTask>[0]> = {}) => ({
  scopeOptions: options,
  taggerPrior: null,
  classPrior: null,
  allowEmpty: false,
  answers,
  maxResponses: 10,
  targetConfidence: 0.95,
  ...rest,
});
/** A proven tagger: many answers, ticking what belongs 95 % of the time and what does not 2 %. */
const proven: TaskAnswer['counts'] = { matrix: [980, 20, 50, 950], correct: 0, answered: 500 };

describe('decideMultiTask', () => {
  it('decides each option apart and completes once every one reaches the target', () => {
    const answers = ['a', 'b', 'c'].map((id) => answer(id, ['spam', 'offensive'], proven));
    const decision = decideMultiTask(input(answers));
    expect(decision.kind).toBe('complete');
    expect(decision.result).toEqual(['offensive', 'spam']);
    expect(Object.keys(decision.optionConfidence)).toEqual(options);
    expect(decision.confidence).toBe(Math.min(...Object.values(decision.optionConfidence)));
    // One answer each; four counts: fine absent and left, offensive and spam present and ticked.
    expect(decision.rows).toEqual(['a', 'b', 'c'].map((annotatorId) => ({ annotatorId, matrix: [1, 0, 0, 2], correct: 1, answered: 1 })));
  });

  it('continues while an option is undecided, and fails at maxResponses', () => {
    const split = [answer('a', ['spam']), answer('b', ['fine']), answer('c', ['spam', 'fine'])];
    expect(decideMultiTask(input(split)).kind).toBe('continue');
    expect(decideMultiTask(input(split, { maxResponses: 3 }))).toMatchObject({ kind: 'fail', result: null, rows: [] });
  });

  it('gives the empty set only where the task allows it', () => {
    const none = ['a', 'b', 'c', 'd', 'e'].map((id) => answer(id, [], proven));
    expect(decideMultiTask(input(none, { allowEmpty: true })).result).toEqual([]);
    expect(decideMultiTask(input(none, { allowEmpty: false })).best).toHaveLength(1);
  });

  it('counts an answer right on the share of options it got right', () => {
    const answers = [answer('a', ['spam'], proven), answer('b', ['spam'], proven), answer('c', ['spam'], proven), answer('d', ['spam', 'fine'])];
    const decision = decideMultiTask(input(answers));
    expect(decision.result).toEqual(['spam']);
    expect(decision.rows.find((row) => row.annotatorId === 'd')).toMatchObject({ matrix: [1, 1, 0, 1], correct: 2 / 3 });
  });
});

describe('chosenIndexes and readTaggerPrior', () => {
  it('read a stored set by the scope’s order and a stored [sensitivity, specificity]', () => {
    expect(chosenIndexes('["spam","fine"]', options)).toEqual([2, 0]);
    expect(() => chosenIndexes('"spam"', options)).toThrow();
    expect(readTaggerPrior([0.8, 0.9])).toEqual({ sensitivity: 0.8, specificity: 0.9 });
    for (const stored of [null, [0.8], [0, 0.9], [0.8, 1], 'x']) expect(readTaggerPrior(stored)).toBeNull();
  });
});
