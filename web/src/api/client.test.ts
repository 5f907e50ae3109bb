// A 401 ends the session only for the token the session holds now: a request still in flight with a
// token that a password change has replaced must not sign the new session out.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawFetch, reportUnauthorized, setCredential } from './client';
import { ApiError } from './errors';

afterEach(() => {
  setCredential(null, null);
  vi.unstubAllGlobals();
});

const unauthorized = () => new Response(JSON.stringify({ error: 'Unauthorized', code: 'UNAUTHORIZED' }), { status: 401 });

describe('reportUnauthorized', () => {
  it('ends the session for its current token only', () => {
    const signOut = vi.fn();
    setCredential('new-token', signOut);
    reportUnauthorized('old-token');
    reportUnauthorized(null);
    expect(signOut).not.toHaveBeenCalled();
    reportUnauthorized('new-token');
    expect(signOut).toHaveBeenCalledTimes(1);
  });
});

describe('rawFetch', () => {
  it('does not sign out a session whose token changed while the request was in flight', async () => {
    const oldSession = vi.fn();
    const newSession = vi.fn();
    setCredential('old-token', oldSession);
    let answer: (response: Response) => void = () => undefined;
    const sent: Headers[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers));
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    const request = rawFetch('/exports?format=json');
    // The password changed meanwhile: the session now holds a new token.
    setCredential('new-token', newSession);
    answer(unauthorized());
    await expect(request).rejects.toBeInstanceOf(ApiError);
    expect(sent[0]?.get('authorization')).toBe('Bearer old-token');
    expect(oldSession).not.toHaveBeenCalled();
    expect(newSession).not.toHaveBeenCalled();
  });

  it('ends the session on a 401 for the current token', async () => {
    const signOut = vi.fn();
    setCredential('token', signOut);
    vi.stubGlobal('fetch', () => Promise.resolve(unauthorized()));
    await expect(rawFetch('/exports')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(signOut).toHaveBeenCalledTimes(1);
  });
});
