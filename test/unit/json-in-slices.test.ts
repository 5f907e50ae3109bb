import { describe, expect, it } from 'vitest';
import { jsonInSlices } from '../../src/lib/json-in-slices.ts';

describe('jsonInSlices', () => {
  it('writes exactly what JSON.stringify writes, long arrays a slice at a time', async () => {
    const tasks = Array.from({ length: 5_003 }, (_, i) => ({
      taskId: `t${i}`,
      type: 'BINARY_CHOICE',
      status: 'PENDING',
      note: i % 7 === 0 ? undefined : 'é"\n',
    }));
    const values: unknown[] = [
      { created: tasks.length, tasks, errors: [{ row: 2, error: 'bad', code: 'VALIDATION_ERROR' }], totalCostCents: 100_060 },
      { empty: [], nested: { a: [1, 2, 3] }, skipped: undefined, when: new Date(0), nothing: null },
      { exactly: Array.from({ length: 4 }, (_, i) => i) },
      [1, 2, 3],
      'text',
      null,
    ];
    for (const value of values) expect(await jsonInSlices(value, 3)).toBe(JSON.stringify(value));
    expect(await jsonInSlices(values[0])).toBe(JSON.stringify(values[0]));
  });
});
