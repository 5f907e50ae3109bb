import { COMPANY_NAME_MAX_LENGTH, MAX_ORGANISATION_SEATS, MAX_ORGANISATIONS_PER_PERSON, MEMBER_ROLES } from '@concord/contract';
import { z } from 'zod';
import { emailSchema, passwordSchema, timestamp } from '../../lib/schemas.ts';

export const membershipSchema = z
  .object({
    id: z.string().meta({ description: "The organisation's id: the buyerId its tasks, projects and ledger carry" }),
    name: z.string(),
    role: z.enum(MEMBER_ROLES).meta({ description: "The caller's role there (docs/organisations.md, the permission table)" }),
    personal: z.boolean().meta({ description: "The caller's own organisation, created with their account" }),
    joinedAt: timestamp,
  })
  .meta({ id: 'Membership' });

// Bounded lists (a person's organisations, an organisation's seats), whole in one answer: no pages.
export const listOrganisationsResponse = z.object({
  organisations: z.array(membershipSchema).max(MAX_ORGANISATIONS_PER_PERSON).meta({ description: 'Their own first, then as they joined' }),
});

export const switchOrganisationBody = z.strictObject({
  organisationId: z.string().min(1).max(100).meta({ description: 'One of the organisations GET /organisations lists' }),
});

export const switchOrganisationResponse = z.object({
  token: z.string().meta({ description: 'A 30-day token acting for the organisation (its `org` claim)' }),
  organisation: membershipSchema,
});

const roleSchema = z.enum(MEMBER_ROLES).meta({ description: 'owner, admin, member, billing or viewer (docs/organisations.md, the permission table)' });

export const memberSchema = z
  .object({
    accountId: z.string(),
    email: z.string(),
    role: roleSchema,
    founder: z.boolean().meta({ description: 'The account the organisation was created with: it stays an owner (FOUNDER_STAYS_OWNER)' }),
    invitedBy: z.string().nullable().meta({ description: 'The account that invited this member; null for the founder' }),
    joinedAt: timestamp,
  })
  .meta({ id: 'Member' });

export const listMembersResponse = z.object({ members: z.array(memberSchema).max(MAX_ORGANISATION_SEATS).meta({ description: 'Oldest first' }) });

export const memberParams = z.strictObject({ accountId: z.string().min(1).max(64) });

export const updateMemberBody = z.strictObject({ role: roleSchema });

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roleSchema,
    invitedBy: z.string().meta({ description: 'The account that invited' }),
    createdAt: timestamp,
    expiresAt: timestamp,
  })
  .meta({ id: 'Invitation' });

export const createInvitationBody = z.strictObject({ email: emailSchema, role: roleSchema });

export const listInvitationsResponse = z.object({
  invitations: z.array(invitationSchema).max(MAX_ORGANISATION_SEATS).meta({ description: 'Pending ones, newest first' }),
});

export const acceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(200).meta({ description: "The token of the invitation e-mail's link" }),
  password: passwordSchema.optional().meta({ description: 'Only when no account uses the invited address yet: the new account’s password' }),
  companyName: z
    .string()
    .trim()
    .min(1)
    .max(COMPANY_NAME_MAX_LENGTH)
    .optional()
    .meta({ description: "A new account's own organisation's name (the address when absent)" }),
});

export const acceptInvitationResponse = z.object({
  accountCreated: z.boolean().meta({ description: 'Whether a new buyer account was made for the invited address' }),
  organisation: membershipSchema,
  token: z.string().optional().meta({ description: "A new account's token, acting for the organisation; an existing account logs in as ever" }),
});
