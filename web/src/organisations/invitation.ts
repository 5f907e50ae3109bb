// The invitation link's flow, pure (the page sends, this decides what follows): the link is tried with its
// token alone, which is enough for an address that has a buyer account already (it joins at once). For
// an address with none, the service asks for a password (VALIDATION_ERROR naming `password`, the link
// left unused), and the page asks the person for one and sends the link again with it: a new account is
// made and the answer carries its token, acting for the organisation.
import type { Schemas } from '../api/schemas';
import { ApiError, describeError } from '../api/errors';

export type Accepted = {
  accountCreated: boolean;
  organisation: Schemas['Membership'];
  token?: string;
};

export interface AcceptBody {
  token: string;
  password?: string;
  companyName?: string;
}

export type InvitationStep =
  /** No account uses the address: a password (and optionally a company name) is needed. */
  | { step: 'password'; error: unknown }
  /** The address's existing account joined: it logs in as ever. */
  | { step: 'joined'; organisation: Schemas['Membership'] }
  /** A new account was made and joined; `token` acts for the organisation. */
  | { step: 'created'; organisation: Schemas['Membership']; token: string }
  /** The link cannot be used (final), or the request failed and may be tried again. */
  | { step: 'failed'; error: unknown; final: boolean };

/** Codes that say the link cannot be used, whatever is sent with it. */
const DEAD_LINK = new Set(['INVITATION_INVALID', 'EMAIL_TAKEN', 'ALREADY_MEMBER']);
const isDeadLink = (error: unknown) => error instanceof ApiError && DEAD_LINK.has(error.code);

/** The service's answer that the address has no account yet, so a password is needed. */
export function asksForPassword(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'VALIDATION_ERROR' && error.issues().some((issue) => issue.path === 'password');
}

/** The invitation's token from the link's fragment (`#token=…`): never sent to a server or a Referer. */
export const tokenFromHash = (hash: string): string => new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim() ?? '';

/** One try of the link, with or without a password, and the step it leads to. */
export async function acceptInvitation(send: (body: AcceptBody) => Promise<Accepted>, body: AcceptBody): Promise<InvitationStep> {
  const withPassword = body.password !== undefined;
  try {
    const accepted = await send(body);
    if (accepted.accountCreated && accepted.token) return { step: 'created', organisation: accepted.organisation, token: accepted.token };
    return { step: 'joined', organisation: accepted.organisation };
  } catch (error) {
    if (isDeadLink(error)) return { step: 'failed', error, final: true };
    // With a password, anything else (a password too short, a rate limit, the network) is the form's to
    // show: the link is still unused, so the person can send it again.
    if (withPassword) return { step: 'password', error };
    // The first try, without a password: the service asks for one.
    if (asksForPassword(error)) return { step: 'password', error: null };
    // A link the service cannot read (a token cut short by a mail client) is as dead as a used one.
    const final = error instanceof ApiError && error.code === 'VALIDATION_ERROR';
    return { step: 'failed', error, final };
  }
}

/** Why the link cannot be used, in the invitation's own words. */
export function invitationErrorSentence(error: unknown): string {
  if (error instanceof ApiError && error.code === 'EMAIL_TAKEN')
    return 'This address belongs to a developer’s or an administrator’s account, which cannot join an organisation. Ask to be invited at another address.';
  if (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && !asksForPassword(error))
    return 'This invitation link is incomplete: open it again from the e-mail (a mail program may have cut it in two), or copy the whole address.';
  if (error instanceof ApiError && error.code === 'ALREADY_MEMBER')
    return 'You are already a member of this organisation: log in and choose it in the organisation menu.';
  return describeError(error);
}

/** A new account's password and its own organisation's name, from the form (the name is optional). */
export function passwordBody(token: string, password: string, companyName: string): AcceptBody {
  const name = companyName.trim();
  return { token, password, ...(name ? { companyName: name } : {}) };
}
