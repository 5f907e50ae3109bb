// Result review in a real browser (README, "Result review"): a completed result rejected from the task
// drawer — the reason required before anything is sent, what a rejection does said before it, and then
// the reopened task (VALIDATING, revision 2, the rejected result with its confidence, the reason and
// when), tagged in the list, its refund in the ledger linked to the task, the event in the recent events
// and the project's rejected results; decided again by the annotators, said so, and not offered again. A
// result past its 7 days says why it is not offered; a 402 is said with its figures; a viewer, who may
// not change tasks, sees no button. axe-clean at 1 280 and 390 px, never scrolling sideways.
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, annotateUntil, call, developerKey, invitationToken } from './support/api.ts';
import { actFor, DESKTOP, launchBrowser, logIn, openPage, PHONE, seriousAccessibilityViolations, settle, unexpectedProblems } from './support/browser.ts';
import { runSql, startDashboardServer, type DashboardServer } from './support/server.ts';

const OWNER = { email: 'owner@harbourline.example', password: 'owner password 1', companyName: 'Harbourline Goods' };
const VIEWER = { email: 'vic.viewer@harbourline.example', password: 'viewer password 1' };
const PROJECT = 'Listing checks';
const REASON = 'Sarcasm: the two listings are different kettles';

type TaskBody = {
  id: string;
  status: string;
  result: string | null;
  revision: number;
  costCents: number;
  maxCents: number;
  targetConfidence: number;
  rejection: { result: string; confidence: number | null; reason: string; rejectedAt: string } | null;
};

