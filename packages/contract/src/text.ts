// Screens every incoming value before a schema or the database sees it. PostgreSQL refuses a NUL in
// text and a string that is not valid UTF-16 cannot become UTF-8, so either would surface as a 500
// (contract §0: any string holding one is a VALIDATION_ERROR). Deep nesting is refused too: later
// steps (schemas, request fingerprints) walk values recursively, and a 1 MB body of `[[[[…` must not
// exhaust their stack.

/** Deeper JSON than any route of the API accepts. */
export const MAX_NESTING = 32;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as text, or undefined when it can. */
export function unsafeStringReason(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (UNPAIRED_SURROGATE.test(value)) return 'must not contain an unpaired UTF-16 surrogate';
  return undefined;
}

export interface ScreenIssue {
  path: string;
  message: string;
}

/** The first string (value or key) in `value` that cannot be stored, or nesting beyond MAX_NESTING. */
export function screenValue(value: unknown, root: string): ScreenIssue | undefined {
  // Iterative, so the screen itself cannot run out of stack on hostile nesting.
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string[]; depth: number };
    const where = () => [root, ...item.path].join('.');
    if (typeof item.value === 'string') {
      const reason = unsafeStringReason(item.value);
      if (reason) return { path: where(), message: reason };
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= MAX_NESTING) return { path: where(), message: `must not be nested more than ${MAX_NESTING} levels deep` };
    for (const [key, child] of Object.entries(item.value)) {
      const reason = unsafeStringReason(key);
      if (reason) return { path: where(), message: `has a key that ${reason}` };
      stack.push({ value: child, path: [...item.path, key], depth: item.depth + 1 });
    }
  }
  return undefined;
}
