// The audit log in a real browser: an owner finds it in the navigation, reads who changed what (a member
// by e-mail, an API key by name and prefix), opens a change's settings before → after, filters by action
// and by an id typed in, and loads the older entries; the page is axe-clean at 1 280 and 390 px. A member
// has no Audit log in the navigation and is told why at its address, and an admin demoted while the page
// is open is told the same at the next request.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, invitationToken } from './support/api.ts';
import { actFor, DESKTOP, launchBrowser, logIn, openPage, PHONE, seriousAccessibilityViolations, settle, unexpectedProblems } from './support/browser.ts';
import { startDashboardServer, type DashboardServer } from './support/server.ts';

const OWNER = { email: 'owner@halcyon-labs.example', password: 'owner password 1', companyName: 'Halcyon Labs' };
const ADMIN = { email: 'ada.admin@halcyon-labs.example', password: 'admin password 1' };
const MEMBER = { email: 'mo.member@halcyon-labs.example', password: 'member password 1' };
/** More projects than one page of the log (20 entries) holds, so "Load more" has something to load. */
const EXTRA_PROJECTS = 22;
/** Every entry: those projects, the key, its project, the owner's change, two invitations and two joins. */
const ENTRIES = EXTRA_PROJECTS + 7;

describe('the audit log in the dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;
  let ownerToken: string;
  let admin: string;
  let keyPrefix: string;
  let adminAccountId: string;

  async function join(person: { email: string; password: string }, role: string) {
    expect((await call(server.url, 'POST', '/invitations', ownerToken, { email: person.email, role })).status).toBe(201);
    const accepted = await call(server.url, 'POST', '/invitations/accept', undefined, {
      token: await invitationToken(server.url, admin, person.email),
      password: person.password,
    });
    expect(accepted.status).toBe(200);
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer('audit_log'), launchBrowser()]);
    const registered = await call<{ token: string }>(server.url, 'POST', '/auth/register', undefined, OWNER);
    expect(registered.status).toBe(201);
    ownerToken = registered.body.token;
    admin = await adminToken(server.url, server.localAdmin);

    // The oldest entries: projects made by the owner, enough for a second page.
    for (let n = 1; n <= EXTRA_PROJECTS; n += 1) {
      expect((await call(server.url, 'POST', '/projects', ownerToken, { name: `Batch ${n}` })).status).toBe(201);
    }
    // An API key that makes a project, which the owner then tunes.
    const key = await call<{ apiKey: { secret: string; prefix: string } }>(server.url, 'POST', '/api-keys', ownerToken, { name: 'Deploy bot' });
    expect(key.status).toBe(201);
    keyPrefix = key.body.apiKey.prefix;
    const project = await call<{ id: string }>(server.url, 'POST', '/projects', key.body.apiKey.secret, { name: 'Contract clauses' });
    expect(project.status).toBe(201);
    expect((await call(server.url, 'PATCH', `/projects/${project.body.id}`, ownerToken, { targetConfidence: 0.97 })).status).toBe(200);
    await join(ADMIN, 'admin');
    await join(MEMBER, 'member');
    const members = await call<{ members: { accountId: string; email: string }[] }>(server.url, 'GET', '/members', ownerToken);
    adminAccountId = members.body.members.find((member) => member.email === ADMIN.email)?.accountId ?? '';
    expect(adminAccountId).not.toBe('');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const entries = (page: Page) => page.getByRole('list', { name: 'Audit log entries' }).locator(':scope > li');

  /**
   * Logs in and acts for Halcyon Labs: the owner's only organisation; an invited newcomer also has their
   * own, and switches through the header's picker.
   */
  async function logInToHalcyon(page: Page, person: { email: string; password: string }) {
    await logIn(page, server.url, '/login', person);
    if (person !== OWNER) await actFor(page, 'Halcyon Labs');
    await settle(page);
  }

  it('shows an owner who changed what, before → after, filtered and a page at a time', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInToHalcyon(page, OWNER);
    await nav(page).getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.waitForURL(/\/audit-log$/);
    await settle(page);
    await expect.poll(() => entries(page).count()).toBe(20);

    // Newest first: the members joining, the owner's project change, the key's project.
    const change = entries(page).filter({ hasText: 'Changed project' });
    expect(await change.innerText()).toContain(OWNER.email);
    expect(await change.innerText()).toContain('Contract clauses');
    const byKey = entries(page).filter({ hasText: 'Created project' }).filter({ hasText: 'Deploy bot' });
    expect(await byKey.innerText()).toContain(`${keyPrefix}…`);
    expect(await entries(page).filter({ hasText: 'Joined through an invitation' }).count()).toBe(2);

    // The change's settings, old → new.
    await change.getByText('Before → after').click();
    const row = change.locator('.audit-diff-row', { hasText: 'targetConfidence' });
    // Read out as "was none, now 0.97" (the arrow is for the eyes).
    await expect.poll(() => row.innerText()).toMatch(/was\s*none\s*→\s*, now\s*0\.97/);
    expect(await change.locator('time').getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);

    // The older entries, after the first page.
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => entries(page).count()).toBe(ENTRIES);
    await page.getByText(`Showing all ${ENTRIES} entries.`).waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // Filtered by action: the URL says so, only that action is listed.
    await page.getByLabel('Action').selectOption({ label: 'Changed project' });
    await page.waitForURL(/action=updateProject/);
    await expect.poll(() => entries(page).count()).toBe(1);

    // By an id typed in: the admin's account, who changed nothing yet but joining.
    await page.getByLabel('Action').selectOption({ label: 'All actions' });
    await page.getByLabel('Made by').selectOption({ label: 'Another id (a former member, a revoked key)…' });
    await page.getByLabel('Account or API key id').fill(adminAccountId);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`actor=${adminAccountId}`));
    await expect.poll(() => entries(page).count()).toBe(1);
    expect(await entries(page).first().innerText()).toContain('Joined through an invitation');

    // A filter nothing matches, then back to the whole log.
    await page.getByLabel('Action').selectOption({ label: 'Deleted a webhook' });
    await page.getByText('No entries match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/audit-log$/);
    // The whole log as it was loaded, both pages.
    await expect.poll(() => entries(page).count()).toBe(ENTRIES);

    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['1 280 px', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`has no serious or critical axe violation at ${label}, a change opened and an id being typed`, async () => {
      const { page, context, problems } = await openPage(browser, viewport);
      await logInToHalcyon(page, OWNER);
      await page.goto(`${server.url}/audit-log`);
      await settle(page);
      await entries(page).filter({ hasText: 'Changed project' }).getByText('Before → after').click();
      await page.getByLabel('Made by').selectOption({ label: 'Another id (a former member, a revoked key)…' });
      await page.getByLabel('Account or API key id').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      // Nothing wider than the window: the page never scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      expect(unexpectedProblems(problems)).toEqual([]);
      await context.close();
    });
  }

  it('offers a member no Audit log, and tells them why at its address', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInToHalcyon(page, MEMBER);
    const links = nav(page).getByRole('link');
    await expect.poll(() => links.allInnerTexts()).toContain('Tasks');
    expect((await links.allInnerTexts()).map((text) => text.trim())).not.toContain('Audit log');
    await page.goto(`${server.url}/audit-log`);
    await page.getByRole('heading', { name: 'Not available to your role' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('(audit:read)');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('tells an admin demoted while the page is open that it is no longer theirs, and takes it from the navigation', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInToHalcyon(page, ADMIN);
    await nav(page).getByRole('link', { name: 'Audit log', exact: true }).click();
    await settle(page);
    await expect.poll(() => entries(page).count()).toBe(20);

    expect((await call(server.url, 'PATCH', `/members/${adminAccountId}`, ownerToken, { role: 'member' })).status).toBe(200);
    // The next request (another filter) is refused: the page says what a page the role may not open says.
    await page.getByLabel('Target type').selectOption({ label: 'Project' });
    await page.getByRole('heading', { name: 'Not available to your role' }).waitFor();
    expect(await page.locator('main').innerText()).toMatch(/You are a member in Halcyon Labs/);
    await expect.poll(async () => (await nav(page).getByRole('link').allInnerTexts()).map((text) => text.trim())).not.toContain('Audit log');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
