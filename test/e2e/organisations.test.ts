// Organisations in a real browser: an owner invites an address from the Members page and the newcomer
// joins through the e-mailed link (read from the development outbox), setting a password and landing in
// the dashboard acting for the organisation with the invited role; a viewer sees neither Members, API
// keys nor Import and is told why Create task is unavailable; an owner creates a read-only API key limited
// to one project and sees that scope in the list.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call } from './support/api.ts';
import { actFor, launchBrowser, logIn, openPage, settle, unexpectedProblems } from './support/browser.ts';
import { startDashboardServer, type DashboardServer } from './support/server.ts';

const OWNER = { email: 'owner@acme-labs.example', password: 'owner password 1', companyName: 'Acme Labs' };

describe('organisations in the dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;
  let ownerToken: string;
  let admin: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer('organisations'), launchBrowser()]);
    const registered = await call<{ token: string }>(server.url, 'POST', '/auth/register', undefined, OWNER);
    expect(registered.status).toBe(201);
    ownerToken = registered.body.token;
    admin = await adminToken(server.url, server.localAdmin);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The token in the newest invitation link e-mailed to an address, from the development outbox. */
  async function invitationToken(to: string): Promise<string> {
    let link: string | undefined;
    await expect
      .poll(async () => {
        const outbox = await call<{ messages: { kind: string; to: string; links: string[] }[] }>(server.url, 'GET', '/admin/mail-outbox?limit=100', admin);
        link = outbox.body.messages
          .find((message) => message.kind === 'ORGANISATION_INVITE' && message.to === to)
          ?.links.find((url) => url.includes('#token='));
        return link;
      })
      .toBeDefined();
    const found = link ?? '';
    return decodeURIComponent(found.slice(found.indexOf('#token=') + '#token='.length));
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('an invited address joins through the e-mailed link with a new password and the invited role', async () => {
    const invitee = 'sam.okafor@acme-labs.example';
    const owner = await openPage(browser);
    await logIn(owner.page, server.url, '/login', OWNER);
    await nav(owner.page).getByRole('link', { name: 'Members', exact: true }).click();
    const form = owner.page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('E-mail').fill(invitee);
    await form.getByLabel('Role').selectOption('billing');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => form.innerText()).toContain(`Invitation sent to ${invitee} as billing`);
    await expect.poll(() => owner.page.getByRole('table', { name: 'Pending invitations' }).innerText()).toContain(invitee);

    // The newcomer, in a browser of their own, follows the link: no account yet, so a password is asked.
    const token = await invitationToken(invitee);
    const newcomer = await openPage(browser);
    await newcomer.page.goto(`${server.url}/invitation#token=${encodeURIComponent(token)}`);
    const join = newcomer.page.getByRole('form', { name: 'Create your account' });
    await join.getByLabel('New password').fill('sam password 1');
    await join.getByLabel('Repeat the password').fill('sam password 1');
    await join.getByRole('button', { name: 'Create account and join' }).click();
    await newcomer.page.waitForURL(`${server.url}/`);
    // Acting for Acme Labs as billing: the header names the organisation and the role.
    const header = newcomer.page.locator('header.topbar');
    await expect.poll(() => header.innerText()).toContain('Acme Labs');
    expect(await header.innerText()).toMatch(/\bbilling\b/);
    await expect.poll(() => nav(newcomer.page).getByRole('link', { name: 'Billing', exact: true }).count()).toBe(1);
    expect(await nav(newcomer.page).getByRole('link', { name: 'Members', exact: true }).count()).toBe(0);

    // The owner's Members page now lists them, and the invitation is no longer pending.
    await owner.page.reload();
    await expect.poll(() => owner.page.getByRole('table', { name: 'Members' }).innerText()).toContain(invitee);
    expect(
      await owner.page
        .getByRole('table', { name: 'Members' })
        .getByRole('row', { name: new RegExp(invitee) })
        .innerText(),
    ).toMatch(/billing/);
    await expect.poll(() => owner.page.getByRole('table', { name: 'Pending invitations' }).count()).toBe(0);

    expect(unexpectedProblems(owner.problems)).toEqual([]);
    expect(unexpectedProblems(newcomer.problems)).toEqual([]);
    await owner.context.close();
    await newcomer.context.close();
  });

  it('a viewer has no Members, API keys or Import, and is told why Create task is unavailable', async () => {
    const viewer = { email: 'vic.lindqvist@acme-labs.example', password: 'viewer password 1' };
    expect((await call(server.url, 'POST', '/invitations', ownerToken, { email: viewer.email, role: 'viewer' })).status).toBe(201);
    const accepted = await call(server.url, 'POST', '/invitations/accept', undefined, {
      token: await invitationToken(viewer.email),
      password: viewer.password,
    });
    expect(accepted.status).toBe(200);

    const { page, context, problems } = await openPage(browser);
    await logIn(page, server.url, '/login', viewer);
    // A person with several organisations acts for one at a time: Acme Labs, through the header's picker.
    await actFor(page, 'Acme Labs');
    await page.getByRole('button', { name: /^Organisation: Acme Labs viewer/ }).waitFor();
    await settle(page);

    const links = nav(page).getByRole('link');
    await expect.poll(() => links.allInnerTexts()).toContain('Tasks');
    const labels = (await links.allInnerTexts()).map((text) => text.trim());
    for (const hidden of ['Members', 'API keys', 'Import']) expect(labels).not.toContain(hidden);

    await nav(page).getByRole('link', { name: 'Tasks', exact: true }).click();
    const create = page.getByRole('button', { name: 'Create task' });
    expect(await create.getAttribute('aria-disabled')).toBe('true');
    // force: Playwright does not press an aria-disabled control of itself; a person can.
    await create.click({ force: true });
    const reason = page.getByRole('status').filter({ hasText: 'does not allow this' });
    await reason.waitFor();
    expect(await reason.innerText()).toMatch(/viewer/);

    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('creates a read-only API key limited to one project and lists its scope', async () => {
    for (const name of ['Product reviews', 'Search relevance']) {
      expect((await call(server.url, 'POST', '/projects', ownerToken, { name })).status).toBe(201);
    }
    const { page, context, problems } = await openPage(browser);
    await logIn(page, server.url, '/login', OWNER);
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    const form = page.getByRole('form', { name: 'New API key' });
    await form.getByLabel('Name', { exact: true }).fill('Dashboard reader');
    await form.getByRole('radio', { name: /Read only/ }).check();
    await form.getByRole('checkbox', { name: 'Search relevance' }).check();
    const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('Last day (optional)').fill(lastDay);
    await form.getByRole('button', { name: 'Create key' }).click();

    const dialog = page.getByRole('dialog', { name: 'Dashboard reader is ready' });
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox', { name: 'API key' }).inputValue()).toMatch(/^cnc_test_/);
    await dialog.getByLabel('I have copied the API key').check();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('table', { name: 'Your API keys' }).getByRole('row', { name: /Dashboard reader/ });
    await expect.poll(() => row.innerText()).toContain('Search relevance');
    const text = await row.innerText();
    expect(text).toContain('Read only');
    expect(text).not.toContain('Product reviews');
    expect(text).not.toContain('Whole organisation');
    expect(text).toContain(lastDay.slice(0, 4));
    expect(text).toContain(`by ${OWNER.email}`);

    // What the service stored: read access, that project, the end of the chosen day in UTC.
    const keys = await call<{ apiKeys: { name: string; access: string; projectIds: string[] | null; expiresAt: string | null }[] }>(
      server.url,
      'GET',
      '/api-keys',
      ownerToken,
    );
    const projects = await call<{ projects: { id: string; name: string }[] }>(server.url, 'GET', '/projects', ownerToken);
    const searchId = projects.body.projects.find((project) => project.name === 'Search relevance')?.id;
    expect(keys.body.apiKeys.find((key) => key.name === 'Dashboard reader')).toMatchObject({
      access: 'read',
      projectIds: [searchId],
      expiresAt: `${lastDay}T23:59:59.999Z`,
    });

    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
