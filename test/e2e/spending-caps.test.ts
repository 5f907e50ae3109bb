// Spending caps in a real browser: an owner sets the monthly cap and a project cap that holds on the
// Billing page and sees them listed; tasks sent past the holding cap show as held there (the event stream's
// budget.cap_reached refreshes the figures), on the task list and in the drawer, which offers no changes;
// raising the cap in its dialog releases them. A task refused by a cap is said in words in Create task, with
// a link to the caps. The page is axe-clean at 1 280 and 390 px and never scrolls
// sideways. A viewer sees the same caps without a form, each row's buttons unavailable with the reason.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, invitationToken } from './support/api.ts';
import { actFor, DESKTOP, launchBrowser, logIn, openPage, PHONE, seriousAccessibilityViolations, settle, unexpectedProblems } from './support/browser.ts';
import { startDashboardServer, type DashboardServer } from './support/server.ts';

const OWNER = { email: 'owner@lumen-data.example', password: 'owner password 1', companyName: 'Lumen Data' };
const VIEWER = { email: 'vera.viewer@lumen-data.example', password: 'viewer password 1' };
const HOLDING = 'Support tickets';
/** Tasks sent into the holding project: its cap fits two of them, the rest are held. */
const SENT = 5;
const FITS = 2;

describe('spending caps in the dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;
  let ownerToken: string;
  let admin: string;
  let priceCents: number;
  let holdingId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer('spending_caps'), launchBrowser()]);
    const registered = await call<{ token: string }>(server.url, 'POST', '/auth/register', undefined, OWNER);
    expect(registered.status).toBe(201);
    ownerToken = registered.body.token;
    admin = await adminToken(server.url, server.localAdmin);
    const me = await call<{ buyer: { id: string } }>(server.url, 'GET', '/auth/me', ownerToken);
    // Credit to reserve the tasks' budgets with.
    expect((await call(server.url, 'POST', `/admin/buyers/${me.body.buyer.id}/credits`, admin, { amountCents: 10_000, reason: 'Test credit' })).status).toBe(
      201,
    );
    priceCents = (await call<{ priceCents: number }>(server.url, 'GET', '/meta', undefined)).body.priceCents;
    for (const name of [HOLDING, 'Search relevance']) {
      const project = await call<{ id: string }>(server.url, 'POST', '/projects', ownerToken, { name });
      expect(project.status).toBe(201);
      if (name === HOLDING) holdingId = project.body.id;
    }
    // The viewer joins through an invitation.
    expect((await call(server.url, 'POST', '/invitations', ownerToken, { email: VIEWER.email, role: 'viewer' })).status).toBe(201);
    const accepted = await call(server.url, 'POST', '/invitations/accept', undefined, {
      token: await invitationToken(server.url, admin, VIEWER.email),
      password: VIEWER.password,
    });
    expect(accepted.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const capsCard = (page: Page) => page.getByRole('region', { name: 'Spending caps' });
  const capsTable = (page: Page) => capsCard(page).getByRole('table');
  const holdingRow = (page: Page) => capsTable(page).getByRole('row', { name: new RegExp(HOLDING) });
  const dollars = (cents: number) => (cents / 100).toFixed(2);

  /** Logs in and acts for Lumen Data (a newcomer invited there also has an organisation of their own). */
  async function logInToLumen(page: Page, person: { email: string; password: string }) {
    await logIn(page, server.url, '/login', person);
    if (person !== OWNER) await actFor(page, 'Lumen Data');
    await settle(page);
  }

  it('sets a monthly cap and a holding project cap, shows the held tasks and releases them when the cap is raised', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInToLumen(page, OWNER);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing', exact: true }).click();
    await page.waitForURL(/\/billing$/);
    await settle(page);
    const card = capsCard(page);
    await card.getByText('No monthly cap.').waitFor();
    await card.getByText('No project has a budget cap').waitFor();

    // The monthly cap: a typed amount the API would refuse is said next to the field, nothing sent.
    const monthly = card.getByRole('form', { name: 'Monthly cap', exact: true });
    await monthly.getByLabel('Monthly cap (USD)').fill('200000000');
    await monthly.getByRole('button', { name: 'Set monthly cap' }).click();
    await monthly.getByText('The largest cap is $100,000,000.00.').waitFor();
    await monthly.getByLabel('Monthly cap (USD)').fill('250');
    await monthly.getByRole('button', { name: 'Set monthly cap' }).click();
    await card.getByText('The monthly cap is now $250.00.').waitFor();
    await card.getByText('$0.00 of $250.00 committed').waitFor();
    expect(await card.getByRole('progressbar', { name: 'Monthly cap used' }).getAttribute('aria-valuenow')).toBe('0');

    // A project cap that holds: chosen among the projects without one.
    const add = card.getByRole('form', { name: 'Cap a project' });
    await add.getByLabel('Project', { exact: true }).selectOption({ label: HOLDING });
    await add.getByLabel('Budget cap (USD)').fill(dollars(FITS * priceCents));
    await add.getByRole('radio', { name: 'Hold new tasks' }).check();
    await add.getByRole('button', { name: 'Set project cap' }).click();
    await card.getByText(`The budget cap of ${HOLDING} is now $${dollars(FITS * priceCents)}; past it, new tasks are held.`).waitFor();
    await expect.poll(() => holdingRow(page).innerText()).toMatch(/Holds/);
    expect(await holdingRow(page).innerText()).toContain('No task held');
    // The capped project is no longer offered for a new cap.
    expect(await add.getByLabel('Project', { exact: true }).locator('option').allInnerTexts()).toEqual(['Choose a project…', 'Search relevance']);

    // What the service stored.
    const caps = await call<{ monthly: { capCents: number }; projects: { projectId: string; capCents: number; capAction: string }[] }>(
      server.url,
      'GET',
      '/billing/caps',
      ownerToken,
    );
    expect(caps.body.monthly.capCents).toBe(25_000);
    expect(caps.body.projects).toEqual([expect.objectContaining({ projectId: holdingId, capCents: FITS * priceCents, capAction: 'hold' })]);

    // Tasks past the cap are held: budget.cap_reached on the event stream refreshes the figures.
    const created = await call<{ tasks: { held?: true }[] }>(server.url, 'POST', '/tasks/batch', ownerToken, {
      tasks: Array.from({ length: SENT }, (_, n) => ({
        type: 'BINARY_CHOICE',
        content: `Ticket ${n + 1}: does the customer ask for a refund?`,
        options: ['yes', 'no'],
        maxCents: priceCents,
        projectId: holdingId,
      })),
    });
    expect(created.status).toBe(201);
    expect(created.body.tasks.filter((task) => task.held).length).toBe(SENT - FITS);
    await expect.poll(() => holdingRow(page).innerText()).toContain(`${SENT - FITS} tasks held`);
    expect(await holdingRow(page).innerText()).toContain('The cap is reached: new tasks are held until it is raised.');

    // The held tasks on the task list, and one's drawer: no form, why not.
    await holdingRow(page)
      .getByRole('link', { name: `${SENT - FITS} tasks held` })
      .click();
    await page.waitForURL(/\/tasks\?.*projectId=/);
    await settle(page);
    const heldRows = page.locator('main table tbody tr', { hasText: 'held by the budget cap' });
    await expect.poll(() => heldRows.count()).toBe(SENT - FITS);
    await heldRows.first().getByRole('button').first().click();
    const drawer = page.getByRole('dialog', { name: 'Task details' });
    await drawer.getByText('Held by the budget cap', { exact: true }).waitFor();
    await drawer.getByText(/A held task cannot be changed \(TASK_HELD\)/).waitFor();
    expect(await drawer.getByRole('form', { name: 'Change task' }).count()).toBe(0);
    expect(await drawer.getByRole('button', { name: 'Delete task' }).count()).toBe(1);
    await drawer.getByRole('link', { name: /Raise or remove the project’s cap on Billing/ }).click();
    await page.waitForURL(/\/billing#spending-caps$/);
    await settle(page);

    // Raised in its dialog: every held task fits now and is released.
    await holdingRow(page)
      .getByRole('button', { name: `Change the budget cap of ${HOLDING}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Budget cap of ${HOLDING}` });
    const change = dialog.getByRole('form', { name: `Change the budget cap of ${HOLDING}` });
    expect(await change.getByLabel('Budget cap (USD)').inputValue()).toBe(dollars(FITS * priceCents));
    expect(await change.getByRole('radio', { name: 'Hold new tasks' }).isChecked()).toBe(true);
    await change.getByText(`${SENT - FITS} tasks are held now`).waitFor();
    await change.getByLabel('Budget cap (USD)').fill(dollars(10 * priceCents));
    await change.getByRole('button', { name: 'Save cap' }).click();
    await card.getByText(`${SENT - FITS} held tasks were released and reserved.`).waitFor();
    await expect.poll(() => holdingRow(page).innerText()).toContain('No task held');
    expect(await holdingRow(page).innerText()).toContain(`$${dollars(SENT * priceCents)} of $${dollars(10 * priceCents)} committed`);
    await card.getByText(`$${dollars(SENT * priceCents)} of $250.00 committed`).waitFor();

    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says in words which cap refuses a new task, with the way to the caps', async () => {
    const search = await call<{ projects: { id: string; name: string }[] }>(server.url, 'GET', '/projects', ownerToken);
    const searchId = search.body.projects.find((project) => project.name === 'Search relevance')?.id ?? '';
    expect((await call(server.url, 'PUT', `/projects/${searchId}/budget-cap`, ownerToken, { capCents: 0, capAction: 'refuse' })).status).toBe(200);
    const { page, context, problems } = await openPage(browser);
    await logInToLumen(page, OWNER);
    await page.goto(`${server.url}/tasks`);
    await settle(page);
    await page.getByRole('button', { name: 'Create task' }).click();
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByLabel('Type').selectOption('BINARY_CHOICE');
    await form.getByLabel('Content').fill('Is this query about billing? “refund my order”');
    await form.getByLabel('Options').fill('yes\nno');
    await form.getByLabel('Project').selectOption({ label: 'Search relevance' });
    await form.getByRole('button', { name: 'Submit task' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: `This project's budget cap of $0.00 refuses this: $0.00 is committed and this needs $${dollars(priceCents)} more.` })
      .waitFor();
    await form.getByRole('link', { name: 'Open the spending caps on Billing' }).click();
    await page.waitForURL(/\/billing#spending-caps$/);
    await expect
      .poll(() =>
        capsTable(page)
          .getByRole('row', { name: /Search relevance/ })
          .innerText(),
      )
      .toContain('The cap is reached');
    // Nothing was created.
    expect((await call<{ total: number }>(server.url, 'GET', `/tasks/counts?projectId=${searchId}`, ownerToken)).body.total).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['1 280 px', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`has no serious or critical axe violation at ${label}, the caps listed and the change dialog open`, async () => {
      const { page, context, problems } = await openPage(browser, viewport);
      await logInToLumen(page, OWNER);
      await page.goto(`${server.url}/billing`);
      await settle(page);
      await holdingRow(page).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      // Nothing wider than the window: the page never scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await holdingRow(page)
        .getByRole('button', { name: `Change the budget cap of ${HOLDING}` })
        .click();
      await page.getByRole('dialog', { name: `Budget cap of ${HOLDING}` }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
      await context.close();
    });
  }

  it('shows a viewer the caps without their forms, each change unavailable with the reason', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInToLumen(page, VIEWER);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing', exact: true }).click();
    await settle(page);
    const card = capsCard(page);
    await expect.poll(() => card.innerText()).toContain('of $250.00 committed');
    await expect.poll(() => holdingRow(page).innerText()).toMatch(/Holds/);
    expect(await holdingRow(page).innerText()).toContain(`of $${dollars(10 * priceCents)} committed`);

    // No form, no field: the reason once, and the row's buttons unavailable.
    expect(await card.getByRole('form').count()).toBe(0);
    expect(await card.getByRole('textbox').count()).toBe(0);
    expect(await card.getByRole('note').innerText()).toMatch(/\(viewer\).*setting spending caps \(money:write\)/);
    const changeButton = holdingRow(page).getByRole('button', { name: `Change the budget cap of ${HOLDING}` });
    expect(await changeButton.getAttribute('aria-disabled')).toBe('true');
    expect(
      await holdingRow(page)
        .getByRole('button', { name: `Remove cap of ${HOLDING}` })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    // force: Playwright does not press an aria-disabled control of itself; a person can.
    await changeButton.click({ force: true });
    await holdingRow(page).getByRole('status').filter({ hasText: 'does not allow this' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
