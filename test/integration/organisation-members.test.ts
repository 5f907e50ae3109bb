// An organisation's members and invitations (docs/organisations.md): inviting by e-mail with a one-use
// link, accepting it with an account or by making one, roles changed and members removed, and the rules
// that hold under concurrent requests (the founder stays owner, one pending link per address, seats).
import { MAX_ORGANISATION_SEATS, MAX_ORGANISATIONS_PER_PERSON, ORGANISATION_HEADER, type MemberRole } from '@concord/contract';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, sha256Hex } from '../../src/lib/ids.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, invitationLinkToken, PASSWORD, uniqueEmail, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const api = (token: string) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(token)),
  post: (path: string, body: object) => request(ctx.app).post(`/api/v1${path}`).set(bearer(token)).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(token)).send(body),
  delete: (path: string) => request(ctx.app).delete(`/api/v1${path}`).set(bearer(token)),
});
const accept = (body: object) => request(ctx.app).post('/api/v1/invitations/accept').send(body);

async function invite(by: TestBuyer | string, email: string, role: MemberRole) {
  const res = await api(typeof by === 'string' ? by : by.token).post('/invitations', { email, role });
  expect(res.status).toBe(201);
  return res.body.invitation as { id: string; email: string; role: MemberRole; expiresAt: string };
}

const linkToken = (email: string) => invitationLinkToken(ctx, email);

/** A person who joined `organisation` with `role` through an invitation and a new account; their token acts for it. */
async function joinedMember(organisation: TestBuyer, role: MemberRole): Promise<TestBuyer> {
  const email = uniqueEmail(role);
  await invite(organisation, email, role);
  const res = await accept({ token: await linkToken(email), password: PASSWORD });
  expect(res.status).toBe(200);
  expect(res.body.organisation.id).toBe(organisation.id);
  return { id: await accountIdOf(email), email, token: res.body.token };
}

const accountIdOf = async (email: string) => (await ctx.prisma.account.findUniqueOrThrow({ where: { email } })).id;

