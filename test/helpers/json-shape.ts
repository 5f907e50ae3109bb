// Comparing responses by form, not value: two answers that must not be told apart (a golden task and a
// regular one) or that must keep one shape (GET next and complete's `next`).

/** The shape of a JSON value: its keys and the kinds of its leaves, with ids and times by their form. */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  if (typeof value === 'string') {
    if (/^c[a-z0-9]{24}$/.test(value)) return 'cuid';
    if (!Number.isNaN(Date.parse(value)) && /T\d\d:/.test(value)) return 'timestamp';
    return 'string';
  }
  return typeof value;
}
