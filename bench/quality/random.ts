// Seeded randomness, so a replay can be repeated exactly.

/** A small seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled copy (Fisher–Yates). */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** The share of a tie won by the truth: 1 when the top option alone is right, 1/t among t tied, else 0. */
export function expectedHit(scores: readonly number[], truth: number, tolerance = 1e-9): number {
  const top = Math.max(...scores);
  const tied = scores.filter((score) => top - score <= tolerance).length;
  return top - (scores[truth] ?? -Infinity) <= tolerance ? 1 / tied : 0;
}
