// Idempotency-Keys (contract §4) for every creating POST the dashboard sends. One key per distinct
// request body: a retry of the same body after a lost or failed response sends the same key, so the
// service replays its first answer (the same task, deposit, developer…) instead of acting twice; a body
// that changed is another request and gets a new key.
import { useCallback, useMemo, useRef } from 'react';

/**
 * A fresh random key. crypto.randomUUID exists only in secure contexts (https, localhost); a dashboard
 * opened over plain HTTP on a LAN address falls back to getRandomValues, which exists everywhere.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A request body and the key it was sent with. */
export interface KeyedBody {
  body: string;
  key: string;
}

/** A body as text, its object keys sorted, so the same content always reads the same. */
export function serializeBody(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  ) ?? 'undefined';
}

/** The rule: the same body keeps the previous key; any other body gets a new one. */
export function keyForBody(previous: KeyedBody | null, body: unknown, makeKey: () => string = newIdempotencyKey): KeyedBody {
  const serialized = serializeBody(body);
  return previous !== null && previous.body === serialized ? previous : { body: serialized, key: makeKey() };
}

export interface IdempotencyKeys {
  /** The key to send with this body: the last one while the body is the same, else a new one. */
  keyFor: (body: unknown) => string;
  /** Forgets the last body once its request succeeded, so sending the same content again is a new request. */
  forget: () => void;
}

/**
 * One Idempotency-Key per distinct form content, for the lifetime of the component. `keyFor(body)` is
 * called when the form is sent (many forms only know their body then).
 */
export function useIdempotencyKey(): IdempotencyKeys {
  const last = useRef<KeyedBody | null>(null);
  const keyFor = useCallback((body: unknown) => {
    last.current = keyForBody(last.current, body);
    return last.current.key;
  }, []);
  const forget = useCallback(() => {
    last.current = null;
  }, []);
  return useMemo(() => ({ keyFor, forget }), [keyFor, forget]);
}
