// An organisation's members and invitations (docs/organisations.md). Managing them is account
// management: a password session only (sessionOnly), never an API key; reading them needs members:write
// too, as reading API keys needs keys:write. Accepting an invitation is public: its link is the credential.
import { MAX_ORGANISATION_SEATS, MAX_ORGANISATIONS_PER_PERSON } from '@concord/contract';
import { z } from 'zod';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { idParams, noQuery } from '../../lib/schemas.ts';
import type { InvitationRecord, MemberRecord } from './members.repository.ts';
import type { MembersService } from './members.service.ts';
import { presentMembership } from './organisations.router.ts';
import { organisationExamples } from './organisations.examples.ts';
import {
  acceptInvitationBody,
  acceptInvitationResponse,
  createInvitationBody,
  invitationSchema,
  listInvitationsResponse,
  listMembersResponse,
  memberParams,
  memberSchema,
  updateMemberBody,
} from './organisations.schemas.ts';

const presentMember = (member: MemberRecord) => ({
  accountId: member.accountId,
  email: member.email,
  role: member.role,
  founder: member.founder,
  invitedBy: member.invitedBy,
  joinedAt: member.joinedAt.toISOString(),
});

const presentInvitation = (invitation: InvitationRecord) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  invitedBy: invitation.invitedBy,
  createdAt: invitation.createdAt.toISOString(),
  expiresAt: invitation.expiresAt.toISOString(),
});

const OWNERS_ONLY = "or an admin's request that makes, changes or ends an owner (FORBIDDEN naming organisation:own)";

export function memberEndpoints({ members }: { members: MembersService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/members',
      operationId: 'listMembers',
      examples: organisationExamples.listMembers,
      tag: 'Organisations',
      summary: "The organisation's members with their roles, oldest first",
      access: 'buyer',
      permission: 'members:write',
      query: noQuery,
      response: listMembersResponse,
      handler: async ({ principal }) => ({ members: (await members.list(principal)).map(presentMember) }),
    }),
    defineEndpoint({
      method: 'patch',
      path: '/members/:accountId',
      operationId: 'updateMember',
      examples: organisationExamples.updateMember,
      tag: 'Organisations',
      summary: "Change a member's role",
      access: 'buyer',
      permission: 'members:write',
      sessionOnly: true,
      params: memberParams,
      notFound: 'MEMBER_NOT_FOUND',
      body: updateMemberBody,
      response: memberSchema,
      errors: { 403: OWNERS_ONLY, 409: "FOUNDER_STAYS_OWNER: the organisation's founder stays an owner" },
      handler: async ({ principal, actor, params, body }) => presentMember(await members.changeRole(principal, actor, params.accountId, body.role)),
    }),
    defineEndpoint({
      method: 'delete',
      path: '/members/:accountId',
      operationId: 'deleteMember',
      tag: 'Organisations',
      summary: 'Remove a member: every token of theirs stops acting for the organisation at once',
      access: 'buyer',
      permission: 'members:write',
      sessionOnly: true,
      params: memberParams,
      notFound: 'MEMBER_NOT_FOUND',
      status: 204,
      errors: { 403: OWNERS_ONLY, 409: "FOUNDER_STAYS_OWNER: the organisation's founder stays an owner" },
      handler: ({ principal, actor, params }) => members.remove(principal, actor, params.accountId),
    }),
    defineEndpoint({
      method: 'post',
      path: '/invitations',
      operationId: 'createInvitation',
      examples: organisationExamples.createInvitation,
      tag: 'Organisations',
      summary: 'Invite an address with a role: a one-use link by e-mail, valid 7 days (an earlier pending one for the address stops working)',
      access: 'buyer',
      permission: 'members:write',
      sessionOnly: true,
      idempotent: 'router',
      body: createInvitationBody,
      status: 201,
      response: z.object({ invitation: invitationSchema }),
      errors: {
        400: `VALIDATION_ERROR or LIMIT_EXCEEDED (${MAX_ORGANISATION_SEATS} members and pending invitations together)`,
        403: OWNERS_ONLY,
        409: 'ALREADY_MEMBER: an account with this address is a member already',
      },
      handler: async ({ principal, actor, body }) => ({ invitation: presentInvitation(await members.invite(principal, actor, body)) }),
    }),
    defineEndpoint({
      method: 'get',
      path: '/invitations',
      operationId: 'listInvitations',
      examples: organisationExamples.listInvitations,
      tag: 'Organisations',
      summary: "The organisation's pending invitations, newest first (never their links)",
      access: 'buyer',
      permission: 'members:write',
      query: noQuery,
      response: listInvitationsResponse,
      handler: async ({ principal }) => ({ invitations: (await members.pendingInvitations(principal)).map(presentInvitation) }),
    }),
    defineEndpoint({
      method: 'delete',
      path: '/invitations/:id',
      operationId: 'revokeInvitation',
      tag: 'Organisations',
      summary: 'Revoke a pending invitation: its link stops working',
      access: 'buyer',
      permission: 'members:write',
      sessionOnly: true,
      params: idParams,
      notFound: 'INVITATION_NOT_FOUND',
      status: 204,
      handler: ({ principal, actor, params }) => members.revokeInvitation(principal, actor, params.id),
    }),
    defineEndpoint({
      method: 'post',
      path: '/invitations/accept',
      operationId: 'acceptInvitation',
      examples: organisationExamples.acceptInvitation,
      tag: 'Organisations',
      summary:
        "Use an invitation's link: the address's buyer account joins (it logs in as ever), or a new account is made with the password given, and its token acts for the organisation",
      access: 'public',
      rateLimited: true,
      body: acceptInvitationBody,
      response: acceptInvitationResponse,
      errors: {
        400: `INVITATION_INVALID (unknown, used, revoked or expired), VALIDATION_ERROR (a password is needed: no account uses the address yet), or LIMIT_EXCEEDED (the account belongs to ${MAX_ORGANISATIONS_PER_PERSON} organisations already)`,
        409: "EMAIL_TAKEN (the address belongs to a developer's or an admin's account) or ALREADY_MEMBER (the address's account joined meanwhile; the link stays unused)",
      },
      handler: async ({ body, req }) => {
        const outcome = await members.accept(body, req.ip);
        return {
          accountCreated: outcome.accountCreated,
          organisation: presentMembership(outcome.organisation),
          ...(outcome.accountCreated ? { token: outcome.token } : {}),
        };
      },
    }),
  ];
}
