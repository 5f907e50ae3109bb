// The invitation page's flow: the link alone first; a password only where the service asks for one;
// a new account's token kept; a dead link said in plain words and never tried again.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { acceptInvitation, asksForPassword, invitationErrorSentence, passwordBody, tokenFromHash, type AcceptBody, type Accepted } from './invitation';

const organisation = { id: 'org1', name: 'Northwind AI', role: 'viewer' as const, personal: false, joinedAt: '2026-11-28T07:00:00.000Z' };

const refusal = (status: number, code: string, details?: Record<string, unknown>) =>
  new ApiError(status, { error: code, code, ...(details ? { details } : {}) });
// As the service words it (members.service.ts): the issue's path is the field's name, not a list.
const needsPassword = () => refusal(400, 'VALIDATION_ERROR', { issues: [{ path: 'password', message: 'required: no account uses this address yet' }] });

/** A fake POST /invitations/accept answering each call in turn. */
function service(...answers: (Accepted | ApiError)[]) {
  const sent: AcceptBody[] = [];
  const send = vi.fn((body: AcceptBody) => {
    sent.push(body);
    const answer = answers.shift();
    return answer instanceof ApiError || answer === undefined ? Promise.reject(answer ?? new Error('no answer left')) : Promise.resolve(answer);
  });
  return { send, sent };
}

describe('acceptInvitation', () => {
  it('joins an existing account with the token alone', async () => {
    const { send, sent } = service({ accountCreated: false, organisation });
    expect(await acceptInvitation(send, { token: 't' })).toEqual({ step: 'joined', organisation });
    expect(sent).toEqual([{ token: 't' }]);
  });

  it('asks for a password when the service names it, then keeps the new account’s token', async () => {
    const { send, sent } = service(needsPassword(), { accountCreated: true, organisation, token: 'jwt' });
    expect(await acceptInvitation(send, { token: 't' })).toEqual({ step: 'password', error: null });
    const second = await acceptInvitation(send, passwordBody('t', 'a good password', '  Acme  '));
    expect(second).toEqual({ step: 'created', organisation, token: 'jwt' });
    expect(sent).toEqual([{ token: 't' }, { token: 't', password: 'a good password', companyName: 'Acme' }]);
  });

  it('keeps the password form, with the error for its field, when the service refuses the password', async () => {
    const tooShort = refusal(400, 'VALIDATION_ERROR', { issues: [{ path: ['password'], message: 'Too small: expected string to have >=8 characters' }] });
    const { send } = service(tooShort);
    expect(await acceptInvitation(send, { token: 't', password: 'short' })).toEqual({ step: 'password', error: tooShort });
  });

  it('keeps the password form after a rate limit or a lost connection: the link is still unused', async () => {
    const limited = refusal(429, 'RATE_LIMITED');
    const { send } = service(limited);
    expect(await acceptInvitation(send, { token: 't', password: 'a good password' })).toEqual({ step: 'password', error: limited });
  });

  it('ends at a used, revoked or expired link, with or without a password', async () => {
    const dead = refusal(400, 'INVITATION_INVALID');
    expect(await acceptInvitation(service(dead).send, { token: 't' })).toEqual({ step: 'failed', error: dead, final: true });
    expect(await acceptInvitation(service(dead).send, { token: 't', password: 'a good password' })).toEqual({ step: 'failed', error: dead, final: true });
  });

  it("ends at a developer's or an admin's address", async () => {
    const taken = refusal(409, 'EMAIL_TAKEN');
    expect(await acceptInvitation(service(taken).send, { token: 't' })).toEqual({ step: 'failed', error: taken, final: true });
  });

  it('offers another try after a network failure of the first request', async () => {
    const network = new ApiError(0, { error: 'unreachable', code: 'NETWORK' });
    expect(await acceptInvitation(service(network).send, { token: 't' })).toEqual({ step: 'failed', error: network, final: false });
  });

  it('treats a token the service cannot read as a dead link', async () => {
    const unreadable = refusal(400, 'VALIDATION_ERROR', { issues: [{ path: ['token'], message: 'Too big' }] });
    expect(await acceptInvitation(service(unreadable).send, { token: 'x'.repeat(300) })).toMatchObject({ step: 'failed', final: true });
  });
});

describe('asksForPassword', () => {
  it('is true only for a VALIDATION_ERROR naming the password', () => {
    expect(asksForPassword(needsPassword())).toBe(true);
    expect(asksForPassword(refusal(400, 'VALIDATION_ERROR', { issues: [{ path: ['token'], message: 'x' }] }))).toBe(false);
    expect(asksForPassword(refusal(400, 'INVITATION_INVALID'))).toBe(false);
    expect(asksForPassword(new Error('x'))).toBe(false);
  });
});

describe('invitation words', () => {
  it('says a dead link and a taken address in plain words', () => {
    expect(invitationErrorSentence(refusal(400, 'INVITATION_INVALID'))).toMatch(/no longer works.*used already, revoked, replaced.*7 days/);
    expect(invitationErrorSentence(refusal(409, 'EMAIL_TAKEN'))).toMatch(/developer’s or an administrator’s account/);
    expect(invitationErrorSentence(refusal(400, 'VALIDATION_ERROR', { issues: [{ path: ['token'], message: 'x' }] }))).toMatch(/incomplete/);
  });
});

describe('tokenFromHash and passwordBody', () => {
  it('reads the token from the fragment', () => {
    expect(tokenFromHash('#token=abc123')).toBe('abc123');
    expect(tokenFromHash('#other=1&token=a%2Bb')).toBe('a+b');
    expect(tokenFromHash('')).toBe('');
  });

  it('leaves an empty company name out', () => {
    expect(passwordBody('t', 'pw', '   ')).toEqual({ token: 't', password: 'pw' });
  });
});
