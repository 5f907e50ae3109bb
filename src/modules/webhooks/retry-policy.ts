// When a failed webhook attempt is tried again, per configuration (README, Webhooks: retry policies).
//  - spec (the default; contract §7): a timeout, network error or 5xx is retried once, retryDelayMs
//    (WEBHOOK_RETRY_DELAY_MS, 30 s) later; a 4xx is not retried.
//  - extended: 8 attempts over about a day. After attempt n (1–7) the next comes EXTENDED_DELAYS_MS[n-1]
//    later ±20 % (jitter, so receivers coming back up are not hit by every sender at once). A timeout,
//    network error, 5xx, 408 or 429 is retried; any other 4xx is not. A 429 or 503 with Retry-After is
//    not retried before that moment (capped at the longest step, so a receiver cannot stall its queue
//    for longer than the schedule would).
// And, for extended only, when a configuration is disabled: after 3 days of nothing but failures.
import type { RetryPolicy } from '@concord/contract';
import type { SendOutcome } from './webhook-sender.ts';

/** spec: one retry, so at most two attempts. */
export const SPEC_MAX_ATTEMPTS = 2;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** extended: the wait after each failed attempt but the last (8 attempts over about 22 h). */
export const EXTENDED_DELAYS_MS: readonly number[] = [30_000, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR];
/** The longest wait between two attempts, also the most a Retry-After can ask for. */
const LONGEST_DELAY_MS = 12 * HOUR;
export const EXTENDED_MAX_ATTEMPTS = EXTENDED_DELAYS_MS.length + 1;
export const EXTENDED_JITTER = 0.2;
/** extended: a configuration whose attempts have all failed for this long is disabled. */
export const AUTO_DISABLE_AFTER_MS = 3 * 24 * HOUR;

export interface RetryContext {
  policy: RetryPolicy;
  /** Attempts made so far, this one included. */
  attempts: number;
  outcome: Exclude<SendOutcome, { kind: 'success' }>;
  now: Date;
  /** WEBHOOK_RETRY_DELAY_MS (spec policy only). */
  specRetryDelayMs: number;
  /** A number in [0, 1): the jitter's draw. */
  random: () => number;
}

/** When to try again, or null when the delivery is FAILED for good. */
export function nextAttemptAt({ policy, attempts, outcome, now, specRetryDelayMs, random }: RetryContext): Date | null {
  if (policy === 'spec') {
    return outcome.kind === 'retryable' && attempts < SPEC_MAX_ATTEMPTS ? new Date(now.getTime() + specRetryDelayMs) : null;
  }
  if (attempts >= EXTENDED_MAX_ATTEMPTS || !extendedRetries(outcome)) return null;
  const step = EXTENDED_DELAYS_MS[attempts - 1] ?? LONGEST_DELAY_MS;
  const jittered = Math.round(step * (1 - EXTENDED_JITTER + 2 * EXTENDED_JITTER * random()));
  const asked = retryAfterMs(outcome, now);
  const delay = asked === null ? jittered : Math.max(jittered, Math.min(asked, LONGEST_DELAY_MS));
  return new Date(now.getTime() + delay);
}

/** extended: what is worth another attempt — the spec's retryable outcomes, and 408/429 among the 4xx. */
function extendedRetries(outcome: RetryContext['outcome']): boolean {
  if (outcome.kind === 'retryable') return true;
  return outcome.statusCode === 408 || outcome.statusCode === 429;
}

/** The wait a 429 or 503 asks for with Retry-After (seconds, or an HTTP date), or null. */
export function retryAfterMs(outcome: RetryContext['outcome'], now: Date): number | null {
  if (outcome.statusCode !== 429 && outcome.statusCode !== 503) return null;
  const value = outcome.retryAfter?.trim();
  if (!value) return null;
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** extended: true when the configuration has failed without a success since `failingSince` for 3 days. */
export function shouldDisable(policy: RetryPolicy, failingSince: Date | null, now: Date): boolean {
  return policy === 'extended' && failingSince !== null && now.getTime() - failingSince.getTime() >= AUTO_DISABLE_AFTER_MS;
}
