// The members page's own checks and counts, and the API's organisation codes in words.
import { describe, expect, it } from 'vitest';
import { ApiError, describeCode, describeError, permissionRefusal } from '../api/errors';
import { mapFieldErrors } from '../api/fieldErrors';
import { inviteProblem, seatsLine } from './members';
import { tokenSubject } from './token';

const refusal = (status: number, code: string, details?: Record<string, unknown>) =>
  new ApiError(status, { error: `${code} from the API`, code, ...(details ? { details } : {}) });

describe('inviteProblem', () => {
  it('asks for an address and refuses what is not one', () => {
    expect(inviteProblem('  ')).toBe('Give the e-mail address to invite.');
    expect(inviteProblem('finance')).toContain('is not an e-mail address');
    expect(inviteProblem(' finance@acme.example ')).toBeUndefined();
  });
});

describe('seatsLine', () => {
  it('counts members and pending invitations against the 200 seats', () => {
    expect(seatsLine(3, 1)).toBe('3 members and 1 pending invitation: 4 of 200 seats taken.');
    expect(seatsLine(1, 0)).toBe('1 member and 0 pending invitations: 1 of 200 seats taken.');
  });
});

describe('organisation error words', () => {
  it('words the new codes', () => {
    for (const code of ['FOUNDER_STAYS_OWNER', 'ALREADY_MEMBER', 'MEMBER_NOT_FOUND', 'INVITATION_NOT_FOUND', 'INVITATION_INVALID']) {
      expect(describeCode(code), code).not.toBe(code);
      expect(describeError(refusal(400, code)), code).toBe(describeCode(code));
    }
    expect(describeCode('FOUNDER_STAYS_OWNER')).toMatch(/founder.*stays one of its owners/);
  });

  it('says which role lacks which permission', () => {
    const sentence = describeError(refusal(403, 'FORBIDDEN', { permission: 'tasks:write', role: 'viewer' }));
    expect(sentence).toMatch(/^Your role here \(viewer\) does not allow this: it takes .*\(tasks:write\), which owners, admins and members have\./);
    expect(sentence).toMatch(/Ask an owner or an admin/);
    expect(describeError(refusal(403, 'FORBIDDEN', { permission: 'organisation:own', role: 'admin' }))).toMatch(
      /\(admin\).*\(organisation:own\), which owners have\. Ask an owner\.$/,
    );
  });

  it('says a membership ended, and keeps the plain sentence for any other FORBIDDEN', () => {
    expect(describeError(refusal(403, 'FORBIDDEN', { organisationId: 'org1' }))).toMatch(/not a member of this organisation \(any more\)/);
    expect(describeError(refusal(403, 'FORBIDDEN'))).toBe('This account is not allowed to do that.');
    expect(describeError(refusal(403, 'FORBIDDEN', { permission: 'nonsense', role: 'viewer' }))).toBe('This account is not allowed to do that.');
  });

  it('reads a role refusal (the role changed since the page opened) from a 403, and nothing else', () => {
    expect(permissionRefusal(refusal(403, 'FORBIDDEN', { permission: 'audit:read', role: 'member' }))).toEqual({ permission: 'audit:read', role: 'member' });
    expect(permissionRefusal(refusal(403, 'FORBIDDEN', { organisationId: 'org1' }))).toBeUndefined();
    expect(permissionRefusal(refusal(403, 'FORBIDDEN', { permission: 'nonsense', role: 'member' }))).toBeUndefined();
    expect(permissionRefusal(refusal(400, 'VALIDATION_ERROR', { permission: 'audit:read', role: 'member' }))).toBeUndefined();
    expect(permissionRefusal(new Error('network'))).toBeUndefined();
    expect(permissionRefusal(null)).toBeUndefined();
  });

  it('puts ALREADY_MEMBER next to the e-mail field of the invite form', () => {
    const errors = mapFieldErrors(refusal(409, 'ALREADY_MEMBER'), { fields: ['email', 'role'] as const, codeFields: { ALREADY_MEMBER: 'email' } });
    expect(errors).toEqual({ fields: { email: describeCode('ALREADY_MEMBER') }, general: null });
  });
});

describe('tokenSubject', () => {
  const jwt = (payload: object) => `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;

  it("reads the account a token belongs to (the person's own organisation)", () => {
    expect(tokenSubject(jwt({ sub: 'acc_1', role: 'buyer', org: 'org_2' }))).toBe('acc_1');
    expect(tokenSubject(jwt({ sub: 'ç?>' }))).toBe('ç?>');
  });

  it('answers undefined for anything else', () => {
    expect(tokenSubject('cnc_live_abc')).toBeUndefined();
    expect(tokenSubject('a.!!!.b')).toBeUndefined();
    expect(tokenSubject(jwt({ role: 'buyer' }))).toBeUndefined();
  });
});
