// What a re-fit adds to each stored counts row. The fit saw the scope at its snapshot; the answer path
// kept adding to the rows while it ran. Storing fitted + (current − snapshot) keeps those additions, and
// since the write adds (fitted − snapshot) to the row as it is when locked, no addition is lost however
// the two interleave.
import type { CountsDelta, CountsRow } from './quality.repository.ts';
import type { FitMessage } from './refit-thread.ts';

/**
 * fitted − snapshot for every annotator of the fit (`annotatorIds[a]` is the fit's annotator a; the
 * snapshot's rows are among them), ordered by annotator id; rows the re-fit leaves as they are (no
 * answer and no stored row, or fitted equal to the snapshot) are left out.
 */
export function countsDeltas(fit: FitMessage, annotatorIds: readonly string[], snapshot: readonly CountsRow[], optionCount: number): CountsDelta[] {
  const cells = optionCount * optionCount;
  const stored = new Map(snapshot.map((row) => [row.annotatorId, row]));
  const deltas: CountsDelta[] = [];
  annotatorIds.forEach((annotatorId, a) => {
    const before = stored.get(annotatorId);
    const matrix = new Float64Array(cells);
    let changed = false;
    for (let c = 0; c < cells; c++) {
      matrix[c] = (fit.matrices[a * cells + c] ?? 0) - (before?.matrix[c] ?? 0);
      if (matrix[c] !== 0) changed = true;
    }
    const correct = (fit.correct[a] ?? 0) - (before?.correct ?? 0);
    const answered = (fit.answered[a] ?? 0) - (before?.answered ?? 0);
    if (changed || correct !== 0 || answered !== 0) deltas.push({ annotatorId, matrix, correct, answered });
  });
  return deltas.sort((x, y) => (x.annotatorId < y.annotatorId ? -1 : x.annotatorId > y.annotatorId ? 1 : 0));
}
