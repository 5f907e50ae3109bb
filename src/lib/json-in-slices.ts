// JSON text of a large response without holding the event loop for it: JSON.stringify of a CSV import's
// result (a 5 MB file: 99 000 created tasks) takes tens of milliseconds in one synchronous step, during
// which the process answers nothing else. Here an object's long arrays are written a slice at a time, with
// a turn of the event loop between slices; the text is exactly JSON.stringify's.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Array items per synchronous step. */
const SLICE = 2_000;

export async function jsonInSlices(value: unknown, slice = SLICE): Promise<string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(value);
  }
  const parts: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    parts.push(`${parts.length > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    if (!Array.isArray(field) || field.length <= slice) {
      parts.push(JSON.stringify(field));
      continue;
    }
    const items: string[] = [];
    for (let from = 0; from < field.length; from += slice) {
      items.push(JSON.stringify(field.slice(from, from + slice)).slice(1, -1));
      await nextTurn();
    }
    parts.push(`[${items.join(',')}]`);
  }
  return `{${parts.join('')}}`;
}
