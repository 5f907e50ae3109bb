// The overview chart's bars from GET /billing/spend's days: money in and money out as two series, so a
// day of charges is never read as a deposit. An administrator's adjustment has no series of its own (it
// is rare, and may be either sign): a credit counts as money in on its day, a debit as money out.
import type { Series } from '../ui/Charts';

export interface SpendDay {
  date: string;
  chargedCents: number;
  depositedCents: number;
  adjustedCents: number;
}

export const SPEND_SERIES: Series[] = [
  { name: 'Credited', color: '#0f7a3d' },
  { name: 'Charged', color: '#4338ca' },
];

/** One bar pair per day, oldest first: [credited, charged] in cents, both positive. */
export function spendBars(days: readonly SpendDay[], label: (date: string) => string): { label: string; values: number[] }[] {
  return days.map((day) => ({
    label: label(day.date),
    values: [day.depositedCents + Math.max(0, day.adjustedCents), day.chargedCents + Math.max(0, -day.adjustedCents)],
  }));
}
