import { z } from 'zod';
import type { AdminService } from './admin.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { DevelopersService } from '../developers/developers.service.ts';
import type { MailOutboxService } from '../email/mail-outbox.service.ts';
import { defineEndpoint, operatorActor } from '../../lib/endpoint.ts';
import { emptyBody, idParams, cursorSchema, limitSchema, pageInfo } from '../../lib/schemas.ts';
import { apiKeyResponse } from '../auth/auth.schemas.ts';
import { toBuyerAccount } from '../auth/auth.presenters.ts';
import { toLedgerEntry } from '../billing/billing.presenters.ts';
import type { DeveloperRecord } from '../auth/accounts.repository.ts';
import { linksIn } from '../email/mail-links.ts';
import type { MailRecord } from '../email/mail.repository.ts';
import {
  adminBuyerSchema,
  createDeveloperBody,
  createdDeveloperResponse,
  creditAdjustmentBody,
  dailyStatsQuery,
  dailyStatsResponse,
  developerSchema,
  ledgerEntrySchema,
  mailOutboxQuery,
  mailOutboxResponse,
  statsResponse,
  updateDeveloperBody,
} from './admin.schemas.ts';
import { adminExamples } from './admin.examples.ts';

const toDeveloper = (developer: DeveloperRecord) => ({ ...developer, createdAt: developer.createdAt.toISOString() });

const toMailMessage = (mail: MailRecord) => ({
  id: mail.id,
  kind: mail.kind,
  to: mail.toAddress,
  subject: mail.subject,
  text: mail.body,
  links: linksIn(mail.body),
  status: mail.status,
  createdAt: mail.createdAt.toISOString(),
  sentAt: mail.sentAt?.toISOString() ?? null,
});

export function adminEndpoints({
  admin,
  auth,
  billing,
  developers,
  mailOutbox,
}: {
  admin: AdminService;
  auth: AuthService;
  billing: BillingService;
  developers: DevelopersService;
  mailOutbox: MailOutboxService | null;
}) {
  return [
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/admin/developers',
      operationId: 'createDeveloper',
      examples: adminExamples.createDeveloper,
      errors: { 409: 'EMAIL_TAKEN: an account already uses this e-mail' },
      tag: 'Admin',
      summary: 'Create a developer account and its API key',
      access: 'admin',
      body: createDeveloperBody,
      status: 201,
      response: createdDeveloperResponse,
      handler: async ({ body }) => {
        const { developer, apiKey } = await developers.create(body);
        return { developer: { id: developer.id, email: developer.email, appName: developer.appName, appUrl: developer.appUrl, apiKey } };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/admin/developers',
      operationId: 'listDevelopers',
      examples: adminExamples.listDevelopers,
      tag: 'Admin',
      summary: 'List developers (without keys)',
      access: 'admin',
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ developers: z.array(developerSchema), ...pageInfo }),
      handler: async ({ query }) => {
        const page = await developers.list(query.limit, query.cursor);
        return { ...page, developers: page.developers.map(toDeveloper) };
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/admin/developers/:id',
      operationId: 'updateDeveloper',
      examples: adminExamples.updateDeveloper,
      notFound: 'DEVELOPER_NOT_FOUND',
      tag: 'Admin',
      summary: 'Update or disable a developer',
      access: 'admin',
      params: idParams,
      body: updateDeveloperBody,
      response: z.object({ developer: developerSchema }),
      handler: async ({ params, body }) => ({ developer: toDeveloper(await developers.update(params.id, body)) }),
    }),
    defineEndpoint({
      method: 'post',
      path: '/admin/developers/:id/regenerate-api-key',
      operationId: 'regenerateDeveloperApiKey',
      examples: adminExamples.regenerateDeveloperApiKey,
      notFound: 'DEVELOPER_NOT_FOUND',
      tag: 'Admin',
      summary: "Replace a developer's API key",
      access: 'admin',
      params: idParams,
      body: emptyBody,
      response: apiKeyResponse,
      handler: async ({ params }) => ({ apiKey: await auth.regenerateApiKey(params.id) }),
    }),
    defineEndpoint({
      method: 'get',
      path: '/admin/buyers',
      operationId: 'listBuyers',
      examples: adminExamples.listBuyers,
      tag: 'Admin',
      summary: 'List buyers with their balances',
      access: 'admin',
      query: z.strictObject({
        limit: limitSchema,
        cursor: cursorSchema,
        q: z.string().trim().min(1).max(200).optional().meta({ description: 'Matches the e-mail or the company name (any case)' }),
      }),
      response: z.object({ buyers: z.array(adminBuyerSchema), ...pageInfo }),
      handler: async ({ query }) => {
        const page = await admin.listBuyers(query.limit, query.cursor, query.q);
        return { ...page, buyers: page.buyers.map((buyer) => ({ ...toBuyerAccount(buyer), isActive: buyer.isActive })) };
      },
    }),
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/admin/buyers/:id/credits',
      operationId: 'adjustBuyerCredits',
      examples: adminExamples.adjustBuyerCredits,
      errors: { 402: 'INSUFFICIENT_CREDITS: a debit beyond the available balance (details.requiredCents, details.availableCents)' },
      notFound: 'BUYER_NOT_FOUND',
      tag: 'Admin',
      summary: 'Credit or debit a buyer (ADJUSTMENT ledger row)',
      access: 'admin',
      params: idParams,
      body: creditAdjustmentBody,
      status: 201,
      response: ledgerEntrySchema,
      handler: async ({ principal, params, body, req }) =>
        toLedgerEntry(await billing.adjustCredits(operatorActor(principal, params.id, req.ip, 'adjustBuyerCredits'), body.amountCents, body.reason)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/admin/stats',
      operationId: 'getPlatformStats',
      examples: adminExamples.getPlatformStats,
      tag: 'Admin',
      summary: 'Platform totals',
      access: 'admin',
      response: statsResponse,
      handler: () => admin.stats(),
    }),
    defineEndpoint({
      method: 'get',
      path: '/admin/stats/daily',
      operationId: 'getPlatformDailyStats',
      examples: adminExamples.getPlatformDailyStats,
      tag: 'Admin',
      summary: 'Platform activity per UTC day',
      access: 'admin',
      query: dailyStatsQuery,
      response: dailyStatsResponse,
      handler: ({ query }) => admin.dailyStats(query.days),
    }),
    // Outside production only: without SMTP, a newcomer follows a developer invite from the dashboard.
    // In production the route is not mounted, so it answers exactly like an unknown route.
    ...(mailOutbox
      ? [
          defineEndpoint({
            method: 'get',
            path: '/admin/mail-outbox',
            operationId: 'listMailOutbox',
            examples: adminExamples.listMailOutbox,
            tag: 'Admin',
            summary: 'Mail queued or sent, newest first (not in production)',
            access: 'admin',
            query: mailOutboxQuery,
            response: mailOutboxResponse,
            handler: async ({ query }) => {
              const page = await mailOutbox.list(query.limit, query.cursor);
              return { ...page, messages: page.messages.map(toMailMessage) };
            },
          }),
        ]
      : []),
  ];
}
