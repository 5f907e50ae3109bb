import { describe, expect, it } from 'vitest';
import { API_KEY_CACHE_TTL_MS, ApiKeyCache } from '../../src/modules/auth/api-key-cache.ts';

describe('ApiKeyCache', () => {
  it('remembers a key for the TTL, then forgets it', () => {
    let now = 1_000;
    const cache = new ApiKeyCache(() => now);
    cache.set('hash-a', 'dev-1');
    expect(cache.get('hash-a')).toBe('dev-1');
    now += API_KEY_CACHE_TTL_MS - 1;
    expect(cache.get('hash-a')).toBe('dev-1');
    now += 1;
    expect(cache.get('hash-a')).toBeUndefined();
  });

  it('forgets every key of a developer at once and keeps the others', () => {
    const cache = new ApiKeyCache(() => 0);
    cache.set('hash-a', 'dev-1');
    cache.set('hash-b', 'dev-1');
    cache.set('hash-c', 'dev-2');
    cache.forgetDeveloper('dev-1');
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('hash-b')).toBeUndefined();
    expect(cache.get('hash-c')).toBe('dev-2');
  });
});
