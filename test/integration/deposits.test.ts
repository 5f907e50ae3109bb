import request from 'supertest';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { checkoutDigest, newCheckoutId } from '../../src/modules/deposits/deposits.service.ts';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/modules/deposits/sandbox.provider.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;

beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const sandbox = () => ctx.services.paymentProvider as SandboxProvider;

async function startDeposit(buyer: TestBuyer, amountCents: number, method = 'card') {
  const res = await request(ctx.app).post('/api/v1/billing/deposits').set(bearer(buyer.token)).send({ amountCents, method });
  expect(res.status).toBe(201);
  return res.body as { id: string; status: string; amountCents: number; bonusCents: number; checkoutUrl: string; decidedAt: string | null };
}

/** Clicks a button of the sandbox checkout page over HTTP: reads the form's action from the page and posts it. */
async function clickCheckout(checkoutUrl: string, button: 'pay' | 'cancel') {
  const path = new URL(checkoutUrl).pathname;
  const pageRes = await request(ctx.app).get(path);
  expect(pageRes.status).toBe(200);
  const action = new RegExp(`<form method="post" action="([^"]+)"[^>]*><button type="submit" id="${button}"`).exec(pageRes.text)?.[1];
  expect(action).toBe(`${path}/${button}`);
  return request(ctx.app).post(action as string);
}

async function balanceOf(buyer: TestBuyer) {
  const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(buyer.token));
  return me.body.buyer.creditBalance as number;
}

async function ledgerOf(buyer: TestBuyer) {
  const res = await request(ctx.app).get('/api/v1/billing/ledger').set(bearer(buyer.token));
  return res.body.entries as Array<{ type: string; amountCents: number; balanceAfterCents: number }>;
}

function sendSandboxConfirmation(body: Buffer, signature: string) {
  return request(ctx.app)
    .post('/api/v1/billing/providers/sandbox/webhook')
    .set('content-type', 'application/json')
    .set(SANDBOX_SIGNATURE_HEADER, signature)
    .send(body.toString('utf8')); // a string goes as is (superagent would JSON-encode a Buffer)
}

