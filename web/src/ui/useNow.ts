// The time now, kept current: what a relative time ("in 25 min") is read against, so it moves on by itself
// between the data's own refreshes.
import { useEffect, useState } from 'react';

export function useNow(intervalMs = 15_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