describe('inviting and joining', () => {
  it('invites by e-mail; a new address accepts with a password: an account of its own, a member with the role, a token acting for the organisation', async () => {
    const founder = await createBuyer(ctx, 'Northwind Vision');
    const email = uniqueEmail('lena');
    const invitation = await invite(founder, `  ${email.toUpperCase()} `, 'member');
    expect(invitation).toMatchObject({ email, role: 'member' });
    expect(new Date(invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    const mail = await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email, kind: 'ORGANISATION_INVITE' } });
    expect(mail.subject).toBe('Join Northwind Vision on Concord');
    expect(mail.body).toContain(`${founder.email} invites you to Northwind Vision on Concord, as member.`);
    // The link's token is in the e-mail only: the list never shows it, the database keeps its digest.
    const token = await linkToken(email);
    expect((await api(founder.token).get('/invitations')).body.invitations).toEqual([{ ...invitation, invitedBy: founder.id, createdAt: expect.any(String) }]);
    expect((await ctx.prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).tokenHash).toBe(sha256Hex(token));

    const joined = await accept({ token, password: PASSWORD, companyName: 'Lena Consulting' });
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({
      accountCreated: true,
      organisation: { id: founder.id, name: 'Northwind Vision', role: 'member', personal: false, joinedAt: expect.any(String) },
      token: expect.any(String),
    });
    expect((await api(joined.body.token).get('/auth/me')).body.buyer).toMatchObject({ id: founder.id, email, role: 'member' });
    // The new account also has its own organisation, as registration makes, and logs in as ever.
    const login = await request(ctx.app).post('/api/v1/auth/login').send({ email, password: PASSWORD });
    expect(login.body.buyer).toMatchObject({ email, companyName: 'Lena Consulting' });
    const members = (await api(founder.token).get('/members')).body.members;
    expect(members.map((m: { email: string; role: string; founder: boolean }) => [m.email, m.role, m.founder])).toEqual([
      [founder.email, 'owner', true],
      [email, 'member', false],
    ]);
    expect(members[1].invitedBy).toBe(founder.id);
    // The link worked once; the invitation is no longer pending.
    expect((await accept({ token, password: PASSWORD })).body.code).toBe('INVITATION_INVALID');
    expect((await api(founder.token).get('/invitations')).body.invitations).toEqual([]);
  });

  it('lets an existing buyer account join without a password; it logs in as ever and switches to the organisation', async () => {
    const founder = await createBuyer(ctx, 'Northwind Vision');
    const existing = await createBuyer(ctx, 'Own Co');
    await invite(founder, existing.email, 'viewer');
    const res = await accept({ token: await linkToken(existing.email) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accountCreated: false, organisation: expect.objectContaining({ id: founder.id, role: 'viewer' }) });
    const switched = await api(existing.token).post('/auth/switch', { organisationId: founder.id });
    expect(switched.body.organisation).toMatchObject({ id: founder.id, role: 'viewer' });
  });

  it('asks a new address for a password and leaves the link usable; refuses unknown, revoked, replaced and expired links', async () => {
    const founder = await createBuyer(ctx);
    const email = uniqueEmail('new');
    const first = await invite(founder, email, 'member');
    const firstToken = await linkToken(email);
    const noPassword = await accept({ token: firstToken });
    expect([noPassword.status, noPassword.body.code, noPassword.body.details]).toEqual([
      400,
      'VALIDATION_ERROR',
      { issues: [{ path: 'password', message: 'required: no account uses this address yet' }] },
    ]);
    expect(await ctx.prisma.account.count({ where: { email } })).toBe(0);
    // Inviting again replaces the pending invitation: the first link stops working.
    const second = await invite(founder, email, 'admin');
    expect(second.id).not.toBe(first.id);
    expect((await accept({ token: firstToken, password: PASSWORD })).body.code).toBe('INVITATION_INVALID');
    expect((await api(founder.token).get('/invitations')).body.invitations.map((i: { id: string }) => i.id)).toEqual([second.id]);
    // Revoked.
    const secondToken = await linkToken(email);
    expect((await api(founder.token).delete(`/invitations/${second.id}`)).status).toBe(204);
    expect((await accept({ token: secondToken, password: PASSWORD })).body.code).toBe('INVITATION_INVALID');
    const again = await api(founder.token).delete(`/invitations/${second.id}`);
    expect([again.status, again.body.code]).toEqual([404, 'INVITATION_NOT_FOUND']);
    // Expired.
    const third = await invite(founder, email, 'member');
    await ctx.prisma.invitation.update({ where: { id: third.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await accept({ token: await linkToken(email), password: PASSWORD })).body.code).toBe('INVITATION_INVALID');
    // Unknown.
    const unknown = await accept({ token: 'not-a-token', password: PASSWORD });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'INVITATION_INVALID']);
    expect(await ctx.prisma.membership.count({ where: { buyerId: founder.id } })).toBe(1);
  });

  it("refuses a member's address (ALREADY_MEMBER) and a developer's (EMAIL_TAKEN, the link left unused)", async () => {
    const founder = await createBuyer(ctx);
    const member = await joinedMember(founder, 'member');
    const res = await api(founder.token).post('/invitations', { email: member.email, role: 'admin' });
    expect([res.status, res.body.code]).toEqual([409, 'ALREADY_MEMBER']);

    const developer = await createDeveloper(ctx, adminToken);
    const invitation = await invite(founder, developer.email, 'member');
    const taken = await accept({ token: await linkToken(developer.email), password: PASSWORD });
    expect([taken.status, taken.body.code]).toEqual([409, 'EMAIL_TAKEN']);
    expect((await ctx.prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeNull();
  });

  it('refuses a link whose address joined meanwhile (ALREADY_MEMBER), leaving it unused', async () => {
    const founder = await createBuyer(ctx);
    const existing = await createBuyer(ctx);
    const invitation = await invite(founder, existing.email, 'viewer');
    await ctx.prisma.membership.create({ data: { accountId: existing.id, buyerId: founder.id, role: 'member' } });
    const res = await accept({ token: await linkToken(existing.email) });
    expect([res.status, res.body.code]).toEqual([409, 'ALREADY_MEMBER']);
    expect((await ctx.prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeNull();
    expect((await ctx.prisma.membership.findFirstOrThrow({ where: { accountId: existing.id, buyerId: founder.id } })).role).toBe('member');
  });

  it(`holds at most ${MAX_ORGANISATION_SEATS} members and pending invitations together (LIMIT_EXCEEDED)`, async () => {
    const founder = await createBuyer(ctx);
    await ctx.prisma.invitation.createMany({
      data: Array.from({ length: MAX_ORGANISATION_SEATS - 1 }, (_, i) => ({
        id: newId(),
        buyerId: founder.id,
        email: `seat-${i}@example.test`,
        role: 'viewer' as const,
        tokenHash: sha256Hex(`seat-${i}-${founder.id}`),
        invitedBy: founder.id,
        expiresAt: new Date(Date.now() + 3600_000),
      })),
    });
    const full = await api(founder.token).post('/invitations', { email: uniqueEmail('one-too-many'), role: 'viewer' });
    expect([full.status, full.body.code]).toEqual([400, 'LIMIT_EXCEEDED']);
    // Inviting a pending address again takes no new seat.
    expect((await api(founder.token).post('/invitations', { email: 'seat-0@example.test', role: 'member' })).status).toBe(201);
  });

  it(`lets a person belong to at most ${MAX_ORGANISATIONS_PER_PERSON} organisations (LIMIT_EXCEEDED at acceptance, the link left unused)`, async () => {
    const person = await createBuyer(ctx);
    const others = Array.from({ length: MAX_ORGANISATIONS_PER_PERSON - 1 }, () => newId());
    await ctx.prisma.account.createMany({ data: others.map((id) => ({ id, email: `${id}@example.test`, role: 'BUYER' as const })) });
    await ctx.prisma.buyer.createMany({ data: others.map((id) => ({ id, companyName: 'Other' })) });
    await ctx.prisma.membership.createMany({ data: others.map((buyerId) => ({ accountId: person.id, buyerId, role: 'viewer' as const })) });
    const founder = await createBuyer(ctx);
    const invitation = await invite(founder, person.email, 'member');
    const res = await accept({ token: await linkToken(person.email) });
    expect([res.status, res.body.code]).toEqual([400, 'LIMIT_EXCEEDED']);
    expect((await ctx.prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeNull();
  });

  it('keeps one pending invitation per address under concurrent invitations, and lets one of two concurrent acceptances join', async () => {
    const founder = await createBuyer(ctx);
    const email = uniqueEmail('race');
    const invitations = await Promise.all(Array.from({ length: 8 }, () => api(founder.token).post('/invitations', { email, role: 'member' })));
    expect(invitations.map((res) => res.status)).toEqual(Array(8).fill(201));
    expect(await ctx.prisma.invitation.count({ where: { buyerId: founder.id, email, revokedAt: null } })).toBe(1);
    const token = await linkToken(email);
    const accepted = await Promise.all([accept({ token, password: PASSWORD }), accept({ token, password: PASSWORD })]);
    expect(accepted.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(await ctx.prisma.account.count({ where: { email } })).toBe(1);
    expect(await ctx.prisma.membership.count({ where: { buyerId: founder.id } })).toBe(2);
  });
});

describe('roles and removals', () => {
  it('lets owners, not admins, make, change or end an owner; the founder stays owner; an admin manages the other roles', async () => {
    const founder = await createBuyer(ctx, 'Northwind Vision');
    const admin = await joinedMember(founder, 'admin');
    const member = await joinedMember(founder, 'member');
    const asAdmin = api(admin.token);

    const promote = await asAdmin.patch(`/members/${member.id}`, { role: 'owner' });
    expect([promote.status, promote.body.code, promote.body.details]).toEqual([403, 'FORBIDDEN', { permission: 'organisation:own', role: 'admin' }]);
    const ownerInvite = await asAdmin.post('/invitations', { email: uniqueEmail('o'), role: 'owner' });
    expect([ownerInvite.status, ownerInvite.body.details]).toEqual([403, { permission: 'organisation:own', role: 'admin' }]);
    const demoteFounder = await asAdmin.patch(`/members/${founder.id}`, { role: 'viewer' });
    expect(demoteFounder.body.details).toEqual({ permission: 'organisation:own', role: 'admin' });
    expect((await asAdmin.delete(`/members/${founder.id}`)).status).toBe(403);

    // An admin changes the other roles; the change holds on the member's next request.
    const changed = await asAdmin.patch(`/members/${member.id}`, { role: 'viewer' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ accountId: member.id, role: 'viewer', founder: false });
    const write = await api(member.token).post('/projects', { name: 'Nope' });
    expect(write.body.details).toEqual({ permission: 'tasks:write', role: 'viewer' });

    // The owner makes the admin an owner; that owner may not demote or remove the founder.
    expect((await api(founder.token).patch(`/members/${admin.id}`, { role: 'owner' })).body.role).toBe('owner');
    const founderDemoted = await api(admin.token).patch(`/members/${founder.id}`, { role: 'admin' });
    expect([founderDemoted.status, founderDemoted.body.code]).toEqual([409, 'FOUNDER_STAYS_OWNER']);
    const founderRemoved = await api(admin.token).delete(`/members/${founder.id}`);
    expect([founderRemoved.status, founderRemoved.body.code]).toEqual([409, 'FOUNDER_STAYS_OWNER']);
    const unknown = await api(founder.token).patch('/members/nobody', { role: 'viewer' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'MEMBER_NOT_FOUND']);
    expect((await api(founder.token).delete('/members/nobody')).body.code).toBe('MEMBER_NOT_FOUND');
  });

  it('removes a member: every token of theirs stops acting for the organisation at once, their own organisation untouched', async () => {
    const founder = await createBuyer(ctx);
    const member = await joinedMember(founder, 'member');
    expect((await api(member.token).get('/projects')).status).toBe(200);
    expect((await api(founder.token).delete(`/members/${member.id}`)).status).toBe(204);
    const after = await api(member.token).get('/projects');
    expect([after.status, after.body.code]).toEqual([403, 'FORBIDDEN']);
    const own = await request(ctx.app)
      .get('/api/v1/projects')
      .set({ ...bearer(member.token), [ORGANISATION_HEADER]: member.id });
    expect(own.status).toBe(200);
  });

  it('refuses member management to an API key, even an owner’s', async () => {
    const founder = await createBuyer(ctx);
    const key = (await api(founder.token).post('/api-keys', { name: 'ci' })).body.apiKey.secret as string;
    const res = await api(key).post('/invitations', { email: uniqueEmail('k'), role: 'member' });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});