describe('POST /billing/deposits', () => {
  it.each([
    [500, 0],
    [49_999, 0],
    [50_000, 2_500],
    [199_999, 9_999],
    [200_000, 20_000],
    [10_000_000, 1_000_000],
  ])('a deposit of %i cents carries a bonus of %i cents, and paying credits both', async (amountCents, bonusCents) => {
    const buyer = await createBuyer(ctx);
    const deposit = await startDeposit(buyer, amountCents);
    expect(deposit).toMatchObject({ status: 'PENDING', amountCents, bonusCents, method: 'card', decidedAt: null });
    expect(deposit.checkoutUrl).toMatch(new RegExp(`^${ctx.config.publicUrl}/sandbox/checkout/[A-Za-z0-9_-]{32}$`));
    expect(await balanceOf(buyer)).toBe(0);

    const paid = await clickCheckout(deposit.checkoutUrl, 'pay');
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('SUCCEEDED');
    expect(await balanceOf(buyer)).toBe(amountCents + bonusCents);
    const ledger = await ledgerOf(buyer);
    const expected =
      bonusCents > 0
        ? [
            { type: 'BONUS', amountCents: bonusCents, balanceAfterCents: amountCents + bonusCents },
            { type: 'DEPOSIT', amountCents, balanceAfterCents: amountCents },
          ]
        : [{ type: 'DEPOSIT', amountCents, balanceAfterCents: amountCents }];
    expect(ledger.map(({ type, amountCents: a, balanceAfterCents }) => ({ type, amountCents: a, balanceAfterCents }))).toEqual(expected);
    const read = await request(ctx.app).get(`/api/v1/billing/deposits/${deposit.id}`).set(bearer(buyer.token));
    expect(read.body.status).toBe('SUCCEEDED');
    expect(read.body.decidedAt).toMatch(/Z$/);
  });

  it('refuses amounts outside 500–10 000 000, unknown methods and unknown keys with VALIDATION_ERROR', async () => {
    const buyer = await createBuyer(ctx);
    for (const body of [
      { amountCents: 499, method: 'card' },
      { amountCents: 10_000_001, method: 'card' },
      { amountCents: 1000.5, method: 'card' },
      { amountCents: 1000, method: 'cheque' },
      { amountCents: 1000, method: 'card', bonusCents: 99 },
      { method: 'card' },
    ]) {
      const res = await request(ctx.app).post('/api/v1/billing/deposits').set(bearer(buyer.token)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const list = await request(ctx.app).get('/api/v1/billing/deposits').set(bearer(buyer.token));
    expect(list.body.deposits).toEqual([]);
  });

  it('is for buyers only', async () => {
    const res = await request(ctx.app).post('/api/v1/billing/deposits').set(bearer(adminToken)).send({ amountCents: 1000, method: 'card' });
    expect(res.status).toBe(403);
  });
});

describe('sandbox checkout ids (contract §6)', () => {
  it('opens the checkout only with its unguessable checkout id: knowing the deposit id lets nobody see, pay or cancel it', async () => {
    const owner = await createBuyer(ctx);
    const deposit = await startDeposit(owner, 5_000);
    const checkoutId = new URL(deposit.checkoutUrl).pathname.split('/').at(-1) as string;
    expect(checkoutId).not.toContain(deposit.id);
    expect(Buffer.from(checkoutId, 'base64url')).toHaveLength(24); // 192 random bits
    for (const path of [`/sandbox/checkout/${deposit.id}`, `/checkout/${deposit.id}`]) expect((await request(ctx.app).get(path)).status).toBe(404);
    for (const action of ['pay', 'cancel']) {
      const res = await request(ctx.app).post(`/sandbox/checkout/${deposit.id}/${action}`);
      expect(res.status).toBe(404);
    }
    expect((await request(ctx.app).get(`/api/v1/billing/deposits/${deposit.id}`).set(bearer(owner.token))).body.status).toBe('PENDING');
    // The checkout id is not stored: only its digest is.
    const row = await ctx.prisma.deposit.findUnique({ where: { id: deposit.id } });
    expect(row?.checkoutDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(`"${checkoutId}"`);
    // Whoever holds the URL can pay.
    expect((await request(ctx.app).get(`/sandbox/checkout/${checkoutId}`)).text).toContain(deposit.id);
    const paid = await clickCheckout(deposit.checkoutUrl, 'pay');
    expect(paid.text).toContain('SUCCEEDED');
    // …and is led back to the dashboard's page of that deposit.
    expect(paid.text).toContain(`href="/billing/deposits/${deposit.id}"`);
    // Reloading …/pay (a GET) shows the page again and moves no money.
    const reloaded = await request(ctx.app).get(`/sandbox/checkout/${checkoutId}/pay`);
    expect(reloaded.status).toBe(303);
    expect(reloaded.headers.location).toBe(`/sandbox/checkout/${checkoutId}`);
  });

  it.each(['%FF', '%00', 'x'.repeat(10_000), 'A'.repeat(31), '%E2%80%AE'.repeat(11)])('answers a malformed checkout id (%#) with a plain 404', async (bad) => {
    for (const path of [`/sandbox/checkout/${bad}`, `/checkout/${bad}`]) expect((await request(ctx.app).get(path)).status).toBe(404);
    expect((await request(ctx.app).post(`/sandbox/checkout/${bad}/pay`)).status).toBe(404);
  });
});

describe('GET /billing/deposits', () => {
  it("lists the buyer's own deposits newest first with a cursor; another buyer's deposit is DEPOSIT_NOT_FOUND", async () => {
    const buyer = await createBuyer(ctx);
    const other = await createBuyer(ctx);
    const ids = [];
    for (const amount of [1_000, 2_000, 3_000]) ids.push((await startDeposit(buyer, amount, 'mobile_money')).id);
    const foreign = await startDeposit(other, 5_000);

    const first = await request(ctx.app).get('/api/v1/billing/deposits?limit=2').set(bearer(buyer.token));
    expect(first.body.deposits.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await request(ctx.app).get(`/api/v1/billing/deposits?limit=2&cursor=${first.body.nextCursor}`).set(bearer(buyer.token));
    expect(second.body.deposits.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(second.body.hasMore).toBe(false);

    for (const id of [foreign.id, newId()]) {
      const res = await request(ctx.app).get(`/api/v1/billing/deposits/${id}`).set(bearer(buyer.token));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('DEPOSIT_NOT_FOUND');
    }
    const bad = await request(ctx.app).get('/api/v1/billing/deposits?cursor=nonsense').set(bearer(buyer.token));
    expect(bad.body.code).toBe('INVALID_CURSOR');
  });
});

describe('provider confirmations', () => {
  it('credits once however often the same confirmation arrives, also concurrently', async () => {
    const buyer = await createBuyer(ctx);
    const deposit = await startDeposit(buyer, 60_000);
    const { body, signature } = sandbox().sign({ type: 'deposit.succeeded', depositId: deposit.id });
    const results = await Promise.all(Array.from({ length: 20 }, () => sendSandboxConfirmation(body, signature)));
    expect(results.map((r) => [r.status, r.body.code])).toEqual(results.map(() => [200, undefined]));
    expect(results.filter((r) => r.body.result === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r.body.result === 'duplicate')).toHaveLength(19);
    const again = await sendSandboxConfirmation(body, signature);
    expect(again.body).toEqual({ received: true, result: 'duplicate' });
    expect(await balanceOf(buyer)).toBe(63_000);
    expect((await ledgerOf(buyer)).map((e) => e.type).sort()).toEqual(['BONUS', 'DEPOSIT']);
  });

  it('rejects a bad, missing, stale or foreign-key signature with 400 INVALID_SIGNATURE and changes nothing', async () => {
    const buyer = await createBuyer(ctx);
    const deposit = await startDeposit(buyer, 5_000);
    const { body, signature } = sandbox().sign({ type: 'deposit.succeeded', depositId: deposit.id });
    const tampered = Buffer.from(body.toString('utf8').replace(deposit.id, `${deposit.id} `));
    const forged = new SandboxProvider('not the server secret', ctx.config.publicUrl).sign({ type: 'deposit.succeeded', depositId: deposit.id });
    const staleSignature = signature.replace(/t=\d+/, `t=${Math.floor(Date.now() / 1000) - 3600}`);
    for (const [payload, header] of [
      [tampered, signature],
      [body, forged.signature],
      [body, staleSignature],
      [body, ''],
      [body, 't=1,v1=zz'],
    ] as const) {
      const res = await sendSandboxConfirmation(payload, header);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_SIGNATURE');
    }
    const read = await request(ctx.app).get(`/api/v1/billing/deposits/${deposit.id}`).set(bearer(buyer.token));
    expect(read.body.status).toBe('PENDING');
    expect(await balanceOf(buyer)).toBe(0);
    expect(await ledgerOf(buyer)).toEqual([]);
  });

  it('a cancelled deposit credits nothing, and a later Pay changes nothing', async () => {
    const buyer = await createBuyer(ctx);
    const deposit = await startDeposit(buyer, 250_000);
    const cancelled = await clickCheckout(deposit.checkoutUrl, 'cancel');
    expect(cancelled.text).toContain('CANCELLED');
    const { body, signature } = sandbox().sign({ type: 'deposit.succeeded', depositId: deposit.id });
    expect((await sendSandboxConfirmation(body, signature)).body.result).toBe('duplicate');
    const read = await request(ctx.app).get(`/api/v1/billing/deposits/${deposit.id}`).set(bearer(buyer.token));
    expect(read.body.status).toBe('CANCELLED');
    expect(await balanceOf(buyer)).toBe(0);
    expect(await ledgerOf(buyer)).toEqual([]);
  });

  it('answers 404 for a provider that is not the configured one', async () => {
    const res = await request(ctx.app).post('/api/v1/billing/providers/stripe/webhook').set('content-type', 'application/json').send('{}');
    expect(res.status).toBe(404);
  });

  it('a deposit that lifts the balance back to ≥ 500 re-arms budget.low', async () => {
    const buyer = await createBuyer(ctx);
    const debit = (amountCents: number) =>
      request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents, reason: 'test debit' });
    await clickCheckout((await startDeposit(buyer, 1_000)).checkoutUrl, 'pay');
    expect((await debit(-600)).status).toBe(201); // 1 000 → 400: budget.low
    await clickCheckout((await startDeposit(buyer, 500)).checkoutUrl, 'pay'); // 400 → 900: re-armed
    expect((await debit(-600)).status).toBe(201); // 900 → 300: budget.low again
    const events = await ctx.prisma.event.findMany({ where: { buyerId: buyer.id, type: 'budget.low' } });
    expect(events).toHaveLength(2);
  });
});

describe('the Stripe adapter', () => {
  const secret = 'whsec_test_concord_0123456789';
  let stripeCtx: TestContext;
  beforeAll(() => {
    stripeCtx = createTestContext({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_concord123', STRIPE_WEBHOOK_SECRET: secret } });
  });
  afterAll(() => stripeCtx.close());

  const event = (type: string, depositId: string, paymentStatus = 'paid') =>
    JSON.stringify({
      id: `evt_${depositId}_${type}`,
      object: 'event',
      type,
      data: {
        object: {
          id: `cs_test_${depositId}`,
          object: 'checkout.session',
          payment_status: paymentStatus,
          client_reference_id: depositId,
          metadata: { depositId },
        },
      },
    });

  async function stripeDeposit(amountCents: number) {
    const buyer = await createBuyer(stripeCtx);
    // Opening a real Checkout Session needs Stripe's API; the deposit row is what it would leave behind.
    const checkoutId = newCheckoutId();
    const deposit = await stripeCtx.services.db.repos.deposits.create({
      id: newId(),
      buyerId: buyer.id,
      amountCents,
      bonusCents: Math.floor(amountCents / 20),
      method: 'card',
      provider: 'stripe',
      providerRef: null,
      checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test',
      checkoutDigest: checkoutDigest(checkoutId),
    });
    return { buyer, deposit, checkoutId };
  }

  const post = (payload: string, header: string) =>
    request(stripeCtx.app)
      .post('/api/v1/billing/providers/stripe/webhook')
      .set('content-type', 'application/json')
      .set('stripe-signature', header)
      .send(payload);

  it('credits a checkout.session.completed event signed with the webhook secret, once', async () => {
    const { buyer, deposit } = await stripeDeposit(50_000);
    const payload = event('checkout.session.completed', deposit.id);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect((await post(payload, header)).body).toEqual({ received: true, result: 'applied' });
    expect((await post(payload, header)).body).toEqual({ received: true, result: 'duplicate' });
    const read = await request(stripeCtx.app).get(`/api/v1/billing/deposits/${deposit.id}`).set(bearer(buyer.token));
    expect(read.body.status).toBe('SUCCEEDED');
    const row = await stripeCtx.prisma.buyer.findUnique({ where: { id: buyer.id } });
    expect(Number(row?.creditBalance)).toBe(52_500);
  });

  it('sends the buyer back to a status page that shows the deposit (no Pay button outside the sandbox)', async () => {
    const { deposit, checkoutId } = await stripeDeposit(2_000);
    const pending = await request(stripeCtx.app).get(`/checkout/${checkoutId}`);
    expect(pending.status).toBe(200);
    expect(pending.text).toContain('PENDING');
    expect(pending.text).toContain('Waiting for the payment provider');
    expect(pending.text).not.toContain('id="pay"');
    expect((await request(stripeCtx.app).get(`/sandbox/checkout/${checkoutId}`)).status).toBe(404);
    // The deposit id opens nothing: only the checkout id the buyer was sent back with.
    expect((await request(stripeCtx.app).get(`/checkout/${deposit.id}`)).status).toBe(404);
    const payload = event('checkout.session.completed', deposit.id);
    await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect((await request(stripeCtx.app).get(`/checkout/${checkoutId}`)).text).toContain('SUCCEEDED');
    expect((await request(stripeCtx.app).get('/checkout/cunknown000000000000000000')).status).toBe(404);
  });

  it('rejects a payload signed with another secret or altered after signing', async () => {
    const { deposit } = await stripeDeposit(10_000);
    const payload = event('checkout.session.completed', deposit.id);
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const good = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    for (const [body, header] of [
      [payload, wrong],
      [payload.replace('paid', 'PAID'), good],
      [payload, 'garbage'],
    ]) {
      const res = await post(body as string, header as string);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_SIGNATURE');
    }
    expect((await stripeCtx.prisma.deposit.findUnique({ where: { id: deposit.id } }))?.status).toBe('PENDING');
  });

  it('maps expiry to CANCELLED, async failure to FAILED, and ignores an unpaid completion and other events', async () => {
    const expired = await stripeDeposit(1_000);
    const failed = await stripeDeposit(1_000);
    const unpaid = await stripeDeposit(1_000);
    const send = (payload: string) => post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect((await send(event('checkout.session.expired', expired.deposit.id))).body.result).toBe('applied');
    expect((await send(event('checkout.session.async_payment_failed', failed.deposit.id))).body.result).toBe('applied');
    expect((await send(event('checkout.session.completed', unpaid.deposit.id, 'unpaid'))).body.result).toBe('ignored');
    expect((await send(event('customer.created', unpaid.deposit.id))).body.result).toBe('ignored');
    const statuses = await stripeCtx.prisma.deposit.findMany({ where: { id: { in: [expired.deposit.id, failed.deposit.id, unpaid.deposit.id] } } });
    expect(Object.fromEntries(statuses.map((d) => [d.id, d.status]))).toEqual({
      [expired.deposit.id]: 'CANCELLED',
      [failed.deposit.id]: 'FAILED',
      [unpaid.deposit.id]: 'PENDING',
    });
  });
});
