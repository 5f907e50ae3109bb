// Deadlines and priority in a real browser (docs/organisations.md, "Deadlines and priority"): the tasks at
// risk of missing their deadline on the overview, the tasks page and a project's page — soonest first, each
// with how far its deadline is, its project's median completion time (the 5-minute default said as such
// while none of the project's tasks has completed), its priority and status; a task's deadline changed from
// the drawer in the person's own time zone (Paris here) and sent as the instant they meant, a deadline in
// the past refused before anything is sent, the deadline removed; an expired task read in words; Create
// task's deadline and priority; a project's default deadline. axe-clean at 1 280 and 390 px, never
// scrolling sideways. A billing member, who may not read tasks, sees no list and is told why at /tasks.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, annotateUntil, call, developerKey, invitationToken } from './support/api.ts';
import {
  actFor,
  DESKTOP,
  launchBrowser,
  logIn,
  PHONE,
  seriousAccessibilityViolations,
  settle,
  trackRequests,
  unexpectedProblems,
  type WatchedPage,
} from './support/browser.ts';
import { runSql, startDashboardServer, type DashboardServer } from './support/server.ts';

const OWNER = { email: 'owner@tidewater.example', password: 'owner password 1', companyName: 'Tidewater Retail' };
const BILLING = { email: 'bea.billing@tidewater.example', password: 'billing password 1' };
/** No task of it completes: its tasks are compared with the service's default median, 5 minutes. */
const URGENT = 'Urgent moderation';
/** Its completed tasks took two hours each (backdated in the database): its median is 2 h. */
const CATALOGUE = 'Catalogue checks';
const ZONE = 'Europe/Paris';
const MINUTE = 60_000;

type TaskBody = { id: string; status: string; deadline: string | null; priority: number; failureReason: string | null };

