// Every list of the API is cursor-paginated: `{<name>: [...], nextCursor, hasMore}`. A list method
// returns a PageList: iterate it with `for await` to walk every item across pages (fetched lazily, one
// page at a time, stopping when you break), or call `.page()` for one page and its cursor.
import type { RequestOptions } from './http.ts';

/** One page of a list: its items, and the cursor of the next page (null on the last one). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Paging parameters every list takes. */
export interface PageParams {
  /**
   * Page size, 1–100. `.page()` sends it as given (the server's default is 20); iteration fetches pages
   * of this size, 100 unless set.
   */
  limit?: number;
  /** Start after this cursor (the `nextCursor` of an earlier page). */
  cursor?: string;
}

/** Iteration's page size when the caller sets none: the API's maximum, the fewest round trips. */
export const ITERATION_PAGE_SIZE = 100;

export type PageFetcher<T> = (paging: { limit: number | undefined; cursor: string | undefined }, options: RequestOptions) => Promise<Page<T>>;

export class PageList<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly paging: PageParams = {},
    private readonly options: RequestOptions = {},
  ) {}

  /** One page: the first (or the one after `cursor`), of `limit` items or the server's default. */
  page(): Promise<Page<T>> {
    return this.fetchPage({ limit: this.paging.limit, cursor: this.paging.cursor }, this.options);
  }

  /** Every page in turn, each fetched when the previous one has been consumed. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = this.paging.cursor;
    const limit = this.paging.limit ?? ITERATION_PAGE_SIZE;
    for (;;) {
      const page = await this.fetchPage({ limit, cursor }, this.options);
      yield page;
      if (!page.hasMore || !page.nextCursor) return;
      cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Collects the items into an array: all of them, or the first `max`. */
  async toArray(options: { max?: number } = {}): Promise<T[]> {
    const items: T[] = [];
    const max = options.max ?? Number.POSITIVE_INFINITY;
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
