// The retry policies of webhook configurations (README, Webhooks): `spec` is contract §7 exactly;
// `extended` retries 8 times over about a day with ±20 % jitter, 408 and 429 included, honouring
// Retry-After within the schedule's longest step.
import { describe, expect, it } from 'vitest';
import {
  AUTO_DISABLE_AFTER_MS,
  EXTENDED_DELAYS_MS,
  EXTENDED_MAX_ATTEMPTS,
  nextAttemptAt,
  retryAfterMs,
  shouldDisable,
  type RetryContext,
} from '../../src/modules/webhooks/retry-policy.ts';

const now = new Date('2026-03-14T09:00:00.000Z');
const HOUR = 3_600_000;
const serverError: RetryContext['outcome'] = { kind: 'retryable', statusCode: 503, error: 'HTTP 503' };
const timeout: RetryContext['outcome'] = { kind: 'retryable', statusCode: null, error: 'timeout after 10000 ms' };
const clientError = (statusCode: number, retryAfter?: string): RetryContext['outcome'] => ({
  kind: 'client-error',
  statusCode,
  ...(retryAfter ? { retryAfter } : {}),
});

const next = (context: Partial<RetryContext>) =>
  nextAttemptAt({ policy: 'extended', attempts: 1, outcome: serverError, now, specRetryDelayMs: 30_000, random: () => 0.5, ...context });
const waitMs = (context: Partial<RetryContext>) => {
  const at = next(context);
  return at === null ? null : at.getTime() - now.getTime();
};

describe('spec policy (contract §7)', () => {
  it('retries a 5xx, a timeout or a network error once, WEBHOOK_RETRY_DELAY_MS later, then never', () => {
    for (const outcome of [serverError, timeout]) {
      expect(waitMs({ policy: 'spec', outcome, attempts: 1 })).toBe(30_000);
      expect(waitMs({ policy: 'spec', outcome, attempts: 2 })).toBeNull();
    }
  });

  it('never retries a 4xx, 408 and 429 included, and has no jitter', () => {
    for (const status of [400, 404, 408, 410, 429]) expect(waitMs({ policy: 'spec', outcome: clientError(status, '5'), attempts: 1 })).toBeNull();
    expect(waitMs({ policy: 'spec', attempts: 1, random: () => 0.99 })).toBe(30_000);
  });
});

describe('extended policy', () => {
  it('waits 30 s, 2 min, 10 min, 1 h, 3 h, 6 h and 12 h between 8 attempts: about 22 h in all', () => {
    const waits = Array.from({ length: EXTENDED_MAX_ATTEMPTS }, (_, i) => waitMs({ attempts: i + 1 }));
    expect(waits).toEqual([30_000, 120_000, 600_000, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, null]);
    expect(EXTENDED_MAX_ATTEMPTS).toBe(8);
    const total = EXTENDED_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total / HOUR).toBeGreaterThan(20);
    expect(total / HOUR).toBeLessThan(26);
  });

  it('jitters each wait within ±20 %', () => {
    for (const [attempts, step] of EXTENDED_DELAYS_MS.entries()) {
      expect(waitMs({ attempts: attempts + 1, random: () => 0 })).toBe(Math.round(step * 0.8));
      const longest = waitMs({ attempts: attempts + 1, random: () => 0.999999 }) ?? 0;
      expect(longest).toBeLessThanOrEqual(step * 1.2);
      expect(longest).toBeGreaterThan(step * 1.199);
    }
  });

  it('retries 5xx, timeouts, network errors, 408 and 429, but no other 4xx', () => {
    for (const outcome of [serverError, timeout, clientError(408), clientError(429)]) expect(waitMs({ outcome })).toBe(30_000);
    for (const status of [0, 400, 401, 403, 404, 410, 422]) expect(waitMs({ outcome: clientError(status) })).toBeNull();
  });

  it('waits at least what Retry-After asks on a 429 or 503, at most the longest step', () => {
    expect(waitMs({ outcome: clientError(429, '120') })).toBe(120_000);
    expect(waitMs({ outcome: clientError(429, '1') })).toBe(30_000);
    expect(waitMs({ outcome: { ...serverError, retryAfter: new Date(now.getTime() + 3_600_000).toUTCString() } })).toBe(HOUR);
    expect(waitMs({ outcome: clientError(429, String(7 * 24 * 3600)) })).toBe(12 * HOUR);
    // Only 429 and 503 ask for a wait; a nonsense header is ignored.
    expect(waitMs({ outcome: { kind: 'retryable', statusCode: 500, error: 'HTTP 500', retryAfter: '600' } })).toBe(30_000);
    expect(waitMs({ outcome: clientError(429, 'soon') })).toBe(30_000);
    expect(retryAfterMs(clientError(429, 'Wed, 21 Oct 2015 07:28:00 GMT'), now)).toBe(0);
  });

  it('disables after 3 days of failures, extended only', () => {
    const since = new Date(now.getTime() - AUTO_DISABLE_AFTER_MS);
    expect(AUTO_DISABLE_AFTER_MS).toBe(72 * HOUR);
    expect(shouldDisable('extended', since, now)).toBe(true);
    expect(shouldDisable('extended', new Date(since.getTime() + 1), now)).toBe(false);
    expect(shouldDisable('extended', null, now)).toBe(false);
    expect(shouldDisable('spec', since, now)).toBe(false);
  });
});