/** The value a datetime-local field shows for an instant in Paris: what a person there types. */
function parisValue(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

describe('deadlines and priority in the dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;
  let owner: string;
  let admin: string;
  const ids: Record<string, string> = {};
  const projects: Record<string, string> = {};

  const task = async (id: string) => (await call<TaskBody>(server.url, 'GET', `/tasks/${id}`, owner)).body;

  async function createTask(name: string, fields: Record<string, unknown>): Promise<string> {
    const created = await call<{ taskId: string }>(server.url, 'POST', '/tasks', owner, {
      type: 'BINARY_CHOICE',
      options: ['yes', 'no'],
      validationsNeeded: 3,
      ...fields,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[name] = created.body.taskId;
    return created.body.taskId;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer('deadlines'), launchBrowser()]);
    const registered = await call<{ token: string }>(server.url, 'POST', '/auth/register', undefined, OWNER);
    expect(registered.status).toBe(201);
    owner = registered.body.token;
    admin = await adminToken(server.url, server.localAdmin);
    const me = await call<{ buyer: { id: string } }>(server.url, 'GET', '/auth/me', owner);
    expect((await call(server.url, 'POST', `/admin/buyers/${me.body.buyer.id}/credits`, admin, { amountCents: 10_000, reason: 'Test credit' })).status).toBe(
      201,
    );
    for (const name of [URGENT, CATALOGUE]) {
      const project = await call<{ id: string }>(server.url, 'POST', '/projects', owner, { name });
      expect(project.status).toBe(201);
      projects[name] = project.body.id;
    }

    // The catalogue's history: three tasks completed, then made to have taken two hours each.
    for (const n of [1, 2, 3]) await createTask(`done${n}`, { content: `Is listing ${n} a duplicate?`, projectId: projects[CATALOGUE] });
    const key = await developerKey(server.url, admin);
    await annotateUntil(server.url, key, async () => {
      const states = await Promise.all([1, 2, 3].map(async (n) => (await task(ids[`done${n}`] ?? '')).status));
      return states.every((status) => status === 'COMPLETED');
    });
    await runSql(server.databaseUrl, `UPDATE tasks SET created_at = validated_at - interval '2 hours' WHERE project_id = $1 AND status = 'COMPLETED'`, [
      projects[CATALOGUE],
    ]);

    const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
    // At risk: under the default 5 minutes, and under the catalogue's 2 hours.
    await createTask('urgent', {
      content: 'Does this comment break the community rules?',
      projectId: projects[URGENT],
      deadline: soon(4.5 * MINUTE),
      priority: 3,
    });
    await createTask('catalogue', { content: 'Is the red kettle listed twice?', projectId: projects[CATALOGUE], deadline: soon(50 * MINUTE) });
    for (const n of [1, 2, 3]) {
      await createTask(`extra${n}`, { content: `Is shelf ${n} labelled right?`, projectId: projects[CATALOGUE], deadline: soon((50 + 10 * n) * MINUTE) });
    }
    await createTask('spare', { content: 'Is the blue toaster listed twice?', projectId: projects[CATALOGUE], deadline: soon(90 * MINUTE), priority: -2 });
    // Not at risk: far away, or none.
    await createTask('later', { content: 'Is the green lamp listed twice?', projectId: projects[CATALOGUE], deadline: soon(3 * 24 * 60 * MINUTE) });
    await createTask('none', { content: 'Is the grey mug listed twice?', projectId: projects[CATALOGUE] });
    // Expired: its deadline moved into the past, where the expiry job (every 5 s) closes it.
    await createTask('expired', { content: 'Is this review written by a bot?', projectId: projects[URGENT], deadline: soon(30 * MINUTE) });
    await runSql(server.databaseUrl, `UPDATE tasks SET deadline = now() - interval '1 second' WHERE id = $1`, [ids.expired]);
    for (let wait = 0; wait < 100 && (await task(ids.expired ?? '')).failureReason !== 'EXPIRED'; wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await task(ids.expired ?? '')).failureReason).toBe('EXPIRED');

    // A billing member, who may not read tasks.
    expect((await call(server.url, 'POST', '/invitations', owner, { email: BILLING.email, role: 'billing' })).status).toBe(201);
    const accepted = await call(server.url, 'POST', '/invitations/accept', undefined, {
      token: await invitationToken(server.url, admin, BILLING.email),
      password: BILLING.password,
    });
    expect(accepted.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A page in a browser set to Paris time, watched like openPage's. */
  async function openParisPage(viewport = DESKTOP): Promise<WatchedPage> {
    const context = await browser.newContext({ viewport, timezoneId: ZONE });
    const page = await context.newPage();
    trackRequests(page);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return { context, page, problems };
  }

  async function logInAsOwner(page: Page) {
    await logIn(page, server.url, '/login', OWNER);
    await settle(page);
  }

  const atRisk = (page: Page) => page.getByRole('region', { name: 'At risk of missing the deadline' });
  const atRiskRows = (page: Page) => atRisk(page).locator('tbody tr');
  const row = (page: Page, name: string) => atRisk(page).locator(`tr[data-task-id="${ids[name]}"]`);

  it('lists the tasks at risk, soonest first, with their median and priority, on the overview, the tasks page and a project’s page', async () => {
    const { page, context, problems } = await openParisPage();
    await logInAsOwner(page);

    // The overview: the five nearest deadlines at risk, soonest first (the far one and the one without are not).
    const order = () => atRiskRows(page).evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-task-id')));
    await expect.poll(() => atRiskRows(page).count()).toBe(5);
    expect(await order()).toEqual([ids.urgent, ids.catalogue, ids.extra1, ids.extra2, ids.extra3]);
    expect(await atRisk(page).innerText()).toContain('Showing the 5 nearest deadlines; more tasks are at risk.');
    const urgent = await row(page, 'urgent').innerText();
    expect(urgent).toContain('Does this comment break the community rules?');
    expect(urgent).toMatch(/in [1-4] min/);
    expect(urgent).toContain('5 min');
    expect(urgent).toContain('The default: no task completed yet');
    expect(urgent).toContain('+3');
    expect(urgent).toContain('PENDING');
    const catalogue = await row(page, 'catalogue').innerText();
    expect(catalogue).toMatch(/in 4\d min/);
    expect(catalogue).toContain('2 h');
    expect(catalogue).not.toContain('The default');
    expect(await atRisk(page).innerText()).toContain(URGENT);
    // More: the limit raised, the sixth row, and the line says they are all there.
    await atRisk(page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => atRiskRows(page).count()).toBe(6);
    expect((await order()).at(-1)).toBe(ids.spare);
    expect(await row(page, 'spare').innerText()).toContain('−2');
    await atRisk(page).getByText('6 open tasks are at risk.').waitFor();
    expect(await atRisk(page).getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // The overview shows the first five; a row opens the task on the task list.
    await row(page, 'catalogue').getByRole('link').click();
    await page.waitForURL(new RegExp(`/tasks\\?task=${ids.catalogue}`));
    const drawer = page.getByRole('dialog', { name: 'Task details' });
    await drawer.getByText('Deadline and priority', { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    // A project's page: its own tasks only.
    await page.goto(`${server.url}/projects/${projects[URGENT]}`);
    await settle(page);
    await expect.poll(() => atRiskRows(page).count()).toBe(1);
    expect(await atRiskRows(page).first().getAttribute('data-task-id')).toBe(ids.urgent);
    expect(await page.getByRole('region', { name: 'At risk of missing the deadline' }).innerText()).toContain('1 open task is at risk.');

    // The tasks page: ten rows first, so all six at once.
    await page.goto(`${server.url}/tasks`);
    await settle(page);
    await expect.poll(() => atRiskRows(page).count()).toBe(6);
    expect(await atRisk(page).getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('changes a task’s deadline in the person’s own time zone, refuses one in the past, and removes it', async () => {
    const { page, context, problems } = await openParisPage();
    await logInAsOwner(page);
    await page.goto(`${server.url}/tasks`);
    await settle(page);

    await row(page, 'catalogue').getByRole('button').click();
    await page.waitForURL(new RegExp(`task=${ids.catalogue}`));
    const drawer = page.getByRole('dialog', { name: 'Task details' });
    await expect.poll(() => drawer.innerText()).toMatch(/Deadline\s+\d.*UTC \(in 4\d min\)/);
    const form = drawer.getByRole('form', { name: 'Deadline and priority' });
    expect(await form.innerText()).toMatch(/Your time \(UTC\+0[12]:00\)/);

    // In the past: refused next to the field, nothing sent.
    const before = await task(ids.catalogue ?? '');
    await form.getByLabel('Deadline').fill(parisValue(new Date(Date.now() - 60 * MINUTE)));
    await form.getByRole('button', { name: 'Save deadline and priority' }).click();
    await form.getByText('The deadline must be at least a minute ahead.').waitFor();
    expect(await task(ids.catalogue ?? '')).toEqual(before);

    // Three days on, typed as a person in Paris reads the time, and a priority: the service stores the instant meant.
    const target = new Date(Math.floor((Date.now() + 3 * 24 * 60 * MINUTE) / MINUTE) * MINUTE);
    await form.getByLabel('Deadline').fill(parisValue(target));
    await form.getByLabel('Priority').fill('7');
    await form.getByRole('button', { name: 'Save deadline and priority' }).click();
    await drawer.getByText('Deadline and priority saved.').waitFor();
    const saved = await task(ids.catalogue ?? '');
    expect(saved.deadline).toBe(target.toISOString());
    expect(saved.priority).toBe(7);
    await expect.poll(() => drawer.innerText()).toMatch(/\(in 2 days 23 h\)|\(in 3 days\)/);
    expect(await drawer.innerText()).toContain('+7: served as if created 1 h 10 min earlier, among your own tasks');
    // Three days is further than the catalogue's two hours: it leaves the list.
    await expect.poll(() => atRiskRows(page).count()).toBe(5);
    expect(await row(page, 'catalogue').count()).toBe(0);

    // Removed: no deadline at all.
    await drawer.getByRole('button', { name: 'Remove the deadline' }).click();
    await drawer.getByText('Deadline removed.').waitFor();
    expect((await task(ids.catalogue ?? '')).deadline).toBeNull();
    await expect
      .poll(() =>
        drawer
          .locator('dd')
          .filter({ hasText: /^None$/ })
          .count(),
      )
      .toBe(1);
    expect(await drawer.getByRole('button', { name: 'Remove the deadline' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // An expired task: failed, in words, not charged; no form.
    await page.goto(`${server.url}/tasks?task=${ids.expired}`);
    await settle(page);
    const expired = page.getByRole('dialog', { name: 'Task details' });
    await expect.poll(() => expired.innerText()).toContain('Expired: its deadline passed before it was decided');
    expect(await expired.innerText()).toContain('Nothing was charged');
    expect(await expired.getByRole('form', { name: 'Deadline and priority' }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('creates a task with a deadline and a priority, and sets a project’s default deadline', async () => {
    const { page, context, problems } = await openParisPage();
    await logInAsOwner(page);
    await page.goto(`${server.url}/tasks`);
    await settle(page);
    await page.getByRole('button', { name: 'Create task' }).click();
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByLabel('Type').selectOption('BINARY_CHOICE');
    await form.getByLabel('Content').fill('Is the yellow chair listed twice?');
    await form.getByLabel('Options').fill('yes\nno');
    await form.getByLabel('Project').selectOption({ label: CATALOGUE });
    // Out of range, refused before anything is sent.
    await form.getByLabel('Deadline').fill(parisValue(new Date(Date.now() + 400 * 24 * 60 * MINUTE)));
    await form.getByLabel('Priority').fill('11');
    await form.getByRole('button', { name: 'Submit task' }).click();
    await form.getByText('The deadline must be at most 366 days ahead.').waitFor();
    await form.getByText('Give a whole number from −10 to +10').waitFor();
    const target = new Date(Math.floor((Date.now() + 2 * 24 * 60 * MINUTE) / MINUTE) * MINUTE);
    await form.getByLabel('Deadline').fill(parisValue(target));
    await form.getByLabel('Priority').fill('-4');
    await form.getByRole('button', { name: 'Submit task' }).click();
    await page.getByText('Task created and its budget reserved.').waitFor();
    const listed = await call<{ tasks: (TaskBody & { content: string })[] }>(server.url, 'GET', `/tasks?projectId=${projects[CATALOGUE]}`, owner);
    const created = listed.body.tasks.find((t) => t.content === 'Is the yellow chair listed twice?');
    expect(created).toMatchObject({ deadline: target.toISOString(), priority: -4 });

    // The urgent project's default deadline: a day. Create task then says what an empty deadline means there.
    await page.goto(`${server.url}/projects/${projects[URGENT]}`);
    await settle(page);
    const settings = page.getByRole('form', { name: 'Project settings' });
    await settings.getByLabel('Default deadline (hours)').fill('9000');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await settings.getByText('Give a whole number of hours from 1 to 8 760 (a year), or leave it empty for no default deadline.').waitFor();
    await settings.getByLabel('Default deadline (hours)').fill('24');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await settings.getByText('Changes saved.').waitFor();
    await expect.poll(() => page.locator('main').innerText()).toContain('24 hours (1 day) after a task is created, for tasks that name no deadline');
    const project = await call<{ defaultDeadlineHours: number | null }>(server.url, 'GET', `/projects/${projects[URGENT]}`, owner);
    expect(project.body.defaultDeadlineHours).toBe(24);
    await page.goto(`${server.url}/tasks?projectId=${projects[URGENT]}`);
    await settle(page);
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('form', { name: 'New task' }).getByText('Empty: the project’s default, 24 hours (1 day) after creation.').waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['1 280 px', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`has no serious or critical axe violation at ${label}: the list, and a task’s deadline being changed`, async () => {
      const { page, context, problems } = await openParisPage(viewport);
      await logInAsOwner(page);
      await page.goto(`${server.url}/tasks`);
      await settle(page);
      await expect.poll(() => atRiskRows(page).count()).toBeGreaterThan(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await row(page, 'spare').getByRole('button').click();
      const form = page.getByRole('dialog', { name: 'Task details' }).getByRole('form', { name: 'Deadline and priority' });
      await form.getByLabel('Priority').fill('12');
      await form.getByRole('button', { name: 'Save deadline and priority' }).click();
      await form.getByText('Give a whole number from −10 to +10').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
      await context.close();
    });
  }

  it('shows a billing member no tasks at risk, and tells them why at /tasks', async () => {
    const { page, context, problems } = await openParisPage();
    await logIn(page, server.url, '/login', BILLING);
    await actFor(page, 'Tidewater Retail');
    await settle(page);
    expect(await atRisk(page).count()).toBe(0);
    await page.goto(`${server.url}/tasks`);
    await page.getByRole('heading', { name: 'Not available to your role' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('(tasks:read)');
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
