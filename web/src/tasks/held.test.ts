// What the tasks area says of tasks held by their project's budget cap.
import { describe, expect, it } from 'vitest';
import { heldCount, heldCreatedWords } from './held';

describe('held tasks in a creation answer', () => {
  it('counts the tasks marked held', () => {
    expect(heldCount([{}, { held: true }, {}, { held: true }])).toBe(2);
    expect(heldCount([])).toBe(0);
  });

  it('says nothing when none is held, and how many are otherwise', () => {
    expect(heldCreatedWords(0, 5)).toBeNull();
    expect(heldCreatedWords(1, 1)).toBe('It is held by its project’s budget cap: nothing is reserved and annotators do not see it until the cap is raised.');
    expect(heldCreatedWords(3, 3)).toBe(
      'All 3 are held by their project’s budget cap: nothing is reserved and annotators do not see them until the cap is raised.',
    );
    expect(heldCreatedWords(1, 4)).toBe(
      '1 of them is held by its project’s budget cap: nothing is reserved and annotators do not see it until the cap is raised.',
    );
    expect(heldCreatedWords(1200, 1500)).toMatch(/^1,200 of them are held by their project’s budget cap/);
  });
});
