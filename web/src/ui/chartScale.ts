// The arithmetic of the bar charts, kept apart from the drawing so it can be tested: the value axis's
// ticks (round numbers a person reads at a glance) and which bars get a label on the time axis.

/** The round steps an axis may take, per power of ten. */
const STEPS = [1, 2, 2.5, 5, 10];

/**
 * Ticks from 0 up to a round top at or above `max`, about `count` intervals apart: 0, 250, 500, 750, 1 000
 * for a highest value of 880. Integer values (counts, cents) get integer steps.
 */
export function valueTicks(max: number, count = 4, integer = true): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = (STEPS.find((candidate) => candidate * power >= raw) ?? 10) * power;
  if (integer) step = Math.max(1, Math.ceil(step));
  const ticks = [0];
  for (let tick = 0; tick < max;) {
    tick = Number((tick + step).toPrecision(12));
    ticks.push(tick);
  }
  return ticks;
}

/**
 * The bars that carry a time-axis label: counted back from the last (today), which is always labelled,
 * about six in all. `minor` are every other one of them, left out where the chart is narrow (a phone) so
 * the labels never run into each other.
 */
export function xLabelSlots(bars: number, labels = 6): { index: number; minor: boolean }[] {
  const every = Math.max(1, Math.ceil(bars / labels));
  const slots: { index: number; minor: boolean }[] = [];
  for (let back = 0; back * every < bars; back++) slots.unshift({ index: bars - 1 - back * every, minor: back % 2 === 1 });
  return slots;
}

const wholeDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** An axis tick in cents: "$250" for whole dollars, "$0.25" below. */
export const formatAxisCents = (cents: number): string => (cents % 100 === 0 ? wholeDollars.format(cents / 100) : dollars.format(cents / 100));
