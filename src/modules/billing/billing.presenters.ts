import type { LedgerEntryRecord } from './billing.repository.ts';

export const toLedgerEntry = (entry: LedgerEntryRecord) => ({ ...entry, createdAt: entry.createdAt.toISOString() });