describe('result review in the dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;
  let owner: string;
  let admin: string;
  let buyerId: string;
  let apiKey: string;
  let projectId: string;
  const ids: Record<string, string> = {};

  const task = async (id: string) => (await call<TaskBody>(server.url, 'GET', `/tasks/${id}`, owner)).body;

  async function createTask(name: string, content: string, fields: Record<string, unknown> = {}): Promise<string> {
    const created = await call<{ taskId: string }>(server.url, 'POST', '/tasks', owner, {
      type: 'BINARY_CHOICE',
      content,
      options: ['yes', 'no'],
      validationsNeeded: 3,
      projectId,
      ...fields,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[name] = created.body.taskId;
    return created.body.taskId;
  }

  const completeAll = (names: string[]) =>
    annotateUntil(server.url, apiKey, async () =>
      (await Promise.all(names.map(async (name) => (await task(ids[name] ?? '')).status))).every((s) => s === 'COMPLETED'),
    );

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer('result_review'), launchBrowser()]);
    const registered = await call<{ token: string }>(server.url, 'POST', '/auth/register', undefined, OWNER);
    expect(registered.status).toBe(201);
    owner = registered.body.token;
    admin = await adminToken(server.url, server.localAdmin);
    buyerId = (await call<{ buyer: { id: string } }>(server.url, 'GET', '/auth/me', owner)).body.buyer.id;
    expect((await call(server.url, 'POST', `/admin/buyers/${buyerId}/credits`, admin, { amountCents: 10_000, reason: 'Test credit' })).status).toBe(201);
    const project = await call<{ id: string }>(server.url, 'POST', '/projects', owner, { name: PROJECT });
    expect(project.status).toBe(201);
    projectId = project.body.id;

    await createTask('kettle', 'Is the red kettle listed twice, as “Kettle red 1.7L” and “Red electric kettle”?');
    await createTask('old', 'Is the oak desk in the right category?');
    await createTask('pricey', 'Is the ceramic mug set priced per mug?', { maxCents: 2_000 });
    apiKey = await developerKey(server.url, admin);
    await completeAll(['kettle', 'old', 'pricey']);
    // Decided eight days ago: past the window.
    await runSql(server.databaseUrl, `UPDATE tasks SET validated_at = now() - interval '8 days' WHERE id = $1`, [ids.old]);

    // A viewer, who may read tasks but not change them.
    expect((await call(server.url, 'POST', '/invitations', owner, { email: VIEWER.email, role: 'viewer' })).status).toBe(201);
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

  async function logInAsOwner(page: Page) {
    await logIn(page, server.url, '/login', OWNER);
    await settle(page);
  }

  const drawerOf = async (page: Page, name: string) => {
    await page.goto(`${server.url}/tasks?task=${ids[name]}`);
    await settle(page);
    const drawer = page.getByRole('dialog', { name: 'Task details' });
    await drawer.getByText('Task id').waitFor();
    return drawer;
  };

  it('rejects a completed result from the drawer and shows the reopened task, its refund and its event', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInAsOwner(page);
    const before = await task(ids.kettle ?? '');
    expect(before).toMatchObject({ status: 'COMPLETED', result: 'yes', revision: 1, rejection: null });
    const cost = `$${(before.costCents / 100).toFixed(2)}`;

    const drawer = await drawerOf(page, 'kettle');
    const section = drawer.getByRole('region', { name: 'Reject the result' });
    expect(await section.innerText()).toMatch(/send it back until .* UTC \(6 days 23 h left\)/);
    await section.getByRole('button', { name: 'Reject result' }).click();
    const form = section.getByRole('form', { name: 'Reject result' });
    await expect.poll(() => page.evaluate('document.activeElement?.name')).toBe('reason');
    expect(await form.innerText()).toContain(
      `The ${cost} charged is refunded now, and the task is decided again at a higher target (95.0 % → 97.5 %), with up to 3 more answers.`,
    );
    // Without a reason: refused before anything is sent.
    await form.getByLabel('Reason').fill('   ');
    await form.getByRole('button', { name: 'Reject and refund' }).click();
    await form.getByText('Say what is wrong with this result: a reason is required.').waitFor();
    expect(await task(ids.kettle ?? '')).toEqual(before);

    await form.getByLabel('Reason').fill(`  ${REASON}  `);
    await form.getByRole('button', { name: 'Reject and refund' }).click();
    await drawer.getByText(`Result rejected and ${cost} refunded. The task is being decided again at a target of 97.5 %`).waitFor();
    const after = await task(ids.kettle ?? '');
    expect(after).toMatchObject({ status: 'VALIDATING', result: null, revision: 2, targetConfidence: 0.975, rejection: { result: 'yes', reason: REASON } });
    // The drawer shows the task as it reopened: open again, the rejected result beside the empty one.
    await drawer.locator('.badge', { hasText: 'VALIDATING' }).first().waitFor();
    const text = await drawer.innerText();
    expect(text).toMatch(/Result\s+— \(being decided again after the rejection\)/);
    expect(text).toMatch(new RegExp(`Rejected result\\s+yes \\(confidence \\d+\\.\\d %\\) — “${REASON}”, \\d+ \\w+ \\d{4}, \\d\\d:\\d\\d UTC`));
    expect(text).toContain('Charge refunded at the rejection; decided again at a target confidence of 97.5 %, with up to 13 answers.');
    expect(text).toContain('(the rejected result’s charge refunded; charged when it completes)');
    expect(await drawer.getByRole('button', { name: 'Reject result' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // The list tags it.
    const row = page.locator(`table.tasks-table tr[data-task-id="${ids.kettle}"]`);
    await expect.poll(() => row.innerText()).toContain('Decided again');
    expect(await row.innerText()).toContain('VALIDATING');

    // The ledger: a refund of the charge, linked to the task.
    await page.goto(`${server.url}/billing`);
    await settle(page);
    const refund = page.locator('.bl-ledger tbody tr', { hasText: 'Refund (result rejected)' });
    await expect.poll(() => refund.count()).toBe(1);
    expect(await refund.innerText()).toContain(`+${cost}`);
    const link = refund.getByRole('link', { name: /red kettle/ });
    expect(await link.getAttribute('href')).toContain(`task=${ids.kettle}`);

    // The overview's events: the rejection with the result sent back and the refund.
    await page.goto(`${server.url}/`);
    await settle(page);
    const event = page.locator('.ov-events tbody tr', { hasText: 'task.rejected' });
    await expect.poll(() => event.count()).toBe(1);
    expect(await event.innerText()).toContain(`“yes” rejected, ${cost} refunded`);

    // The project's quality card: one of the two results delivered was rejected.
    await page.goto(`${server.url}/projects/${projectId}`);
    await settle(page);
    await expect.poll(() => page.locator('main').innerText()).toMatch(/Rejected\s+1 of 3 results \(33\.3 %\)\./);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows a result decided again, and offers no second rejection', async () => {
    await completeAll(['kettle']);
    const decided = await task(ids.kettle ?? '');
    expect(decided).toMatchObject({ status: 'COMPLETED', result: 'yes', revision: 2 });
    const { page, context, problems } = await openPage(browser);
    await logInAsOwner(page);
    const drawer = await drawerOf(page, 'kettle');
    await expect.poll(() => drawer.innerText()).toMatch(/Result\s+yes \(decided again: revision 2\)/);
    const section = drawer.getByRole('region', { name: 'Reject the result' });
    expect(await section.innerText()).toContain('a task’s result can be rejected only once');
    expect(await section.getByRole('button').count()).toBe(0);
    expect(await drawer.innerText()).toContain(`Rejected result\nyes (confidence`);
    await page.keyboard.press('Escape');
    // Charged again for the result the crowd confirmed: two charges and a refund.
    await page.goto(`${server.url}/billing`);
    await settle(page);
    await expect.poll(() => page.locator('.bl-ledger tbody tr', { hasText: /red kettle/ }).count()).toBe(3);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says why a result past its seven days is not offered', async () => {
    const { page, context, problems } = await openPage(browser);
    await logInAsOwner(page);
    const drawer = await drawerOf(page, 'old');
    const section = drawer.getByRole('region', { name: 'Reject the result' });
    await expect.poll(() => section.innerText()).toMatch(/Results can be rejected within 7 days of their decision\. This one was decided on \d+ \w+ \d{4}/);
    expect(await section.getByRole('button').count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['1 280 px', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`has no serious or critical axe violation at ${label}: the reject form, with its reason refused, and a reopened task`, async () => {
      const { page, context, problems } = await openPage(browser, viewport);
      await logInAsOwner(page);
      const drawer = await drawerOf(page, 'pricey');
      await drawer.getByRole('button', { name: 'Reject result' }).click();
      const form = drawer.getByRole('form', { name: 'Reject result' });
      await form.getByRole('button', { name: 'Reject and refund' }).click();
      await form.getByText('Say what is wrong with this result: a reason is required.').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      // Cancel: the button again, focused.
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Reject result');
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/tasks`);
      await settle(page);
      await page.locator(`table.tasks-table tr[data-task-id="${ids.kettle}"]`).getByRole('button').click();
      await page.getByRole('dialog', { name: 'Task details' }).getByText('Rejected result').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      expect(unexpectedProblems(problems)).toEqual([]);
      await context.close();
    });
  }

  it('shows a viewer the rejection but no button', async () => {
    const { page, context, problems } = await openPage(browser);
    await logIn(page, server.url, '/login', VIEWER);
    await actFor(page, OWNER.companyName);
    await settle(page);
    for (const name of ['pricey', 'kettle']) {
      const drawer = await drawerOf(page, name);
      await expect.poll(() => drawer.innerText()).toContain('Confidence');
      expect(await drawer.getByRole('region', { name: 'Reject the result' }).count()).toBe(0);
      expect(await drawer.getByRole('button', { name: 'Reject result' }).count()).toBe(0);
    }
    expect(await page.getByRole('dialog', { name: 'Task details' }).innerText()).toContain('Rejected result');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says a refusal for want of credit with its figures, and changes nothing', async () => {
    // The available balance brought under the task's budget, which a rejection reserves again.
    const balance = (await call<{ buyer: { availableCents: number } }>(server.url, 'GET', '/auth/me', owner)).body.buyer.availableCents;
    const pricey = await task(ids.pricey ?? '');
    const debit = balance - 500;
    expect((await call(server.url, 'POST', `/admin/buyers/${buyerId}/credits`, admin, { amountCents: -debit, reason: 'Test debit' })).status).toBe(201);
    const { page, context, problems } = await openPage(browser);
    await logInAsOwner(page);
    const drawer = await drawerOf(page, 'pricey');
    await drawer.getByRole('button', { name: 'Reject result' }).click();
    const form = drawer.getByRole('form', { name: 'Reject result' });
    await form.getByLabel('Reason').fill('Mugs are sold in sets of four');
    await form.getByRole('button', { name: 'Reject and refund' }).click();
    const available = `$${((500 + pricey.costCents) / 100).toFixed(2)}`;
    await form.getByText(`This needs $20.00 but only ${available} is available.`).waitFor();
    expect(await form.innerText()).toContain(
      'Reopening the task reserves its budget of $20.00 again, after the refund. Add credits on the Billing page, or keep this result.',
    );
    expect(await task(ids.pricey ?? '')).toEqual(pricey);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
