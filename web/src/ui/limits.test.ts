// Text limits in words: a count as the limit nears, a refusal that says by how much.
import { describe, expect, it } from 'vitest';
import { countText, tooLong } from './limits';

describe('countText', () => {
  it('stays quiet far from the limit, counts near it and says what is too many', () => {
    expect(countText(100, 200)).toBeNull();
    expect(countText(180, 200)).toBe('180 / 200 characters');
    expect(countText(205, 200)).toBe('205 / 200 characters: 5 too many');
  });
});

describe('tooLong', () => {
  it('refuses only what is over the limit', () => {
    expect(tooLong('x'.repeat(200), 200, 'The name')).toBeNull();
    expect(tooLong('x'.repeat(201), 200, 'The name')).toBe('The name has 201 characters; the most is 200. Shorten it by 1.');
  });
});
