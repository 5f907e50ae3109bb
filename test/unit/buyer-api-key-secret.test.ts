import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/lib/pagination.ts';
import { BUYER_API_KEY_ID_PATTERN, ID_PATTERN, newBuyerApiKeyId } from '../../src/lib/ids.ts';
import { displayPrefix, isBuyerApiKeySecret, modeForProvider, newBuyerApiKeySecret } from '../../src/modules/buyer-api-keys/buyer-api-key-secret.ts';

describe('buyer API key secrets', () => {
  it('are cnc_<mode>_ and 43 base62 characters, live with Stripe and test with the sandbox', () => {
    expect(newBuyerApiKeySecret(modeForProvider('stripe'))).toMatch(/^cnc_live_[0-9A-Za-z]{43}$/);
    expect(newBuyerApiKeySecret(modeForProvider('sandbox'))).toMatch(/^cnc_test_[0-9A-Za-z]{43}$/);
  });

  it('are unique and use every base62 character about equally often (no modulo bias)', () => {
    const secrets = Array.from({ length: 4_000 }, () => newBuyerApiKeySecret('test'));
    expect(new Set(secrets).size).toBe(secrets.length);
    const counts = new Map<string, number>();
    for (const secret of secrets) for (const char of secret.slice('cnc_test_'.length)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 172 000 characters: 2 774 expected per character; ±15 % is beyond any plausible chance deviation.
    const expected = (secrets.length * 43) / 62;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.15);
  });

  it('are told apart from developer keys and JWTs by their shape', () => {
    expect(isBuyerApiKeySecret(newBuyerApiKeySecret('live'))).toBe(true);
    for (const other of ['cnc_test_short', `cnc_prod_${'a'.repeat(43)}`, `cnc_test_${'a'.repeat(42)}-`, 'c'.repeat(25), 'eyJhbGciOiJIUzI1NiJ9.e30.x']) {
      expect(isBuyerApiKeySecret(other), other).toBe(false);
    }
  });

  it('show the mode and five random characters as their display prefix', () => {
    const secret = newBuyerApiKeySecret('test');
    expect(displayPrefix(secret)).toBe(secret.slice(0, 14));
    expect(displayPrefix(secret)).toMatch(/^cnc_test_[0-9A-Za-z]{5}$/);
  });
});

describe('buyer API key ids', () => {
  it('carry the key_ prefix before a cuid, are never taken for another id, and page by cursor', () => {
    const id = newBuyerApiKeyId();
    expect(id).toMatch(BUYER_API_KEY_ID_PATTERN);
    expect(id).not.toMatch(ID_PATTERN);
    const row = { createdAt: new Date('2026-03-14T09:26:53.589Z'), id };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
  });
});
