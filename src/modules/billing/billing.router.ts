import type { Services } from '../../container.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { toLedgerEntry } from './billing.presenters.ts';
import { ledgerQuery, ledgerResponse } from './billing.schemas.ts';

export function billingEndpoints({ billing }: Services) {
  return [
    defineEndpoint({
      method: 'get', path: '/billing/ledger', tag: 'Billing', summary: "The buyer's ledger, newest first", access: 'buyer',
      query: ledgerQuery, response: ledgerResponse,
      handler: async ({ principal, query }) => {
        const page = await billing.listLedger(principal.accountId, query.limit, query.cursor);
        return { ...page, entries: page.entries.map(toLedgerEntry) };
      },
    }),
  ];
}
