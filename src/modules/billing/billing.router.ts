import type { BillingService } from './billing.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { toLedgerEntry } from './billing.presenters.ts';
import { ledgerQuery, ledgerResponse, spendQuery, spendResponse } from './billing.schemas.ts';
import { billingExamples } from './billing.examples.ts';

export function billingEndpoints({ billing }: { billing: BillingService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/billing/ledger',
      operationId: 'listLedgerEntries',
      examples: billingExamples.listLedgerEntries,
      tag: 'Billing',
      summary: "The buyer's ledger, newest first",
      access: 'buyer',
      permission: 'money:read',
      query: ledgerQuery,
      response: ledgerResponse,
      handler: async ({ principal, query }) => {
        const page = await billing.listLedger(principal.buyerId, query.limit, query.cursor);
        return { ...page, entries: page.entries.map(toLedgerEntry) };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/billing/spend',
      operationId: 'getSpend',
      examples: billingExamples.getSpend,
      tag: 'Billing',
      summary: 'Charges, deposits and completed tasks per UTC day',
      access: 'buyer',
      permission: 'money:read',
      query: spendQuery,
      response: spendResponse,
      handler: ({ principal, query }) => billing.spend(principal.buyerId, query.days),
    }),
  ];
}
