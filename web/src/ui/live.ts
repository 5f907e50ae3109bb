// Live pages without a reload: TanStack Query refetches on an interval that starts short and backs
// off while nothing changes (2 s doubling to 10 s), and snaps back to 2 s as soon as something does.
// Hidden tabs do not poll (TanStack Query's default). The buyer's pages whose data moves with the
// buyer's events (a task completes or fails, the balance runs low) refresh when the event stream says so
// (events/LiveEvents.tsx) and use `streamedInterval`: while the stream is up they only poll slowly, for
// what no event announces (a task turning VALIDATING, an answer arriving); while it is down, as before.
import { ApiError } from '../api/errors';

const FAST_MS = 2_000;
const SLOW_MS = 10_000;
/** Heavy aggregates (30 days of charts) change slowly: asked once a minute, and fresh for as long. */
export const CHART_REFRESH_MS = 60_000;

const seen = new WeakMap<object, { updatedAt: number; signature: number; interval: number }>();

/** What liveInterval reads of a TanStack Query query (structural, so any query's data type fits). */
interface QueryLike {
  state: { dataUpdatedAt: number; data: unknown; error: unknown };
}

/**
 * A `refetchInterval` for useQuery that backs off while the data stays the same, and stops once the
 * thing is gone (a 404 will not change by asking again).
 */
export function liveInterval(query: QueryLike): number | false {
  const { dataUpdatedAt, data, error } = query.state;
  if (error instanceof ApiError && error.status === 404) return false;
  const last = seen.get(query);
  // Called again without a new fetch (a re-render): keep the interval chosen for this result.
  if (last && last.updatedAt === dataUpdatedAt) return last.interval;
  const signature = hash(data);
  const interval = last && last.signature === signature ? Math.min(last.interval * 2, SLOW_MS) : FAST_MS;
  seen.set(query, { updatedAt: dataUpdatedAt, signature, interval });
  return interval;
}

/** While the event stream is up, the slow poll that catches what no event announces. */
export const STREAMED_FALLBACK_MS = 30_000;

let eventStreamLive = false;

/** The event stream (events/LiveEvents.tsx) reports whether it is up. */
export function setEventStreamLive(live: boolean): void {
  eventStreamLive = live;
}

/**
 * A `refetchInterval` for the queries the event stream refreshes: a slow fallback poll while the stream
 * is up (each event invalidates them at once), `liveInterval`'s back-off while it is not.
 */
export function streamedInterval(query: QueryLike): number | false {
  if (!eventStreamLive) return liveInterval(query);
  const { error } = query.state;
  if (error instanceof ApiError && error.status === 404) return false;
  return STREAMED_FALLBACK_MS;
}

function hash(value: unknown): number {
  const text = JSON.stringify(value) ?? '';
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}
