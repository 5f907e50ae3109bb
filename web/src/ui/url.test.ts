// Where a long address (a URL, an e-mail) may wrap: between its parts, never inside a word.
import { describe, expect, it } from 'vitest';
import { addressSegments, isHttpUrl } from './url';

describe('addressSegments', () => {
  it('cuts a URL after the scheme and before each separator, and puts it back together', () => {
    const url = 'http://127.0.0.1:20000/demo-receiver-that-does-not-exist?a=1&b=2#top';
    expect(addressSegments(url)).toEqual(['http://', '127.0.0.1:20000', '/demo-receiver-that-does-not-exist', '?a', '=1', '&b', '=2', '#top']);
    expect(addressSegments('/api/v1/exports?trainRatio=0.8&valRatio=0.1')).toEqual(['/api', '/v1', '/exports', '?trainRatio', '=0.8', '&valRatio', '=0.1']);
    expect(addressSegments(url).join('')).toBe(url);
    expect(addressSegments('https://labelpal.example.com/')).toEqual(['https://', 'labelpal', '.example', '.com', '/']);
  });

  it('cuts an e-mail address before its @ and its dots', () => {
    expect(addressSegments('labelapp-mwzlyu2z@example.com')).toEqual(['labelapp-mwzlyu2z', '@example', '.com']);
  });
});

describe('isHttpUrl', () => {
  it('takes only absolute http(s) addresses', () => {
    expect(isHttpUrl('https://example.com/hook')).toBe(true);
    expect(isHttpUrl('ftp://example.com')).toBe(false);
  });
});
