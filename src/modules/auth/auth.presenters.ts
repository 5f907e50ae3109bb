import type { BuyerRecord, DeveloperRecord } from './accounts.repository.ts';

export const toBuyer = (buyer: BuyerRecord) => ({
  id: buyer.id,
  email: buyer.email,
  companyName: buyer.companyName,
  creditBalance: buyer.creditBalance,
});

export const toBuyerAccount = (buyer: BuyerRecord) => ({
  ...toBuyer(buyer),
  reservedCents: buyer.reservedCents,
  availableCents: buyer.availableCents,
  createdAt: buyer.createdAt.toISOString(),
});

export const toDeveloperProfile = (developer: DeveloperRecord) => ({
  id: developer.id,
  email: developer.email,
  appName: developer.appName,
  appUrl: developer.appUrl,
  createdAt: developer.createdAt.toISOString(),
});
