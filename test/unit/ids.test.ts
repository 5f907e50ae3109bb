import { describe, expect, it } from 'vitest';
import { ID_PATTERN, newApiKey, newId, newToken } from '../../src/lib/ids.ts';

describe('ids', () => {
  it('are cuid-shaped, unique, and start with the creation time', () => {
    const ids = Array.from({ length: 20_000 }, newId);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    const stamp = parseInt(id.slice(1, 9), 36);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(after);
  });

  it('API keys are cuid-shaped and carry no time prefix in common', () => {
    const keys = Array.from({ length: 1_000 }, newApiKey);
    for (const key of keys.slice(0, 100)) expect(key).toMatch(ID_PATTERN);
    expect(new Set(keys.map((key) => key.slice(1, 5))).size).toBeGreaterThan(900);
  });

  it('invite tokens are 256-bit URL-safe strings', () => {
    expect(newToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
