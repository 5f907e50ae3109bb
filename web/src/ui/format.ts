// Display formats used on every page: money is integer cents, times are ISO strings from the API.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US');
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export const formatCents = (cents: number): string => usd.format(cents / 100);
export const formatCount = (n: number): string => count.format(n);
export const formatDateTime = (iso: string | null | undefined): string => (iso ? `${dateTime.format(new Date(iso))} UTC` : '—');
export const formatPercent = (share: number | null | undefined, digits = 0): string =>
  share === null || share === undefined ? '—' : `${(share * 100).toFixed(digits)} %`;

/** "12 Nov" from a YYYY-MM-DD day, for chart axes. */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** Dollars typed by a person ("12.5", "$1,000") to whole cents, or null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}
