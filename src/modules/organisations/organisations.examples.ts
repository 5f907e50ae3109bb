// OpenAPI examples of the organisation routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

const own = { id: EXAMPLE.buyerId, name: EXAMPLE.companyName, role: 'owner', personal: true, joinedAt: EXAMPLE.createdAt };
const joined = { id: 'cm3q7wbj2000glk08w5x6y7z8', name: 'Northwind Vision', role: 'member', personal: false, joinedAt: EXAMPLE.updatedAt };

const memberId = 'cm3q7wck3000hlk08a9b8c7d6';
const founder = { accountId: EXAMPLE.buyerId, email: EXAMPLE.buyerEmail, role: 'owner', founder: true, invitedBy: null, joinedAt: EXAMPLE.createdAt };
const member = {
  accountId: memberId,
  email: 'lena@acme-robotics.com',
  role: 'member',
  founder: false,
  invitedBy: EXAMPLE.buyerId,
  joinedAt: EXAMPLE.updatedAt,
};
const invitation = {
  id: 'cm3q7wdl4000ilk08e5f4g3h2',
  email: 'finance@acme-robotics.com',
  role: 'billing',
  invitedBy: EXAMPLE.buyerId,
  createdAt: EXAMPLE.createdAt,
  expiresAt: '2026-03-21T10:00:00.000Z',
};

export const organisationExamples: Record<string, EndpointExamples> = {
  listOrganisations: { response: { organisations: [own, joined] } },
  switchOrganisation: { request: { organisationId: joined.id }, response: { token: EXAMPLE.jwt, organisation: joined } },
  listMembers: { response: { members: [founder, member] } },
  updateMember: { request: { role: 'admin' }, response: { ...member, role: 'admin' } },
  createInvitation: { request: { email: invitation.email, role: 'billing' }, response: { invitation } },
  listInvitations: { response: { invitations: [invitation] } },
  acceptInvitation: {
    request: { token: 'q1X8kz3VwN6mR2pL9sT4yB7cD0fG5hJ8', password: 'correct horse battery' },
    response: { accountCreated: true, organisation: joined, token: EXAMPLE.jwt },
  },
};
