// Gate: at most `max` runs at a time, the others in arrival order, a failed run frees its place.
import { describe, expect, it } from 'vitest';
import { Gate } from '../../src/lib/gate.ts';

const deferred = () => {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
};

describe('Gate', () => {
  it('runs at most max at once and the waiting ones in arrival order', async () => {
    const gate = new Gate(2);
    const started: number[] = [];
    const holds = [deferred(), deferred(), deferred(), deferred()];
    const runs = holds.map((hold, i) =>
      gate.run(async () => {
        started.push(i);
        await hold.promise;
        return i;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    holds[1]?.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    holds[0]?.resolve();
    holds[2]?.resolve();
    holds[3]?.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('frees the place of a run that fails', async () => {
    const gate = new Gate(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
