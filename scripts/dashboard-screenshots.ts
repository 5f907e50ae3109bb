// Screenshots of every dashboard page at 1 280 px and 390 px wide, into docs/dashboard/ (linked from the
// README). Starts its own server (development mode, so the first-run admin and the e-mail outbox show)
// on a fresh database, fills it with scripts/demo-seed.ts through the public API, then visits each page.
//   npm run dashboard:screenshots            every page
//   npm run dashboard:screenshots -- webhook  only the pictures whose name starts with "webhook"
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
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
  /**
   * The picture is of an open dialog: the window is made tall enough for all of the dialog, instead of a
   * full-page picture in which the dialog and its backdrop cover only the first screen.
   */
  dialog?: boolean;
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
    name: 'webhook-new',
    path: '/webhooks',
    dialog: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'New webhook' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  { name: 'webhook', path: '/webhooks', prepare: (page) => openWebhook(page, DEMO_WEBHOOK) },
  {
    name: 'webhook-test',
    path: '/webhooks',
    prepare: async (page) => {
      await openWebhook(page, DEMO_WEBHOOK);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('status', { name: 'Test result' }).waitFor();
    },
  },
  {
    name: 'webhook-rotate',
    path: '/webhooks',
    dialog: true,
    prepare: async (page) => {
      await openWebhook(page, DEMO_WEBHOOK);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.locator('dialog[open]').waitFor();
    },
  },
  {
    name: 'webhook-rotated',
    path: '/webhooks',
    dialog: true,
    prepare: async (page) => {
      await openWebhook(page, DEMO_WEBHOOK);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate secret' });
      await dialog.getByLabel('I have copied the secret').check();
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      await dialog.getByText('Secret rotated').waitFor();
    },
  },
  { name: 'webhook-disabled', path: '/webhooks', prepare: (page) => openWebhook(page, DISABLED_WEBHOOK) },
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

/** The seed's webhook (its URL answers 404), and one that Concord disabled after 3 days of failures (made here). */
const DEMO_WEBHOOK = 'demo-receiver-that-does-not-exist';
const DISABLED_WEBHOOK = 'orders-sync-retired';

async function openWebhook(page: Page, urlPart: string) {
  await page.getByRole('link', { name: new RegExp(urlPart) }).click();
  await page.waitForURL(/\/webhooks\/.+/);
}

/**
 * A webhook on the extended policy that the service disabled: made through the API, then given the state
 * the delivery worker writes after 3 days of failed attempts (no test can wait 3 days).
 */
async function addDisabledWebhook(url: string, databaseUrl: string, buyer: { email: string; password: string }) {
  const api = async (method: string, route: string, token: string | undefined, body: unknown) => {
    const response = await fetch(`${url}/api/v1${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const { token } = (await api('POST', '/auth/login', undefined, buyer)) as { token: string };
  const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
  const config = (await api('POST', '/webhooks/configs', token, {
    url: `${url}/${DISABLED_WEBHOOK}`,
    events: ['task.completed'],
    secret,
    retryPolicy: 'extended',
  })) as { id: string };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `UPDATE webhook_configs SET is_active = false, disabled_at = now(), failing_since = now() - interval '3 days',
       disabled_reason = 'Every delivery attempt failed for 3 days (last error: HTTP 503)' WHERE id = $1`,
      [config.id],
    );
  } finally {
    await client.end();
  }
}

/** Screenshots are taken even of a page that never settles: the picture then shows what went wrong. */
const settleOrGoOn = (page: Page) => settle(page).catch(() => undefined);

async function main() {
  await mkdir(OUT, { recursive: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-shots-'));
  const database = await benchDatabase('screenshots');
  const server = await startServer(database.url, {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  const browser = await launchBrowser();
  try {
    const admin = JSON.parse(await readFile(path.join(dataDir, 'local-admin.json'), 'utf8')) as { email: string; password: string };
    const demo = await seedDemo({ url: server.url, admin, tasks: 240, email: 'demo@northwind.example' });
    await addDisabledWebhook(server.url, database.url, demo.buyer);
    const only = process.argv[2];
    const wanted = (name: string) => !only || name.startsWith(only);
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      // bypassCSP: Playwright's waitForFunction evaluates its predicate, which the service's CSP forbids.
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      page.on('console', (message) => message.type() === 'error' && process.stderr.write(`console error: ${message.text()}\n`));
      for (const [name, loginPath] of [
        ['login', '/login'],
        ['register', '/register'],
        ['admin-login', '/admin/login'],
      ] as const) {
        if (!wanted(name)) continue;
        await page.goto(`${server.url}${loginPath}`);
        await settleOrGoOn(page);
        await page.screenshot({ path: path.join(OUT, `${name}-${label}.png`), fullPage: true });
      }
      for (const [shots, loginPath, account] of [
        [BUYER_SHOTS, '/login', demo.buyer],
        [ADMIN_SHOTS, '/admin/login', admin],
      ] as const) {
        if (!shots.some((shot) => wanted(shot.name))) continue;
        await logIn(page, server.url, loginPath, account);
        for (const shot of shots.filter((candidate) => wanted(candidate.name))) {
          await page.goto(`${server.url}${shot.path}`);
          await settleOrGoOn(page);
          if (shot.prepare) {
            await shot.prepare(page);
            await settleOrGoOn(page);
          }
          const file = path.join(OUT, `${shot.name}-${label}.png`);
          if (shot.dialog) {
            const height = (await page.evaluate(`document.querySelector('dialog[open]').scrollHeight`)) as number;
            await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height + 48) });
            await page.screenshot({ path: file });
            await page.setViewportSize(viewport);
          } else {
            // A click further down scrolled the window: the sticky header would be drawn there.
            await page.evaluate('window.scrollTo(0, 0)');
            await page.screenshot({ path: file, fullPage: true });
          }
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
