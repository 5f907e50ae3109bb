// Durations as the task pages say them: no zero part ("about 5 min", not "about 5 min 0 s"); texts
// shortened for tables after a whole word.
import { describe, expect, it } from 'vitest';
import { excerpt, formatAnswer, formatDuration, formatResult, ratingSentence } from './taskFormat';

describe('formatDuration', () => {
  it('drops a zero part and never shows 60 seconds', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4_200)).toBe('4.2 s');
    expect(formatDuration(300_000)).toBe('5 min');
    expect(formatDuration(312_000)).toBe('5 min 12 s');
    expect(formatDuration(359_700)).toBe('6 min');
    expect(formatDuration(7_200_000)).toBe('2 h');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
  });
});

describe('excerpt', () => {
  it('keeps a short text whole, on one line', () => {
    expect(excerpt('Is this\n  a cat?', 40)).toBe('Is this a cat?');
  });

  it('cuts after a whole word, never inside one', () => {
    expect(excerpt('Query: cheap flights Lisbon — Result: History of Portuguese tiles (#218)', 48)).toBe('Query: cheap flights Lisbon — Result: History…');
    expect(excerpt('Ist dieser Satz korrekt? „Er hat gestern gegangen.“', 40)).toBe('Ist dieser Satz korrekt? „Er hat…');
    expect(excerpt('Broke after two days of use, and support never answered', 30)).toBe('Broke after two days of use…');
  });

  it('cuts a long word where it must when there is no space near the end', () => {
    expect(excerpt('see https://example.com/a/very/long/path/to/an/image.jpg', 30)).toBe('see https://example.com/a/ver…');
  });
});

describe('ratingSentence', () => {
  it('says the mean as a position on the scale and the interval by its levels', () => {
    expect(ratingSentence({ mean: 3.0921, interval: [3, 3] }, ['1', '2', '3', '4', '5'])).toBe('Mean 4.09 of 5 levels; 90 % sure it is 4');
    expect(ratingSentence({ mean: 1.5, interval: [1, 2] }, ['bad', 'fair', 'good'])).toBe('Mean 2.50 of 3 levels; 90 % sure it is between fair and good');
  });
});

describe('formatAnswer', () => {
  it('shows one option as it is, a multi-select set as its options joined by commas, the empty set as (none)', () => {
    expect(formatAnswer('positive')).toBe('positive');
    expect(formatAnswer('spam|offensive', true)).toBe('spam, offensive');
    expect(formatAnswer('', true)).toBe('(none)');
    expect(formatAnswer(null)).toBe('—');
  });
});

describe('formatResult', () => {
  it('words a result by its kind: a pair by its better candidate, a set as a list, an option as it is', () => {
    expect(formatResult('B', 'pairwise')).toBe('B is better');
    expect(formatResult('tie', 'pairwise')).toBe('Tie');
    expect(formatResult(null, 'pairwise')).toBe('—');
    expect(formatResult('spam|offensive', 'multi')).toBe('spam, offensive');
    expect(formatResult('4', 'rating')).toBe('4');
    expect(formatResult('B', undefined)).toBe('B');
  });

  it('quotes a written result, cut to one table line', () => {
    expect(formatResult('Sorry, a new one ships today.', 'text')).toBe('“Sorry, a new one ships today.”');
    const long = formatResult(`We are sorry. ${'A replacement ships today. '.repeat(6)}`, 'text');
    expect(long).toMatch(/^“We are sorry\. A replacement ships today\. .*…”$/);
    expect(long.length).toBeLessThanOrEqual(82);
    expect(formatResult(null, 'text')).toBe('—');
  });
});
