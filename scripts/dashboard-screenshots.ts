// Screenshots of every dashboard page at 1 280 px and 390 px wide, into docs/dashboard/ (linked from the
// README). Starts its own server (development mode, so the first-run admin and the e-mail outbox show)
// on a fresh database, fills it with scripts/demo-seed.ts through the public API, then visits each page.
//   npm run dashboard:screenshots
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { benchDatabase, startServer } from '../bench/lib.ts';
import { DESKTOP, launchBrowser, logIn, PHONE, settle } from '../test/e2e/support/browser.ts';
import { seedDemo } from './demo-seed.ts';

const OUT = path.resolve('docs/dashboard');

interface Shot {
  name: string;
  path: string;
  /** Runs after the page settles, before the picture (open a drawer, fill a form…). */
  prepare?: (page: Page) => Promise<void>;
}

const BUYER_SHOTS: Shot[] = [
  { name: 'overview', path: '/' },
  { name: 'tasks', path: '/tasks' },
  {
    name: 'task-drawer',
    path: '/tasks?status=COMPLETED',
    prepare: async (page) => {
      await page.locator('main table tbody tr').first().click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  { name: 'import', path: '/import' },
  { name: 'projects', path: '/projects' },
  {
    name: 'project',
    path: '/projects',
    prepare: async (page) => {
      await page.locator('main table tbody tr a').first().click();
      await page.waitForURL(/\/projects\/.+/);
    },
  },
  { name: 'golden-tasks', path: '/golden-tasks' },
  { name: 'exports', path: '/exports' },
  { name: 'webhooks', path: '/webhooks' },
  {
    name: 'webhook',
    path: '/webhooks',
    prepare: async (page) => {
      await page.locator('main table tbody tr a').first().click();
      await page.waitForURL(/\/webhooks\/.+/);
    },
  },
  { name: 'api-keys', path: '/api-keys' },
  {
    name: 'api-key-created',
    path: '/api-keys',
    prepare: async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('Staging worker');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  { name: 'billing', path: '/billing' },
  { name: 'account', path: '/account' },
];

const ADMIN_SHOTS: Shot[] = [
  { name: 'admin-platform', path: '/admin' },
  { name: 'admin-developers', path: '/admin/developers' },
  { name: 'admin-buyers', path: '/admin/buyers' },
  { name: 'admin-payouts', path: '/admin/payouts' },
  { name: 'admin-annotators', path: '/admin/annotators?suspended=false' },
  { name: 'admin-outbox', path: '/admin/outbox' },
];

/** Screenshots are taken even of a page that never settles: the picture then shows what went wrong. */
const settleOrGoOn = (page: Page) => settle(page).catch(() => undefined);

async function main() {
  await mkdir(OUT, { recursive: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-shots-'));
  const database = await benchDatabase('screenshots');
  const server = await startServer(database.url, { NODE_ENV: 'development', DATA_DIR: dataDir, ADMIN_EMAIL: '', ADMIN_PASSWORD: '', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  const browser = await launchBrowser();
  try {
    const admin = JSON.parse(await readFile(path.join(dataDir, 'local-admin.json'), 'utf8')) as { email: string; password: string };
    const demo = await seedDemo({ url: server.url, admin, tasks: 240, email: 'demo@northwind.example' });
    for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      // bypassCSP: Playwright's waitForFunction evaluates its predicate, which the service's CSP forbids.
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      page.on('console', (message) => message.type() === 'error' && process.stderr.write(`console error: ${message.text()}\n`));
      for (const [name, loginPath] of [['login', '/login'], ['register', '/register'], ['admin-login', '/admin/login']] as const) {
        await page.goto(`${server.url}${loginPath}`);
        await settleOrGoOn(page);
        await page.screenshot({ path: path.join(OUT, `${name}-${label}.png`), fullPage: true });
      }
      for (const [shots, loginPath, account] of [
        [BUYER_SHOTS, '/login', demo.buyer],
        [ADMIN_SHOTS, '/admin/login', admin],
      ] as const) {
        await logIn(page, server.url, loginPath, account);
        for (const shot of shots) {
          await page.goto(`${server.url}${shot.path}`);
          await settleOrGoOn(page);
          if (shot.prepare) {
            await shot.prepare(page);
            await settleOrGoOn(page);
          }
          await page.screenshot({ path: path.join(OUT, `${shot.name}-${label}.png`), fullPage: true });
          process.stderr.write(`${shot.name}-${label}.png\n`);
        }
        await page.evaluate('sessionStorage.clear()');
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
