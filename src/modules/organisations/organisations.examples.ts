// OpenAPI examples of the organisation routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

const own = { id: EXAMPLE.buyerId, name: EXAMPLE.companyName, role: 'owner', personal: true, joinedAt: EXAMPLE.createdAt };
const joined = { id: 'cm3q7wbj2000glk08w5x6y7z8', name: 'Northwind Vision', role: 'member', personal: false, joinedAt: EXAMPLE.updatedAt };

export const organisationExamples: Record<string, EndpointExamples> = {
  listOrganisations: { response: { organisations: [own, joined] } },
  switchOrganisation: { request: { organisationId: joined.id }, response: { token: EXAMPLE.jwt, organisation: joined } },
};
