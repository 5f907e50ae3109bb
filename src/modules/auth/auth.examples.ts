// OpenAPI examples of the account routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

const buyer = { id: EXAMPLE.buyerId, email: EXAMPLE.buyerEmail, companyName: EXAMPLE.companyName, creditBalance: 0 };
const developer = { id: EXAMPLE.developerId, email: EXAMPLE.developerEmail, appName: EXAMPLE.appName, appUrl: EXAMPLE.appUrl, createdAt: EXAMPLE.createdAt };
const login = (email: string) => ({ email, password: 'correct horse battery staple' });

export const authExamples: Record<string, EndpointExamples> = {
  registerBuyer: {
    request: { email: EXAMPLE.buyerEmail, password: 'correct horse battery staple', companyName: EXAMPLE.companyName },
    response: { token: EXAMPLE.jwt, buyer },
  },
  loginBuyer: { request: login(EXAMPLE.buyerEmail), response: { token: EXAMPLE.jwt, buyer: { ...buyer, creditBalance: 48200 } } },
  getCurrentAccount: {
    response: { buyer: { ...buyer, creditBalance: 48200, reservedCents: 2400, availableCents: 45800, createdAt: EXAMPLE.createdAt, role: 'owner' } },
  },
  changePassword: {
    request: { currentPassword: 'correct horse battery staple', newPassword: 'tr0ubador & 3 more words' },
    response: { token: EXAMPLE.jwt },
  },
  regenerateOwnApiKey: { request: {}, response: { apiKey: EXAMPLE.developerApiKey } },
  loginAdmin: { request: login(EXAMPLE.adminEmail), response: { token: EXAMPLE.jwt, admin: { id: EXAMPLE.adminId, email: EXAMPLE.adminEmail } } },
  loginDeveloper: { request: login(EXAMPLE.developerEmail), response: { token: EXAMPLE.jwt, developer } },
  setupDeveloperPassword: { request: { token: 'pQ3v9Xr2LkT8mW1sZc6Yb4Nd0Hf7Jg5Ua2Ee8Ri1Oo4', password: 'correct horse battery staple' } },
  getDeveloperProfile: { response: { developer } },
};
