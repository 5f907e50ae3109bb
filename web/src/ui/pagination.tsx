// Cursor pagination as the API defines it: a page is fetched by the cursor the previous one returned.
// The hook keeps the stack of cursors seen, so Previous needs no offset the API does not have, and a
// buyer with a million tasks only ever loads one page.
import { useCallback, useState } from 'react';
import { Button } from './Button';

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

interface PagerProps {
  page: number;
  hasMore: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy?: boolean;
}

export function Pager({ page, hasMore, onPrevious, onNext, busy }: PagerProps) {
  if (page === 1 && !hasMore) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <Button onClick={onPrevious} disabled={page === 1 || busy}>
        ← Previous
      </Button>
      <span aria-live="polite">Page {page}</span>
      <Button onClick={onNext} disabled={!hasMore || busy}>
        Next →
      </Button>
    </nav>
  );
}
