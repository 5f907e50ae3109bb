// Majority vote over ALL tasks at the same total number of answers as the rule it is compared with: the
// upper hull of majority vote at fixed overlaps k = 1, 2, … answers per task, mixing the two neighbouring
// overlaps on the hull (some tasks get k answers, the rest k') so the budget is hit exactly.
import type { IndexedAnswer, IndexedDataset } from './indexed.ts';
import { expectedHit } from './random.ts';

interface Point {
  budget: number;
  correct: number;
}

/** Expected correct tasks (ties split evenly) and answers spent when every scored task takes its first k answers. */
function majorityAt(data: IndexedDataset, orders: readonly IndexedAnswer[][], k: number): Point {
  const votes = new Array<number>(data.classes.length);
  let budget = 0;
  let correct = 0;
  orders.forEach((order, item) => {
    const truth = data.truth[item] ?? -1;
    if (truth < 0) return;
    votes.fill(0);
    const used = order.slice(0, k);
    for (const answer of used) votes[answer.label] = (votes[answer.label] ?? 0) + 1;
    budget += used.length;
    correct += expectedHit(votes, truth);
  });
  return { budget, correct };
}

/** The upper concave hull of points sorted by budget (monotone chain). */
function upperHull(points: Point[]): Point[] {
  const hull: Point[] = [];
  for (const p of points) {
    while (hull.length >= 2) {
      const a = hull[hull.length - 2] as Point;
      const b = hull[hull.length - 1] as Point;
      // b lies on or below the chord a → p: drop it.
      if ((b.correct - a.correct) * (p.budget - a.budget) <= (p.correct - a.correct) * (b.budget - a.budget)) hull.pop();
      else break;
    }
    hull.push(p);
  }
  return hull;
}

/**
 * Majority vote's accuracy over the scored tasks at `budget` answers on them, with each task's answers
 * taken in `orders` (every answer of the task in a random order).
 */
export function majorityAtBudget(data: IndexedDataset, orders: readonly IndexedAnswer[][], budget: number): number {
  const scored = data.truth.filter((t) => t >= 0).length;
  const widest = Math.max(...orders.map((o) => o.length));
  const points: Point[] = [];
  for (let k = 1; k <= widest; k++) {
    const point = majorityAt(data, orders, k);
    if (points.length > 0 && point.budget === (points[points.length - 1] as Point).budget) continue;
    points.push(point);
  }
  const hull = upperHull(points);
  const first = hull[0] as Point;
  if (budget <= first.budget) return first.correct / scored;
  for (let h = 1; h < hull.length; h++) {
    const a = hull[h - 1] as Point;
    const b = hull[h] as Point;
    if (budget <= b.budget) return (a.correct + ((b.correct - a.correct) * (budget - a.budget)) / (b.budget - a.budget)) / scored;
  }
  return (hull[hull.length - 1] as Point).correct / scored;
}
