// What a re-fit adds to each stored counts row. The fit saw the scope at its snapshot; the answer path
// kept adding to the rows while it ran. Storing fitted + (current − snapshot) keeps those additions, and
// since the write adds (fitted − snapshot) to the row as it is when locked, no addition is lost however
// the two interleave.
import type { CountsDelta } from './quality.repository.ts';
import type { SnapshotCounts } from './scope-answers.builder.ts';

/** fitted − snapshot per annotator of the fit, and which annotators it changes at all. */
export interface CountsDeltas {
  matrices: Float64Array;
  correct: Float64Array;
  answered: Float64Array;
  /** 1 where the row must be written: fitted differs from the snapshot (or there was no row and the fit counts something). */
  changed: Uint8Array;
}

/** The deltas with the rows to write in write order (worker → service). */
export interface CountsWrite extends CountsDeltas {
  order: Int32Array;
}

/**
 * Turns the fit's counts into fitted − snapshot, in place (the worker does this, off the event loop).
 * The snapshot covers annotators 0 … n − 1; the others had no stored row.
 */
export function subtractSnapshot(
  fit: { matrices: Float64Array; correct: Float64Array; answered: Float64Array },
  snapshot: SnapshotCounts,
  optionCount: number,
): CountsDeltas {
  const cells = optionCount * optionCount;
  const changed = new Uint8Array(fit.correct.length);
  for (let a = 0; a < fit.correct.length; a++) {
    const stored = a < snapshot.correct.length;
    let differs = false;
    for (let c = a * cells; c < (a + 1) * cells; c++) {
      if (stored) fit.matrices[c] = (fit.matrices[c] ?? 0) - (snapshot.matrices[c] ?? 0);
      if (fit.matrices[c] !== 0) differs = true;
    }
    if (stored) {
      fit.correct[a] = (fit.correct[a] ?? 0) - (snapshot.correct[a] ?? 0);
      fit.answered[a] = (fit.answered[a] ?? 0) - (snapshot.answered[a] ?? 0);
    }
    if (differs || fit.correct[a] !== 0 || fit.answered[a] !== 0) changed[a] = 1;
  }
  // Only these: the fit's item posteriors must not travel to the service's thread (a 32 MB copy at 1 M tasks).
  return { matrices: fit.matrices, correct: fit.correct, answered: fit.answered, changed };
}

/** The annotators whose rows must be written, ordered by id (the order the answer path locks rows in). */
export function writeOrder(changed: Uint8Array, annotatorIds: readonly string[]): Int32Array {
  const order: number[] = [];
  for (let a = 0; a < changed.length; a++) if (changed[a] === 1) order.push(a);
  order.sort((x, y) => {
    const idX = annotatorIds[x] ?? '';
    const idY = annotatorIds[y] ?? '';
    return idX < idY ? -1 : idX > idY ? 1 : 0;
  });
  return Int32Array.from(order);
}

/** The rows of the annotators `indices` (a slice of the write order), as the repository writes them. */
export function deltaRows(deltas: CountsDeltas, indices: Int32Array, annotatorIds: readonly string[], optionCount: number): CountsDelta[] {
  const cells = optionCount * optionCount;
  return Array.from(indices, (a) => ({
    annotatorId: annotatorIds[a] ?? '',
    matrix: deltas.matrices.subarray(a * cells, (a + 1) * cells),
    correct: deltas.correct[a] ?? 0,
    answered: deltas.answered[a] ?? 0,
  }));
}
