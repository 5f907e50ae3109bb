// Keyset cursors: an opaque base64url token holding the (createdAt, id) of the last row of a page.
// Rows are ordered newest first by (createdAt, id), so a row inserted while a client is paging never
// shifts the pages it has yet to read.
import { BadRequestError } from './errors.ts';

export interface Cursor {
  createdAt: Date;
  id: string;
}

export type Page<T, K extends string> = { [key in K]: T[] } & { nextCursor: string | null; hasMore: boolean };

export function encodeCursor(row: Cursor): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

/**
 * The row id a cursor holds: a cuid, or one behind the readable prefix of a resource added after the spec
 * (contract §0: `key_…`, `evt_…`).
 */
const CURSOR_ID_PATTERN = /^(?:[a-z]+_)?c[0-9a-z]{24}$/;

const invalidCursor = () => new BadRequestError('INVALID_CURSOR', 'The cursor was not produced by this API');

export function decodeCursor(token: string): Cursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw invalidCursor();
  const [createdAt, id] = decoded as unknown[];
  if (typeof createdAt !== 'string' || typeof id !== 'string' || !CURSOR_ID_PATTERN.test(id)) throw invalidCursor();
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== createdAt) throw invalidCursor();
  return { createdAt: date, id };
}

/**
 * A page from `limit + 1` rows read newest first: the extra row only tells that more remain, and the
 * cursor points after the last row returned.
 */
export function toPage<T extends Cursor, K extends string>(key: K, rows: T[], limit: number): Page<T, K> {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = items.at(-1);
  return { [key]: items, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null } as Page<T, K>;
}

/** The query of one page: how many rows, and the row the previous page ended with. */
export interface PageRequest {
  limit: number;
  after?: Cursor;
}

/** A page request from a route's `limit` and `cursor` (INVALID_CURSOR when the cursor is not ours). */
export const pageRequest = (limit: number, cursor?: string): PageRequest => ({ limit, after: cursor === undefined ? undefined : decodeCursor(cursor) });

/**
 * The Prisma arguments of a keyset page on (createdAt, id): rows after the cursor in the given order,
 * `limit + 1` of them (see toPage). Newest first unless `asc`.
 */
export function keysetArgs(page: PageRequest, direction: 'desc' | 'asc' = 'desc') {
  const { after } = page;
  const beyond =
    direction === 'desc'
      ? after && { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : after && { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] };
  return {
    where: beyond ?? {},
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: page.limit + 1,
  };
}
