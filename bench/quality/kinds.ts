// bench:quality --kind K: the simulated-crowd benchmarks of the answer kinds other than single choice. Each
// kind's module (./kinds/K.ts) exports `figures(seeds)`: its replay averaged over the seeds, as one
// JSON-ready object whose `kind` names it.
import * as multi from './kinds/multi.ts';
import * as pairwise from './kinds/pairwise.ts';
import * as rating from './kinds/rating.ts';
import * as text from './kinds/text.ts';

/** What a kind's module exports. */
export interface KindBench {
  figures(seeds: number[]): Promise<Record<string, unknown>>;
}

/** Every kind with a benchmark, in the order `--kind all` runs them. */
export const KIND_BENCHES: Readonly<Record<string, KindBench>> = Object.freeze({ rating, multi, pairwise, text });

/** The figures of one kind (or of every kind, `all`), one object each, as each replay ends. */
export async function* kindFigures(which: string, seeds: number[]): AsyncGenerator<Record<string, unknown>> {
  const kinds = which === 'all' ? Object.keys(KIND_BENCHES) : [which];
  for (const kind of kinds) {
    const bench = KIND_BENCHES[kind];
    if (!bench) throw new Error(`--kind takes one of ${[...Object.keys(KIND_BENCHES), 'all'].join(', ')}`);
    yield await bench.figures(seeds);
  }
}
