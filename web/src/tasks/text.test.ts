// A text task's written answers as the drawer numbers and marks them, its price in words and the state of
// its writing, as the list and the drawer say them.
import { describe, expect, it } from 'vitest';
import { reviewAnswerNumber, reviewOpensWords, textPriceWords, textTaskState, writtenAnswers } from './text';

const responses = [
  { answer: 'Sorry, please contact support.', timeSpentMs: 4_000 },
  { answer: 'Sorry about the cracked screen: a replacement ships today.', timeSpentMs: 9_000 },
  { answer: 'Sorry, please contact support.', timeSpentMs: 2_000 },
];

describe('reviewAnswerNumber', () => {
  it('reads the number of the written answer a review option names', () => {
    expect(reviewAnswerNumber('Answer 1')).toBe(1);
    expect(reviewAnswerNumber('Answer 12')).toBe(12);
    for (const other of ['answer 1', 'Answer', 'Answer 1 ', 'B', null, undefined]) expect(reviewAnswerNumber(other)).toBeNull();
  });
});

describe('writtenAnswers', () => {
  it('numbers the answers in arrival order, as the review numbers its options, and marks the one whose text is the result', () => {
    const answers = writtenAnswers({ responses, result: responses[1]?.answer ?? null });
    expect(answers.map((answer) => [answer.number, answer.chosen, answer.timeSpentMs])).toEqual([
      [1, false, 4_000],
      [2, true, 9_000],
      [3, false, 2_000],
    ]);
  });

  it('follows the review’s result where two annotators wrote the same text', () => {
    const same = { responses, result: 'Sorry, please contact support.' };
    expect(writtenAnswers(same).map((answer) => answer.chosen)).toEqual([true, false, false]);
    expect(writtenAnswers(same, 'Answer 3').map((answer) => answer.chosen)).toEqual([false, false, true]);
  });

  it('marks none while the task is undecided, whatever its review says so far', () => {
    expect(writtenAnswers({ responses, result: null }, 'Answer 2').some((answer) => answer.chosen)).toBe(false);
    expect(writtenAnswers({ responses: [], result: null })).toEqual([]);
  });
});

describe('textPriceWords', () => {
  it('says the price of the writing and of its review, and their sum', () => {
    expect(textPriceWords(20)).toBe('$0.40: $0.20 for the writing, $0.20 for its review');
    expect(textPriceWords(35)).toBe('$0.70: $0.35 for the writing, $0.35 for its review');
  });
});

describe('reviewOpensWords', () => {
  it('says how many answers the review waits for, and how many are written', () => {
    expect(reviewOpensWords(0, 3)).toBe('Review opens once 3 answers are written (none yet).');
    expect(reviewOpensWords(1, 3)).toBe('Review opens once 3 answers are written (1 so far).');
  });
});

describe('textTaskState', () => {
  it('says where the writing stands: written, in review, decided or not', () => {
    expect(textTaskState({ status: 'VALIDATING', totalResponses: 2, reviewTaskId: null })).toBe('2 written');
    expect(textTaskState({ status: 'VALIDATING', totalResponses: 3, reviewTaskId: 't-review' })).toBe('3 written · in review');
    expect(textTaskState({ status: 'COMPLETED', totalResponses: 3, reviewTaskId: 't-review' })).toBe('3 written · best chosen');
    expect(textTaskState({ status: 'FAILED', totalResponses: 3, reviewTaskId: 't-review' })).toBe('3 written · no agreement');
  });
});
