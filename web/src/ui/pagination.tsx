// Cursor pagination as the API defines it: a page is fetched by the cursor the previous one returned.
// The hooks keep the cursors seen, so Previous needs no offset the API does not have, and a buyer with a
// million tasks only ever loads one page. useCursorStack keeps them in the component (lists inside a
// page); useUrlCursor keeps the page in the address (?cursor=&page=) and the cursors before it in the
// history entry's state, so Back returns to the previous page and a reload stays on this one.
import { useCallback, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Button } from './Button';
import { formatCount } from './format';

export function useCursorStack() {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const cursor = stack[stack.length - 1];
  const next = useCallback((nextCursor: string | null | undefined) => {
    if (nextCursor) setStack((current) => [...current, nextCursor]);
  }, []);
  const previous = useCallback(() => setStack((current) => (current.length > 1 ? current.slice(0, -1) : current)), []);
  const reset = useCallback(() => setStack([undefined]), []);
  return { cursor, page: stack.length, next, previous, reset };
}

export const PAGE_PARAMS = { cursor: 'cursor', page: 'page' } as const;
const STATE_KEY = 'previousCursors';

type HistoryState = Record<string, unknown> | null;

/** The page of a list whose place is kept in the URL. `previous` is undefined when the cursors before it are not known (a shared link). */
export function useUrlCursor() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const state = (location.state ?? null) as HistoryState;
  const cursor = params.get(PAGE_PARAMS.cursor) ?? undefined;
  const pageParam = Number(params.get(PAGE_PARAMS.page));
  const page = cursor === undefined ? 1 : Number.isInteger(pageParam) && pageParam >= 2 ? pageParam : null;
  const stored = state?.[STATE_KEY];
  // The cursors of the pages before this one (the first page's is null), when this history entry has them.
  const before =
    page === 1
      ? []
      : page !== null && Array.isArray(stored) && stored.length === page - 1 && stored.every((c) => c === null || typeof c === 'string')
        ? (stored as (string | null)[])
        : null;

  const go = (target: string | null | undefined, targetPage: number, cursors: (string | null)[] | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (target) {
          next.set(PAGE_PARAMS.cursor, target);
          next.set(PAGE_PARAMS.page, String(targetPage));
        } else {
          next.delete(PAGE_PARAMS.cursor);
          next.delete(PAGE_PARAMS.page);
        }
        return next;
      },
      { state: { ...(state ?? {}), [STATE_KEY]: cursors } },
    );

  return {
    cursor,
    /** 1-based; null when the address names a cursor but not its page. */
    page,
    next: (nextCursor: string | null | undefined) => {
      if (nextCursor) go(nextCursor, (page ?? 0) + 1, before ? [...before, cursor ?? null] : null);
    },
    previous: before && page !== 1 ? () => go(before[before.length - 1], (page ?? 2) - 1, before.slice(0, -1)) : undefined,
    first: () => go(undefined, 1, []),
  };
}

interface PagerProps {
  /** 1-based, or null when not known. */
  page: number | null;
  /** The number of pages, when the counts make it known. */
  pages?: number | undefined;
  hasMore: boolean;
  /** Undefined when the previous page is not known: a First page button is offered instead. */
  onPrevious: (() => void) | undefined;
  onFirst?: () => void;
  onNext: () => void;
  busy?: boolean;
}

export function Pager({ page, pages, hasMore, onPrevious, onFirst, onNext, busy }: PagerProps) {
  if (page === 1 && !hasMore) return null;
  const position =
    page === null ? 'A later page' : pages !== undefined && pages >= page ? `Page ${formatCount(page)} of ${formatCount(pages)}` : `Page ${formatCount(page)}`;
  return (
    <nav className="pager" aria-label="Pages">
      {onPrevious || page === 1 || !onFirst ? (
        <Button onClick={onPrevious} disabled={page === 1 || !onPrevious || busy}>
          ← Previous
        </Button>
      ) : (
        <Button onClick={onFirst} disabled={busy}>
          ← First page
        </Button>
      )}
      <span aria-live="polite">{position}</span>
      <Button onClick={onNext} disabled={!hasMore || busy}>
        Next →
      </Button>
    </nav>
  );
}
