// The admin in a real browser: the first-run local admin logs in with what the start-up wrote,
// creates a developer and sees its API key once, and approves an annotator's payout.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, annotateUntil, call, developerKey } from './support/api.ts';
import { launchBrowser, openPage, unexpectedProblems } from './support/browser.ts';
import { startDashboardServer, type DashboardServer } from './support/server.ts';

describe('the admin dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;

  beforeAll(async () => {
    // A task pays its annotators half of 10 dollars here, so one annotator earns a payout in a few answers.
    [server, browser] = await Promise.all([startDashboardServer('admin', { PRICE_CENTS: '1000' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('first-run admin logs in, creates a developer whose key is shown once, and approves a payout', async () => {
    // An annotator with a pending payout, made through the API as a developer app would.
    const admin = await adminToken(server.url, server.localAdmin);
    const buyer = await call<{ token: string; buyer: { id: string } }>(server.url, 'POST', '/auth/register', undefined, {
      email: 'payer@example.test',
      password: 'payer password',
      companyName: 'Payer Inc',
    });
    expect((await call(server.url, 'POST', `/admin/buyers/${buyer.body.buyer.id}/credits`, admin, { amountCents: 100_000, reason: 'e2e' })).status).toBe(201);
    const tasks = Array.from({ length: 20 }, (_, i) => ({ type: 'BINARY_CHOICE', content: `Is item ${i} blue?`, options: ['yes', 'no'], maxCents: 1000 }));
    expect((await call(server.url, 'POST', '/tasks/batch', buyer.body.token, { tasks })).status).toBe(201);
    const key = await developerKey(server.url, admin, 'Payout App');
    const earnings = async () =>
      (await call<{ availableCents?: number }>(server.url, 'GET', '/sdk/annotators/annotator-0/earnings', key)).body.availableCents ?? 0;
    await annotateUntil(server.url, key, async () => (await earnings()) >= 500);
    const payout = await call<{ id: string }>(server.url, 'POST', '/sdk/annotators/annotator-0/payouts', key, {
      amountCents: 500,
      method: 'paypal',
      destination: 'ann@example.test',
    });
    expect(payout.status).toBe(201);

    const { page, problems } = await openPage(browser);
    await page.goto(`${server.url}/admin/login`);
    // The login page says where the first-run credentials are; the log printed them too.
    await expect.poll(() => page.locator('main').innerText()).toContain('local-admin.json');
    expect(server.server.output()).toContain(server.localAdmin.password);
    await page.getByLabel('E-mail').fill(server.localAdmin.email);
    await page.getByLabel('Password').fill(server.localAdmin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${server.url}/admin`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developers', exact: true }).click();
    await page.getByRole('button', { name: 'New developer' }).click();
    const form = page.getByRole('form', { name: 'New developer' });
    await form.getByLabel('E-mail').fill('newdev@example.test');
    await form.getByLabel('App name').fill('Fresh App');
    await form.getByLabel('App URL').fill('https://fresh.example.test');
    await form.getByRole('button', { name: 'Create developer' }).click();
    const keyBox = page.getByRole('textbox', { name: 'API key' });
    const shownKey = await keyBox.inputValue();
    expect(shownKey).toMatch(/^c[a-z0-9]{20,}$/);
    // The key works: the developer's own profile answers it.
    const me = await call<{ developer: { appName: string } }>(server.url, 'GET', '/dev/me', shownKey);
    expect(me.body.developer.appName).toBe('Fresh App');
    // The dialog waits for the tick: the key cannot be shown again once it closes.
    await page.getByLabel('I have copied the API key').check();
    await page.getByRole('button', { name: 'Done' }).click();
    // Shown once: nowhere on the page afterwards, and the list carries no key.
    await expect.poll(() => page.getByRole('table', { name: /developers/i }).innerText()).toContain('Fresh App');
    expect(await page.content()).not.toContain(shownKey);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payouts', exact: true }).click();
    const row = page.getByRole('table', { name: 'Pending payouts' }).getByRole('row', { name: /annotator-0/ });
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('button', { name: 'Approve payout' }).click();
    await expect
      .poll(async () =>
        (await call<{ payouts: { id: string; status: string }[] }>(server.url, 'GET', '/admin/payouts?status=PAID', admin)).body.payouts.map((p) => p.id),
      )
      .toContain(payout.body.id);
    await expect.poll(() => page.getByRole('table', { name: 'Pending payouts' }).count()).toBe(0);

    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  });
});
