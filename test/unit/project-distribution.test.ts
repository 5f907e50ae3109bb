import { describe, expect, it } from 'vitest';
import { byKind } from '../../src/modules/projects/projects.service.ts';

describe('the distribution by kind', () => {
  it('lists every kind, each rating scale with its levels in order (levels never decided at 0), the biggest first', () => {
    const five = ['1', '2', '3', '4', '5'];
    const figures = byKind({
      kinds: [
        { answerKind: 'rating', count: 9 },
        { answerKind: 'single', count: 2 },
      ],
      ratings: [
        { levels: five, result: '4', count: 5 },
        { levels: ['bad', 'good'], result: 'good', count: 1 },
        { levels: five, result: '2', count: 3 },
      ],
      multiOptions: [{ option: 'spam', chosen: 3, tasks: 4 }],
    });
    expect(figures.kinds).toEqual({ single: 2, rating: 9, multi: 0, pairwise: 0, text: 0 });
    expect(figures.ratingScales).toEqual([
      { levels: five, counts: [0, 3, 0, 5, 0], tasks: 8 },
      { levels: ['bad', 'good'], counts: [0, 1], tasks: 1 },
    ]);
    expect(figures.multiOptions).toEqual([{ option: 'spam', count: 3, rate: 0.75 }]);
  });
});
