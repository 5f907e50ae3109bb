// Small helpers the admin pages share: a search box debounced into the URL, a fresh Idempotency-Key, a URL search
// parameter kept as state, and the admin's own wording of a few API codes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, describeError } from '../api/errors';
import { formatCents } from '../ui/format';

/** A key that makes a creating POST safe to retry (the same key and body create once). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One search parameter of the page's URL as state; the empty value removes it. */
export function useSearchParam(name: string, fallback = ''): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? fallback;
  const set = useCallback(
    (next: string) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === fallback || next === '') updated.delete(name);
          else updated.set(name, next);
          return updated;
        },
        { replace: true },
      ),
    [name, fallback, setParams],
  );
  return [value, set];
}

/**
 * A search box whose text reaches the URL's `name` parameter (and so the query) once typing pauses;
 * back, forward or a pasted link puts the URL's value back in the box.
 */
export function useSearchText(name: string, ms = 300): { text: string; change: (value: string) => void; q: string } {
  const [q, setQ] = useSearchParam(name);
  const [text, setText] = useState(q);
  const [synced, setSynced] = useState(q);
  const timer = useRef<number | undefined>(undefined);
  if (q !== synced) {
    setSynced(q);
    if (text.trim() !== q) setText(q);
  }
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const change = useCallback(
    (value: string) => {
      setText(value);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setQ(value.trim()), ms);
    },
    [setQ, ms],
  );
  return { text, change, q };
}

/** The sentence for an error on an admin page, where the buyer-facing wording of some codes would mislead. */
export function describeAdminError(error: unknown): string {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'INSUFFICIENT_CREDITS': {
        const available = Number(error.details?.availableCents);
        return Number.isFinite(available)
          ? `That debit is more than the buyer's available balance (${formatCents(available)}: the balance less what open tasks reserve).`
          : "That debit is more than the buyer's available balance (the balance less what open tasks reserve).";
      }
      case 'BUYER_NOT_FOUND':
        return 'This buyer no longer exists. Reload the list.';
      case 'DEVELOPER_NOT_FOUND':
        return 'This developer no longer exists. Reload the list.';
      case 'ANNOTATOR_NOT_FOUND':
        return 'This annotator no longer exists for that app.';
      case 'PAYOUT_NOT_PENDING':
        return 'This payout has already been approved or rejected (perhaps by another administrator). The list now shows its status.';
      case 'EMAIL_TAKEN':
        return 'An account with that e-mail already exists (a buyer, a developer or the admin).';
      default:
        break;
    }
  }
  return describeError(error);
}

/** An absolute http(s) URL, as POST /admin/developers requires for appUrl. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
