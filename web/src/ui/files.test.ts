import { describe, expect, it } from 'vitest';
import { formatBytes } from './files';

describe('formatBytes', () => {
  it('reads sizes in base 1 024, so the 5 MB upload limit is 5 MB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.00 KB');
    expect(formatBytes(15_360)).toBe('15.0 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.00 MB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2.00 TB');
  });
});
