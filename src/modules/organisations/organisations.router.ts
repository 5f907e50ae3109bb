// Organisations (docs/organisations.md): the organisations a person belongs to, and a token acting for
// one of them. Any role may call these: they are about the person, not what the organisation holds.
import { defineEndpoint } from '../../lib/endpoint.ts';
import { noQuery } from '../../lib/schemas.ts';
import type { MembershipRecord } from './members.repository.ts';
import { organisationExamples } from './organisations.examples.ts';
import { listOrganisationsResponse, switchOrganisationBody, switchOrganisationResponse } from './organisations.schemas.ts';
import type { OrganisationsService } from './organisations.service.ts';

export const presentMembership = (membership: MembershipRecord) => ({
  id: membership.organisationId,
  name: membership.name,
  role: membership.role,
  personal: membership.personal,
  joinedAt: membership.joinedAt.toISOString(),
});

export function organisationEndpoints({ organisations }: { organisations: OrganisationsService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/organisations',
      operationId: 'listOrganisations',
      examples: organisationExamples.listOrganisations,
      tag: 'Organisations',
      summary: 'The organisations the caller belongs to, with their role in each (their own first)',
      access: 'user',
      sessionOnly: true,
      personal: true,
      query: noQuery,
      response: listOrganisationsResponse,
      errors: { 403: 'FORBIDDEN: not a buyer account' },
      handler: async ({ principal }) => ({ organisations: (await organisations.list(principal)).map(presentMembership) }),
    }),
    defineEndpoint({
      method: 'post',
      path: '/auth/switch',
      operationId: 'switchOrganisation',
      examples: organisationExamples.switchOrganisation,
      tag: 'Organisations',
      summary: 'A token acting for another organisation the caller belongs to',
      access: 'user',
      sessionOnly: true,
      personal: true,
      body: switchOrganisationBody,
      response: switchOrganisationResponse,
      errors: { 403: 'FORBIDDEN: not a member of that organisation, not a buyer account, or an API key' },
      handler: async ({ principal, body }) => {
        const { token, organisation } = await organisations.switchTo(principal, body.organisationId);
        return { token, organisation: presentMembership(organisation) };
      },
    }),
  ];
}
