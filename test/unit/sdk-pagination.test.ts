// The SDK's lists: `for await` walks every item across pages, fetching each page only when the previous
// one is consumed and stopping when the loop breaks; `.page()` reads one page.
import { describe, expect, it } from 'vitest';
import { AnnotationClient, BuyerClient, type TaskListItem } from '../../sdk/src/index.ts';

/** A fake API with `total` tasks t1…tN served in pages by a numeric cursor, recording each request. */
function pagedApi(total: number) {
  const requests: URL[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = new URL(String(input));
    requests.push(url);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 100);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => ({ id: `t${start + i + 1}` }));
    const end = start + items.length;
    const hasMore = end < total;
    const key = url.pathname.split('/').at(-1) === 'payouts' ? 'payouts' : url.pathname.endsWith('/ledger') ? 'entries' : 'tasks';
    return new Response(JSON.stringify({ [key]: items, nextCursor: hasMore ? String(end) : null, hasMore }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, requests };
}

describe('PageList', () => {
  it('for await walks every page, 100 at a time unless a limit is given, passing the filters on each', async () => {
    const api = pagedApi(250);
    const client = new BuyerClient({ baseUrl: 'http://concord.test', token: 'jwt', fetch: api.fetch });
    const ids: string[] = [];
    for await (const task of client.tasks.list({ status: 'COMPLETED' })) ids.push(task.id);
    expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => `t${i + 1}`));
    expect(api.requests.map((url) => url.search)).toEqual([
      '?status=COMPLETED&limit=100',
      '?status=COMPLETED&limit=100&cursor=100',
      '?status=COMPLETED&limit=100&cursor=200',
    ]);

    const small = pagedApi(5);
    const pages = [];
    for await (const page of new BuyerClient({ baseUrl: 'http://concord.test', token: 'jwt', fetch: small.fetch }).billing.ledger({ limit: 2 }).pages()) {
      pages.push(page.data.map((entry) => entry.id));
    }
    expect(pages).toEqual([['t1', 't2'], ['t3', 't4'], ['t5']]);
  });

  it('fetches lazily: breaking out of the loop stops the requests', async () => {
    const api = pagedApi(1_000);
    const client = new BuyerClient({ baseUrl: 'http://concord.test', token: 'jwt', fetch: api.fetch });
    let seen = 0;
    for await (const _task of client.tasks.list({ limit: 10 })) {
      if (++seen === 15) break;
    }
    expect(api.requests).toHaveLength(2);
    await expect(client.tasks.list({ limit: 10 }).toArray({ max: 25 })).resolves.toHaveLength(25);
    expect(api.requests).toHaveLength(5);
  });

  it('.page() reads one page as asked (the server default size without a limit) and gives its cursor', async () => {
    const api = pagedApi(45);
    const client = new BuyerClient({ baseUrl: 'http://concord.test', token: 'jwt', fetch: api.fetch });
    const first = await client.tasks.list().page();
    expect(first).toMatchObject({ nextCursor: '20', hasMore: true });
    expect(first.data).toHaveLength(20);
    expect(api.requests[0]?.search).toBe('');
    const last = await client.tasks.list({ cursor: '40', limit: 10 }).page();
    expect(last).toEqual({ data: [{ id: 't41' }, { id: 't42' }, { id: 't43' }, { id: 't44' }, { id: 't45' }], nextCursor: null, hasMore: false });
    // Iteration from a cursor goes on from there.
    const rest: TaskListItem[] = await client.tasks.list({ cursor: '40' }).toArray();
    expect(rest.map((t) => t.id)).toEqual(['t41', 't42', 't43', 't44', 't45']);
  });

  it('an empty list yields nothing after one request; the annotation client pages payouts the same way', async () => {
    const empty = pagedApi(0);
    const client = new BuyerClient({ baseUrl: 'http://concord.test', token: 'jwt', fetch: empty.fetch });
    await expect(client.tasks.list().toArray()).resolves.toEqual([]);
    expect(empty.requests).toHaveLength(1);

    const api = pagedApi(3);
    const app = new AnnotationClient({ baseUrl: 'http://concord.test', apiKey: 'k', fetch: api.fetch });
    await expect(app.payouts('ann-1', { limit: 2 }).toArray()).resolves.toEqual([{ id: 't1' }, { id: 't2' }, { id: 't3' }]);
    expect(api.requests.map((url) => `${url.pathname}${url.search}`)).toEqual([
      '/api/v1/sdk/annotators/ann-1/payouts?limit=2',
      '/api/v1/sdk/annotators/ann-1/payouts?limit=2&cursor=2',
    ]);
  });
});
