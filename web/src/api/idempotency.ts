// Idempotency-Keys (contract §4) for every creating POST the dashboard sends. One key per distinct
// request body: a retry of the same body after a lost or failed response sends the same key, so the
// service replays its first answer (the same task, deposit, developer…) instead of acting twice; a body
// that changed is another request and gets a new key.
import { useCallback, useMemo, useRef } from 'react';
import { sha256 } from './sha256';

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
  return (
    JSON.stringify(body, (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
    ) ?? 'undefined'
  );
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

/* Imports (a JSON batch, a CSV file) */

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (typeof crypto !== 'undefined' && crypto.subtle) return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
  return hex(sha256(bytes));
}

/**
 * The Idempotency-Key of an import, derived from its route and the exact bytes sent: the same batch or
 * file sent again within the service's 24 hours replays the first answer and creates nothing, after a
 * reload or in another tab too. Any other content is another key.
 */
export async function contentKey(route: string, body: string | Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`${route}\n`);
  const content = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const bytes = new Uint8Array(head.length + content.length);
  bytes.set(head);
  bytes.set(content, head.length);
  return `sha256-${await sha256Hex(bytes)}`;
}

/** contract §4: the service keeps a key and its answer 24 hours. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const IMPORTS_KEY = 'concord.imports';
const MAX_REMEMBERED = 100;

function readImports(now: number): Record<string, string> {
  try {
    const stored = JSON.parse(sessionStorage.getItem(IMPORTS_KEY) ?? '{}') as unknown;
    if (!stored || typeof stored !== 'object') return {};
    return Object.fromEntries(
      Object.entries(stored as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && now - Date.parse(entry[1]) < KEY_LIFETIME_MS,
      ),
    );
  } catch {
    return {};
  }
}

/** Remembers (in this tab, for 24 hours) when an import's content first created tasks. */
export function rememberImport(key: string, at: Date = new Date()): void {
  const imports = readImports(at.getTime());
  if (imports[key]) return;
  imports[key] = at.toISOString();
  const newest = Object.entries(imports)
    .sort(([, a], [, b]) => (a < b ? 1 : -1))
    .slice(0, MAX_REMEMBERED);
  try {
    sessionStorage.setItem(IMPORTS_KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // Storage full or refused: the replay is still said, only without its time.
  }
}

/** When this tab first sent an import of that key, if it remembers. */
export const importedAt = (key: string, now = Date.now()): string | undefined => readImports(now)[key];
