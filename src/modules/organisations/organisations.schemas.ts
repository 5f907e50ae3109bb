import { MEMBER_ROLES } from '@concord/contract';
import { z } from 'zod';
import { timestamp } from '../../lib/schemas.ts';

export const membershipSchema = z
  .object({
    id: z.string().meta({ description: "The organisation's id: the buyerId its tasks, projects and ledger carry" }),
    name: z.string(),
    role: z.enum(MEMBER_ROLES).meta({ description: "The caller's role there (docs/organisations.md, the permission table)" }),
    personal: z.boolean().meta({ description: "The caller's own organisation, created with their account" }),
    joinedAt: timestamp,
  })
  .meta({ id: 'Membership' });

export const listOrganisationsResponse = z.object({ organisations: z.array(membershipSchema) });

export const switchOrganisationBody = z.object({
  organisationId: z.string().min(1).max(100).meta({ description: 'One of the organisations GET /organisations lists' }),
});

export const switchOrganisationResponse = z.object({
  token: z.string().meta({ description: 'A 30-day token acting for the organisation (its `org` claim)' }),
  organisation: membershipSchema,
});
