import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/lib/coalescer.ts';

/** A promise with its resolve/reject exposed, to hold a runner busy until the test lets it go. */
function gate() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function recorder(options: { maxBatch: number; runners: number }, failBatch = false) {
  const singles: number[] = [];
  const batches: number[][] = [];
  const failures: number[] = [];
  const gates: Array<ReturnType<typeof gate>> = [];
  const coalescer = new Coalescer<number, string>(
    async (inputs) => {
      batches.push(inputs);
      if (failBatch) throw new Error('batch failed');
      return inputs.map((n) => `batch:${n}`);
    },
    async (input) => {
      singles.push(input);
      const g = gate();
      gates.push(g);
      await g.promise;
      if (input < 0) throw new Error(`bad ${input}`);
      return `single:${input}`;
    },
    { ...options, onBatchFailure: (_error, size) => failures.push(size) },
  );
  return { coalescer, singles, batches, gates, failures };
}

describe('Coalescer', () => {
  it('runs a call at once, alone, when a runner is free', async () => {
    const { coalescer, singles, batches, gates } = recorder({ maxBatch: 16, runners: 1 });
    const result = coalescer.call(1);
    expect(singles).toEqual([1]);
    gates[0]?.resolve();
    expect(await result).toBe('single:1');
    expect(batches).toEqual([]);
  });

  it('gathers the calls that arrive while the runners are busy into batches of at most maxBatch, in arrival order', async () => {
    const { coalescer, batches, gates } = recorder({ maxBatch: 3, runners: 1 });
    const first = coalescer.call(0);
    const rest = [1, 2, 3, 4, 5].map((n) => coalescer.call(n));
    gates[0]?.resolve();
    expect(await first).toBe('single:0');
    expect(await Promise.all(rest)).toEqual(['batch:1', 'batch:2', 'batch:3', 'batch:4', 'batch:5']);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('starts up to `runners` calls at once; a call left waiting alone runs alone when one is free', async () => {
    const { coalescer, singles, gates } = recorder({ maxBatch: 16, runners: 2 });
    const calls = [coalescer.call(1), coalescer.call(2), coalescer.call(3)];
    expect(singles).toEqual([1, 2]);
    gates[0]?.resolve();
    gates[1]?.resolve();
    expect(await Promise.all(calls.slice(0, 2))).toEqual(['single:1', 'single:2']);
    expect(singles).toEqual([1, 2, 3]);
    gates[2]?.resolve();
    expect(await calls[2]).toBe('single:3');
  });

  it('when a batch fails, reports it and runs each of its calls alone: a bad call fails alone', async () => {
    const { coalescer, singles, gates, failures } = recorder({ maxBatch: 16, runners: 1 }, true);
    const first = coalescer.call(0);
    const good = coalescer.call(7);
    const bad = coalescer.call(-1);
    gates[0]?.resolve();
    await first;
    // The failed batch's calls are now running alone.
    await new Promise((resolve) => setImmediate(resolve));
    expect(singles).toEqual([0, 7, -1]);
    expect(failures).toEqual([2]);
    for (const g of gates) g.resolve();
    expect(await good).toBe('single:7');
    await expect(bad).rejects.toThrow('bad -1');
  });
});
