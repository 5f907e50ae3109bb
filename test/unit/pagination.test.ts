import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/lib/pagination.ts';
import { newId } from '../../src/lib/ids.ts';
import { requestFingerprint } from '../../src/modules/idempotency/idempotency.service.ts';

describe('cursors', () => {
  it('round-trip the last row of a page', () => {
    const row = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: newId() };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
  });

  it('round-trip the prefixed ids of the resources added after the spec (evt_…, key_…)', () => {
    for (const id of [`evt_${newId()}`, `key_${newId()}`]) {
      const row = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id };
      expect(decodeCursor(encodeCursor(row))).toEqual(row);
    }
  });

  it.each(['', 'not base64 !!', Buffer.from('{}').toString('base64url'), Buffer.from('["yesterday","c123"]').toString('base64url')])(
    'refuses %j with INVALID_CURSOR',
    (token) => {
      expect(() => decodeCursor(token)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    },
  );
});

describe('request fingerprints', () => {
  it('ignore key order but not values, routes or bytes', () => {
    expect(requestFingerprint('r', { a: 1, b: [1, { c: 2, d: 3 }] })).toBe(requestFingerprint('r', { b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(requestFingerprint('r', { a: 1 })).not.toBe(requestFingerprint('r', { a: 2 }));
    expect(requestFingerprint('r', { a: 1 })).not.toBe(requestFingerprint('s', { a: 1 }));
    expect(requestFingerprint('r', Buffer.from('x'))).not.toBe(requestFingerprint('r', Buffer.from('y')));
  });
});
