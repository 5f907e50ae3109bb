// Small factories: every test creates the accounts it needs, with unique e-mails.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expect } from 'vitest';
import { sha256Hex } from '../../src/lib/ids.ts';
import type { TestContext } from './context.ts';

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 12)}@example.test`;
export const PASSWORD = 'correct horse battery';

export interface TestBuyer {
  id: string;
  email: string;
  token: string;
}

export async function createBuyer(ctx: TestContext, companyName = 'Acme Labs'): Promise<TestBuyer> {
  const email = uniqueEmail('buyer');
  const res = await request(ctx.app).post('/api/v1/auth/register').send({ email, password: PASSWORD, companyName });
  expect(res.status).toBe(201);
  return { id: res.body.buyer.id, email, token: res.body.token };
}

export async function createAdmin(ctx: TestContext): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('admin');
  await ctx.services.auth.seedAdmin(email, PASSWORD);
  const res = await request(ctx.app).post('/api/v1/admin/login').send({ email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { email, token: res.body.token };
}

export interface TestDeveloper {
  id: string;
  email: string;
  apiKey: string;
}

export async function createDeveloper(ctx: TestContext, adminToken: string): Promise<TestDeveloper> {
  const email = uniqueEmail('dev');
  const res = await request(ctx.app)
    .post('/api/v1/admin/developers')
    .set('authorization', `Bearer ${adminToken}`)
    .send({ email, appName: 'Label App', appUrl: 'https://app.example.test' });
  expect(res.status).toBe(201);
  return { id: res.body.developer.id, email, apiKey: res.body.developer.apiKey };
}

/** Credits a buyer through the admin adjustment route (a real ledger row). */
export async function fundBuyer(ctx: TestContext, adminToken: string, buyerId: string, amountCents: number): Promise<void> {
  const res = await request(ctx.app)
    .post(`/api/v1/admin/buyers/${buyerId}/credits`)
    .set('authorization', `Bearer ${adminToken}`)
    .send({ amountCents, reason: 'test funding' });
  expect(res.status).toBe(201);
}

/** A new buyer credited with `cents` by an admin adjustment. */
export async function createFundedBuyer(ctx: TestContext, adminToken: string, cents: number): Promise<TestBuyer> {
  const buyer = await createBuyer(ctx);
  await fundBuyer(ctx, adminToken, buyer.id, cents);
  return buyer;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The token of the newest invitation e-mail to `email` (by the invitations' creation), read from its link. */
export async function invitationLinkToken(ctx: TestContext, email: string): Promise<string> {
  const mails = await ctx.prisma.mailOutbox.findMany({ where: { toAddress: email, kind: 'ORGANISATION_INVITE' } });
  const tokens = mails.map((mail) => decodeURIComponent(/\/invitation#token=(\S+)/.exec(mail.body)?.[1] ?? ''));
  const newest = await ctx.prisma.invitation.findFirstOrThrow({
    where: { email },
    orderBy: [{ createdAt: 'desc' }, { revokedAt: { sort: 'desc', nulls: 'first' } }],
  });
  const token = tokens.find((t) => sha256Hex(t) === newest.tokenHash);
  expect(token).toBeDefined();
  return token ?? '';
}
