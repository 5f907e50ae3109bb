// OpenAPI examples of the admin routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';
import { linksIn } from '../email/mail-links.ts';
import { developerInviteMail } from '../email/mail.templates.ts';

const developer = {
  id: EXAMPLE.developerId,
  email: EXAMPLE.developerEmail,
  appName: EXAMPLE.appName,
  appUrl: EXAMPLE.appUrl,
  isActive: true,
  hasPassword: true,
  createdAt: EXAMPLE.createdAt,
};

// The invite as the service writes it (mail.templates.ts), with the links the outbox finds in it.
const invite = developerInviteMail(
  EXAMPLE.developerEmail,
  EXAMPLE.appName,
  'pQ3v9Xr2LkT8mW1sZc6Yb4Nd0Hf7Jg5Ua2Ee8Ri1Oo4',
  'https://concord.acme-robotics.com',
  new Date('2026-03-21T09:26:53.589Z'),
);

export const adminExamples: Record<string, EndpointExamples> = {
  createDeveloper: {
    request: { email: EXAMPLE.developerEmail, appName: EXAMPLE.appName, appUrl: EXAMPLE.appUrl },
    response: {
      developer: { id: EXAMPLE.developerId, email: EXAMPLE.developerEmail, appName: EXAMPLE.appName, appUrl: EXAMPLE.appUrl, apiKey: EXAMPLE.developerApiKey },
    },
  },
  listDevelopers: { response: { developers: [developer], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  updateDeveloper: { request: { isActive: false }, response: { developer: { ...developer, isActive: false } } },
  regenerateDeveloperApiKey: { request: {}, response: { apiKey: EXAMPLE.developerApiKey } },
  listBuyers: {
    response: {
      buyers: [
        {
          id: EXAMPLE.buyerId,
          email: EXAMPLE.buyerEmail,
          companyName: EXAMPLE.companyName,
          creditBalance: 48200,
          reservedCents: 2400,
          availableCents: 45800,
          createdAt: EXAMPLE.createdAt,
          isActive: true,
        },
      ],
      nextCursor: EXAMPLE_CURSOR,
      hasMore: true,
    },
  },
  adjustBuyerCredits: {
    request: { amountCents: 2500, reason: 'Goodwill credit for the 12 March outage' },
    response: {
      id: EXAMPLE.ledgerEntryId,
      type: 'ADJUSTMENT',
      amountCents: 2500,
      balanceAfterCents: 50700,
      taskId: null,
      reason: 'Goodwill credit for the 12 March outage',
      createdAt: EXAMPLE.updatedAt,
    },
  },
  getPlatformStats: {
    response: {
      buyers: 42,
      developers: 6,
      annotators: 318,
      tasks: { PENDING: 1204, VALIDATING: 96, COMPLETED: 48710, FAILED: 233 },
      revenueCents: 974200,
      pendingPayouts: { count: 3, cents: 7400 },
    },
  },
  getPlatformDailyStats: {
    response: {
      days: [
        { date: '2026-03-13', created: 2150, completed: 1980, failed: 9, answers: 6410 },
        { date: '2026-03-14', created: 1875, completed: 1902, failed: 4, answers: 5996 },
      ],
    },
  },
  listMailOutbox: {
    response: {
      messages: [
        {
          id: EXAMPLE.mailId,
          kind: invite.kind,
          to: invite.to,
          subject: invite.subject,
          text: invite.body,
          links: linksIn(invite.body),
          status: 'SENT',
          createdAt: EXAMPLE.createdAt,
          sentAt: EXAMPLE.later,
        },
      ],
      nextCursor: null,
      hasMore: false,
    },
  },
};
