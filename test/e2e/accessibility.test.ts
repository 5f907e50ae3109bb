// Every dashboard page, at 1 280 px and at 390 px, checked by axe-core in the same browser: no
// serious or critical violation, no console error, and a visible focus ring on the first control reached by
// the keyboard. Pages are filled with data (scripts/demo-seed.ts) and their dialogs are opened too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoAccounts } from '../../scripts/demo-seed.ts';
import { DESKTOP, launchBrowser, logIn, openPage, PHONE, seriousAccessibilityViolations, settle, unexpectedProblems } from './support/browser.ts';
import { startDashboardServer, type DashboardServer } from './support/server.ts';
import { disableWebhooks } from './support/webhooks.ts';

interface Visit {
  path: string;
  /** Opens a dialog or a detail view before the check. */
  open?: (page: Page) => Promise<void>;
}

/** The demo webhook's page (the seed makes one webhook). */
const openWebhook = async (page: Page) => {
  await page.locator('main table tbody tr a').first().click();
  await page.waitForURL(/\/webhooks\/.+/);
  await settle(page);
};
let databaseUrl = '';

const PUBLIC: Visit[] = [{ path: '/login' }, { path: '/register' }, { path: '/admin/login' }, { path: '/developer/setup#token=abc' }];

const BUYER: Visit[] = [
  { path: '/' },
  { path: '/tasks' },
  { path: '/tasks', open: (page) => page.locator('tr[data-task-id]').first().click() },
  { path: '/tasks', open: (page) => page.getByRole('button', { name: 'Create task', exact: true }).click() },
  { path: '/import' },
  {
    // A chosen file's preview: on a phone, a table that scrolls in its own region.
    path: '/import',
    open: async (page) => {
      const csv = ['type,content,options,locale,maxCents', 'SENTIMENT_ANALYSIS,"A review long enough to need a wide column",positive|negative|neutral,en,20'];
      await page.getByLabel('CSV file').setInputFiles({ name: 'tasks.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
      await page.getByText('Preview: the first').waitFor();
    },
  },
  { path: '/projects' },
  { path: '/projects', open: (page) => page.locator('main table tbody tr a').first().click() },
  { path: '/golden-tasks' },
  { path: '/exports' },
  // A split with its file sizes (and, for so few failed tasks, the warning of an empty file).
  { path: '/exports?format=jsonl&status=FAILED&trainRatio=0.8&valRatio=0.1&testRatio=0.1' },
  { path: '/webhooks' },
  { path: '/webhooks', open: (page) => page.getByRole('button', { name: 'New webhook' }).click() },
  { path: '/webhooks', open: (page) => page.locator('main table tbody tr a').first().click() },
  {
    path: '/webhooks',
    open: async (page) => {
      // A pasted whsec_ secret the service would refuse, and the copy tick missing: the errors are shown.
      await page.getByRole('button', { name: 'New webhook' }).click();
      const form = page.getByRole('dialog', { name: 'New webhook' });
      await form.getByRole('radio', { name: 'Paste my own secret' }).check();
      await form.getByLabel('Your secret').fill('whsec_not-base64-at-all');
      await form.getByRole('button', { name: 'Create webhook' }).click();
      await form.locator('.field-error').first().waitFor();
    },
  },
  {
    path: '/webhooks',
    open: async (page) => {
      await openWebhook(page);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('status', { name: 'Test result' }).waitFor();
    },
  },
  {
    path: '/webhooks',
    open: async (page) => {
      await openWebhook(page);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog', { name: 'Rotate secret' }).waitFor();
    },
  },
  {
    path: '/webhooks',
    open: async (page) => {
      await openWebhook(page);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate secret' });
      await dialog.getByLabel('I have copied the secret').check();
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      await dialog.getByText('Secret rotated').waitFor();
    },
  },
  {
    path: '/webhooks',
    open: async (page) => {
      // Last of the webhook visits: Concord disabled it after 3 days of failures.
      await disableWebhooks(databaseUrl, 'demo-receiver');
      await openWebhook(page);
      await page.getByRole('region', { name: 'Disabled by Concord' }).waitFor();
    },
  },
  { path: '/api-keys' },
  {
    path: '/api-keys',
    open: async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('Accessibility check');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  { path: '/api-keys', open: (page) => page.getByRole('button', { name: 'Revoke Production ingest' }).click() },
  { path: '/billing' },
  { path: '/account' },
  { path: '/no-such-page' },
];

const ADMIN: Visit[] = [
  { path: '/admin' },
  { path: '/admin/developers' },
  { path: '/admin/developers', open: (page) => page.getByRole('button', { name: 'New developer' }).click() },
  { path: '/admin/buyers' },
  { path: '/admin/payouts' },
  { path: '/admin/annotators?suspended=false' },
  { path: '/admin/outbox' },
  { path: '/admin/account' },
];

describe('accessibility of every page', () => {
  let server: DashboardServer;
  let browser: Browser;
  let demo: DemoAccounts;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer('a11y'), launchBrowser()]);
    demo = await seedDemo({ url: server.url, admin: server.localAdmin, tasks: 60 });
    databaseUrl = server.databaseUrl;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the check sees a violation planted in a page (an image without a text alternative)', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await settle(page);
    await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('img'), { src: '/favicon.svg' }))`);
    expect((await seriousAccessibilityViolations(page)).map((v) => v.id)).toContain('image-alt');
    await page.context().close();
  });

  for (const [label, viewport] of [
    ['1 280 px', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`has no serious or critical axe violation at ${label}`, async () => {
      const { page, problems } = await openPage(browser, viewport);
      const found: string[] = [];
      const check = async (visit: Visit) => {
        await page.goto(`${server.url}${visit.path}`);
        await settle(page);
        if (visit.open) {
          await visit.open(page);
          await settle(page);
        }
        for (const violation of await seriousAccessibilityViolations(page)) {
          found.push(
            `${visit.path}${visit.open ? ' (opened)' : ''}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
        }
      };
      for (const visit of PUBLIC) await check(visit);
      await logIn(page, server.url, '/login', demo.buyer);
      // The keyboard reaches the skip link first, and focus is visible on it.
      await page.goto(`${server.url}/tasks`);
      await settle(page);
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(
        `(() => { const el = document.activeElement; const style = getComputedStyle(el); return { text: el.textContent, visible: style.boxShadow !== 'none' || style.outlineStyle !== 'none' }; })()`,
      );
      expect(focused).toEqual({ text: 'Skip to content', visible: true });
      for (const visit of BUYER) await check(visit);
      await page.evaluate('sessionStorage.clear()');
      await logIn(page, server.url, '/admin/login', server.localAdmin);
      for (const visit of ADMIN) await check(visit);
      expect(found).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
      await page.context().close();
    });
  }
});
