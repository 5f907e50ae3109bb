import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.ts';
import { startPeriodic } from '../../src/lib/periodic.ts';

const logger = createLogger('silent');

describe('startPeriodic', () => {
  it('runs again after a failing run and stops cleanly', async () => {
    let runs = 0;
    const loop = startPeriodic({
      name: 'test.loop',
      intervalMs: 1,
      logger,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('first run fails');
      },
    });
    await new Promise<void>((resolve) => {
      const check = () => (runs >= 3 ? resolve() : setTimeout(check, 1));
      check();
    });
    await loop.stop();
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(after);
  });
});
