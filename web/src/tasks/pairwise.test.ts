// A pairwise task's result and answers in the words the list and the drawer use, with the order each
// annotator saw the candidates in.
import { describe, expect, it } from 'vitest';
import { pairResultWords, pairTally, shownAnswerWords, shownPosition } from './pairwise';

describe('pairResultWords', () => {
  it('names the better candidate, or the tie; nothing yet is a dash', () => {
    expect(pairResultWords('A')).toBe('A is better');
    expect(pairResultWords('B')).toBe('B is better');
    expect(pairResultWords('tie')).toBe('Tie');
    expect(pairResultWords(null)).toBe('—');
  });
});

describe('shownPosition', () => {
  it('says where the chosen candidate was shown: BA shows B first', () => {
    expect(shownPosition('A', 'AB')).toBe('first');
    expect(shownPosition('B', 'AB')).toBe('second');
    expect(shownPosition('B', 'BA')).toBe('first');
    expect(shownPosition('A', 'BA')).toBe('second');
  });

  it('has no position for a tie or an unknown order', () => {
    expect(shownPosition('tie', 'BA')).toBeNull();
    expect(shownPosition('A', undefined)).toBeNull();
  });
});

describe('shownAnswerWords', () => {
  it('gives each answer with the place its candidate had on the annotator’s screen', () => {
    expect(shownAnswerWords('B', 'AB')).toBe('B (shown second)');
    expect(shownAnswerWords('B', 'BA')).toBe('B (shown first)');
    expect(shownAnswerWords('tie', 'BA')).toBe('Tie (B shown first)');
    expect(shownAnswerWords('A', undefined)).toBe('A');
  });
});

describe('pairTally', () => {
  it('counts answers per candidate and the picks that went to the candidate shown first', () => {
    expect(
      pairTally([
        { answer: 'B', shownOrder: 'BA' },
        { answer: 'B', shownOrder: 'AB' },
        { answer: 'A', shownOrder: 'AB' },
        { answer: 'tie', shownOrder: 'AB' },
        { answer: 'B' },
      ]),
    ).toEqual({ A: 1, B: 3, tie: 1, picked: 3, pickedFirst: 2 });
  });
});
