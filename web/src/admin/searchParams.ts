// The admin lists' state in the URL: a search parameter kept as state, and a search box debounced into
// it, so a link, back and forward reproduce the list.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

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
