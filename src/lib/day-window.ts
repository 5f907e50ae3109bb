// The UTC calendar days a daily report covers: the last N days ending with today, today included.
const DAY_MS = 86_400_000;

export interface DayWindow {
  /** The oldest day, `YYYY-MM-DD`. */
  firstDay: string;
  /** Today (UTC), `YYYY-MM-DD`. */
  lastDay: string;
  /** Midnight UTC starting the oldest day. */
  from: Date;
  /** Midnight UTC ending today (exclusive). */
  to: Date;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The `days` UTC days ending with the day `now` falls on. */
export function dayWindow(now: Date, days: number): DayWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  return { firstDay: isoDay(from), lastDay: isoDay(new Date(today)), from, to: new Date(today + DAY_MS) };
}
