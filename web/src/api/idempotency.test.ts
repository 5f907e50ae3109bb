// The Idempotency-Key rule every creating form follows: the same body keeps its key (a retry after a
// lost response replays the first answer), any change of the body gets a new key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentKey, keyForBody, newIdempotencyKey, serializeBody, type KeyedBody } from './idempotency';

const counter = () => {
  let n = 0;
  return () => `key-${(n += 1)}`;
};

describe('keyForBody', () => {
  it('keeps the key while the body is the same, even rebuilt with its fields in another order', () => {
    const make = counter();
    const first = keyForBody(null, { email: 'a@b.c', appName: 'App', appUrl: 'https://a.example' }, make);
    const retry = keyForBody(first, { appUrl: 'https://a.example', appName: 'App', email: 'a@b.c' }, make);
    expect(retry.key).toBe(first.key);
  });

  it('makes a new key when the body changes, and keeps that one for its retries', () => {
    const make = counter();
    const first = keyForBody(null, { amountCents: 50_000, method: 'card' }, make);
    const changed = keyForBody(first, { amountCents: 60_000, method: 'card' }, make);
    const retried = keyForBody(changed, { amountCents: 60_000, method: 'card' }, make);
    expect(changed.key).not.toBe(first.key);
    expect(retried.key).toBe(changed.key);
  });

  it('follows the rule on any sequence of bodies: a key changes exactly when the body does', () => {
    const body = fc.record({
      name: fc.constantFrom('a', 'b'),
      tags: fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
      n: fc.option(fc.integer({ min: 0, max: 2 })),
    });
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 12 }), (bodies) => {
        const make = counter();
        let previous: KeyedBody | null = null;
        for (const next of bodies) {
          const keyed = keyForBody(previous, next, make);
          if (previous !== null) expect(keyed.key === previous.key).toBe(serializeBody(next) === previous.body);
          previous = keyed;
        }
      }),
    );
  });
});

describe('newIdempotencyKey', () => {
  it('makes distinct keys the service accepts (at most 255 characters)', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{32,36}$/);
  });
});

describe('contentKey', () => {
  it('is the same for the same route and bytes, and differs for any other', async () => {
    const body = JSON.stringify({ tasks: [{ type: 'BINARY_CHOICE', content: 'Is it?', options: ['yes', 'no'] }] });
    const key = await contentKey('POST /tasks/batch', body);
    expect(key).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(await contentKey('POST /tasks/batch', body)).toBe(key);
    expect(await contentKey('POST /tasks/batch', new TextEncoder().encode(body))).toBe(key);
    expect(await contentKey('POST /tasks/batch/csv', body)).not.toBe(key);
    expect(await contentKey('POST /tasks/batch', `${body} `)).not.toBe(key);
  });
});
