// A buyer's whole journey in a real browser: sign up, top up through the sandbox checkout, see
// the bonus in the balance, import a CSV with one bad row and see its error against the row, see the
// tasks, watch a task turn COMPLETED with its confidence while annotators answer (no reload), download a
// jsonl export and check its records, see a split of so few tasks warned about before its download, create a webhook with the Standard Webhooks secret the page
// generates and see a delivery in its log; send it a test event and see the outcome, rotate its secret
// (both secrets sign for 24 h), change its retry policy, and re-enable it after Concord disabled it.
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { adminToken, annotateUntil, call, developerKey } from './support/api.ts';
import { launchBrowser, logIn, openPage, settle, unexpectedProblems } from './support/browser.ts';
import { startDashboardServer, type DashboardServer } from './support/server.ts';
import { DISABLED_REASON, disableWebhooks } from './support/webhooks.ts';

const CSV = [
  'content,type,options,validationsNeeded',
  '"Arrived on time, works as described.",SENTIMENT_ANALYSIS,positive|negative|neutral,2',
  'Is this a cat?,NOT_A_TYPE,yes|no,2',
  'Is Paris the capital of France?,BINARY_CHOICE,yes|no,2',
  'Is the sky green?,BINARY_CHOICE,yes|no,2',
].join('\n');

describe('the buyer dashboard', () => {
  let server: DashboardServer;
  let browser: Browser;
  let receiver: Receiver;

  beforeAll(async () => {
    [server, browser, receiver] = await Promise.all([startDashboardServer('buyer'), launchBrowser(), startReceiver()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('goes from sign-up to a labelled dataset and a delivered webhook', async () => {
    const { page, problems } = await openPage(browser);
    const url = server.url;
    // The buyer's pages follow GET /events/stream, its credential in the Authorization header (never the URL).
    const streams: { search: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      const requested = new URL(request.url());
      if (requested.pathname === '/api/v1/events/stream') streams.push({ search: requested.search, authorization: request.headers().authorization });
    });
    const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

    // Sign up.
    await page.goto(`${url}/register`);
    await page.getByLabel('Company name').fill('Journey Labs');
    await page.getByLabel('E-mail').fill('journey@example.test');
    await page.getByLabel('Password').fill('journey password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${url}/`);

    // Top up $500 through the sandbox checkout: 5 % bonus.
    await nav('Billing');
    await page.getByLabel('Amount (USD)').fill('500');
    await page.getByLabel('Payment method').selectOption('card');
    await expect.poll(() => page.getByRole('status', { name: 'Bonus preview' }).innerText()).toContain('$25.00');
    await page.getByRole('button', { name: 'Top up', exact: true }).click();
    await page.waitForURL(/\/sandbox\/checkout\//);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('link', { name: 'Back to your Concord dashboard' }).click();
    await page.waitForURL(/\/billing\/deposits\//);
    await expect.poll(() => page.getByRole('status', { name: 'Deposit status' }).innerText(), { timeout: 15_000 }).toContain('SUCCEEDED');
    await nav('Overview');
    await expect.poll(() => page.getByRole('group', { name: 'Balance' }).innerText()).toContain('$525.00');

    // Import a CSV with one bad row: the error is shown against row 2.
    await nav('Import');
    await page.getByLabel('CSV file').setInputFiles({ name: 'tasks.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const result = page.getByRole('region', { name: 'Import result' });
    await expect.poll(() => result.innerText(), { timeout: 15_000 }).toMatch(/3\b[^\n]*created|created[^\n]*\b3\b/i);
    const badRow = page.getByRole('row', { name: /^Row 2:/ });
    expect(await badRow.innerText()).toContain('INVALID_TYPE');
    expect(await badRow.innerText()).toContain('Is this a cat?');

    // The tasks are listed.
    await nav('Tasks');
    await expect.poll(() => page.locator('tr[data-task-id]').count()).toBe(3);

    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((stream) => stream.search === '' && stream.authorization?.startsWith('Bearer '))).toBe(true);

    // Open the France task, then annotators answer through the SDK routes: it turns COMPLETED, with its
    // confidence, on the open page (and in the list, which the event stream refreshes: while the stream is
    // up the list itself only polls every 30 s).
    const tasks = await call<{ tasks: { id: string; content: string }[] }>(url, 'GET', '/tasks', await buyerToken(url));
    const france = tasks.body.tasks.find((t) => t.content.startsWith('Is Paris'));
    if (!france) throw new Error('the France task is missing');
    await page.locator(`tr[data-task-id="${france.id}"]`).click();
    const drawer = page.getByRole('dialog', { name: 'Task details' });
    await expect.poll(() => drawer.innerText()).toContain('PENDING');

    const admin = await adminToken(url, server.localAdmin);
    const key = await developerKey(url, admin);
    const token = await buyerToken(url);
    const statusOf = async (id: string) => (await call<{ status: string; confidence: number | null }>(url, 'GET', `/tasks/${id}`, token)).body;
    await annotateUntil(
      url,
      key,
      async () => (await statusOf(france.id)).status === 'COMPLETED',
      (options) => (options.includes('yes') ? 'yes' : (options[0] ?? '')),
    );
    const decided = await statusOf(france.id);
    await expect.poll(() => drawer.innerText(), { timeout: 20_000 }).toContain('COMPLETED');
    const confidencePercent = `${((decided.confidence ?? 0) * 100).toFixed(1)} %`;
    expect(await drawer.innerText()).toContain(confidencePercent);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(`tr[data-task-id="${france.id}"]`).innerText(), { timeout: 20_000 }).toContain('COMPLETED');

    // Export jsonl: the completed tasks, each with its label.
    await nav('Exports');
    await page.getByRole('radio', { name: 'jsonl', exact: true }).check();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('tasks-jsonl.jsonl');
    const records = (await readFile((await download.path()) ?? '', 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; label: string });
    const completed = await call<{ tasks: { id: string; result: string }[] }>(url, 'GET', '/tasks?status=COMPLETED', token);
    expect(records.map((r) => r.id).sort()).toEqual(completed.body.tasks.map((t) => t.id).sort());
    expect(records.find((r) => r.id === france.id)?.label).toBe('yes');

    // Split 0.8/0.1/0.1, so few tasks leave the validation file empty: the page says so before the
    // download, and after it from the service's own count.
    await page.getByRole('radio', { name: 'Train, validation and test' }).check();
    const n = completed.body.tasks.length;
    await expect
      .poll(() => page.getByRole('region', { name: 'Expected size' }).innerText())
      .toMatch(new RegExp(`val(?: and test)? will be empty: ${n} tasks? at 0\\.8/0\\.1/0\\.1 gives? train \\d, val 0, test \\d`));
    const splitDownloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    expect((await splitDownloading).suggestedFilename()).toBe('tasks-jsonl.zip');
    await expect.poll(() => page.locator('.notice', { hasText: 'Saved' }).innerText()).toMatch(/val=0.*Empty in this ZIP: val/);

    // A webhook: its secret made in the browser and shown once; a delivery appears in its log.
    await nav('Webhooks');
    await page.getByRole('button', { name: 'New webhook' }).click();
    const newWebhook = page.getByRole('dialog', { name: 'New webhook' });
    await newWebhook.getByLabel('Endpoint URL').fill(receiver.url);
    // A pasted whsec_ secret is held to the service's rule before anything is sent.
    await newWebhook.getByRole('radio', { name: 'Paste my own secret' }).check();
    await newWebhook.getByLabel('Your secret').fill('whsec_dG9vIHNob3J0IGEga2V5');
    await newWebhook.getByLabel('I have copied the secret').check();
    await newWebhook.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => newWebhook.innerText()).toContain('decodes to 15');
    await newWebhook.getByRole('radio', { name: 'Generate a secret' }).check();
    const firstSecret = await newWebhook.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    await newWebhook.getByRole('button', { name: 'Generate another' }).click();
    const secret = await newWebhook.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(secret).not.toBe(firstSecret);
    expect(await newWebhook.innerText()).toContain('Shown only now');
    // The spec's retry policy is the default.
    expect(await newWebhook.getByRole('radio', { name: 'One retry (spec)' }).isChecked()).toBe(true);
    await newWebhook.getByLabel('I have copied the secret').check();
    await newWebhook.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('link', { name: receiver.url }).click();
    await page.waitForURL(/\/webhooks\/.+/);
    // A new task completes: its event is delivered, signed with that secret, and shows in the log.
    const extra = await call<{ taskId: string }>(url, 'POST', '/tasks', token, {
      type: 'BINARY_CHOICE',
      content: 'Is water wet?',
      options: ['yes', 'no'],
      validationsNeeded: 2,
    });
    expect(extra.status).toBe(201);
    await annotateUntil(
      url,
      key,
      async () => (await statusOf(extra.body.taskId)).status === 'COMPLETED',
      (options) => options[0] ?? '',
      'second',
    );
    const log = page.getByRole('table', { name: 'Delivery log' });
    await expect.poll(() => log.innerText(), { timeout: 30_000 }).toContain('DELIVERED');
    expect(await log.innerText()).toContain('task.completed');
    const delivered = receiver.requests.at(-1);
    expect(delivered?.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', secret)
        .update(delivered?.rawBody ?? '')
        .digest('hex')}`,
    );
    // The Standard Webhooks signature, checked by the standardwebhooks package with the generated secret.
    expect(new Webhook(secret).verify(delivered?.rawBody ?? '', headersOf(delivered?.headers ?? {}))).toMatchObject({ event: 'task.completed' });
    const webhookId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    // Every delivery made so far has arrived before the test send is counted: one still queued (another
    // task's event, sent by the worker a moment later) would arrive during it.
    await expect
      .poll(
        async () => {
          const deliveries = await call<{ deliveries: Array<{ status: string }> }>(url, 'GET', `/webhooks/configs/${webhookId}/deliveries?limit=100`, token);
          const pending = deliveries.body.deliveries.filter((delivery) => delivery.status !== 'DELIVERED').length;
          return pending === 0 && receiver.requests.length >= deliveries.body.deliveries.length;
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    // Send a test event: the receiver gets a signed ping, and the page shows its status (not its body: it
    // answered from a private address, which only development allows).
    const received = receiver.requests.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const testResult = page.getByRole('status', { name: 'Test result' });
    await expect.poll(() => testResult.innerText(), { timeout: 15_000 }).toContain('Delivered');
    expect(await testResult.innerText()).toMatch(/Status code\s+200/);
    expect(await testResult.innerText()).toContain('The response body is not shown');
    expect(receiver.requests).toHaveLength(received + 1);
    const ping = receiver.requests.at(-1);
    expect(new Webhook(secret).verify(ping?.rawBody ?? '', headersOf(ping?.headers ?? {}))).toMatchObject({ event: 'ping', webhookId });
    expect(await testResult.innerText()).toContain(String(ping?.headers['webhook-id']));
    await expect.poll(() => log.innerText(), { timeout: 15_000 }).toContain('ping');

    // Rotate the secret: a new one made in the dialog, shown once; then the overlap's end is shown, and
    // deliveries carry signatures under both secrets.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotateDialog = page.getByRole('dialog', { name: 'Rotate secret' });
    expect(await rotateDialog.innerText()).toContain('24 hours');
    const newSecret = await rotateDialog.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(secret);
    await rotateDialog.getByLabel('I have copied the secret').check();
    await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => rotateDialog.innerText()).toContain('Secret rotated');
    const rotated = await call<{ rotationEndsAt: string }>(url, 'GET', `/webhooks/configs/${webhookId}`, token);
    const overlapHours = (Date.parse(rotated.body.rotationEndsAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    const endsAtWords = (await rotateDialog.innerText()).match(/Until (.+ UTC)/)?.[1];
    expect(endsAtWords).toBeDefined();
    await rotateDialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Secret' }).innerText()).toContain(`Rotation in progress: until ${endsAtWords}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(received + 2);
    const afterRotation = receiver.requests.at(-1);
    const signatures = String(afterRotation?.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const key of [newSecret, secret]) {
      expect(new Webhook(key).verify(afterRotation?.rawBody ?? '', headersOf(afterRotation?.headers ?? {}))).toMatchObject({ event: 'ping' });
    }
    expect(afterRotation?.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', newSecret)
        .update(afterRotation?.rawBody ?? '')
        .digest('hex')}`,
    );

    // The retry policy is shown and changed in the settings.
    const settings = page.getByRole('form', { name: 'Webhook settings' });
    await settings.getByRole('radio', { name: 'Extended (8 attempts)' }).check();
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => settings.innerText()).toContain('Changes saved');
    expect((await call<{ retryPolicy: string }>(url, 'GET', `/webhooks/configs/${webhookId}`, token)).body.retryPolicy).toBe('extended');

    // Concord disabled it after 3 days of failures (written as the delivery worker writes it): the page
    // says when and why, and turns it back on.
    expect(await disableWebhooks(server.databaseUrl, receiver.url)).toEqual([webhookId]);
    await page.reload();
    const disabled = page.getByRole('region', { name: 'Disabled by Concord' });
    await expect.poll(() => disabled.innerText(), { timeout: 15_000 }).toContain(DISABLED_REASON);
    expect(await page.locator('.page-header .badge').innerText()).toBe('Disabled');
    await disabled.getByRole('button', { name: 'Re-enable webhook' }).click();
    await expect.poll(() => page.locator('.page-header .badge').innerText()).toBe('Active');
    expect(await disabled.count()).toBe(0);
    const enabled = await call<{ isActive: boolean; disabledAt: string | null; disabledReason: string | null }>(
      url,
      'GET',
      `/webhooks/configs/${webhookId}`,
      token,
    );
    expect(enabled.body).toMatchObject({ isActive: true, disabledAt: null, disabledReason: null });

    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();

    function headersOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
      return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
    }

    async function buyerToken(base: string): Promise<string> {
      const login = await call<{ token: string }>(base, 'POST', '/auth/login', undefined, { email: 'journey@example.test', password: 'journey password' });
      return login.body.token;
    }
  });

  it('greets a new account with one way to start, and keeps a new API key on screen until it is copied', async () => {
    const { page, problems } = await openPage(browser);
    const account = { email: 'first-hour@example.test', password: 'first hour password' };
    expect((await call(server.url, 'POST', '/auth/register', undefined, { ...account, companyName: 'First Hour' })).status).toBe(201);
    await logIn(page, server.url, '/login', account);
    await settle(page);

    // $0.00 on a new account is a start, not a low balance: the steps, with a single Add credits.
    await page.getByRole('heading', { name: 'Get started in three steps' }).waitFor();
    expect(await page.getByText('Your balance is low').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add credits' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Create an API key' }).count()).toBe(1);

    // Escape before the key was copied keeps the dialog open and says why; once copied, Escape closes it.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('link', { name: 'Create an API key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Escape check');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Escape check is ready' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.innerText()).toContain('Copy the key first: it is shown only once.');
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => dialog.getByLabel('I have copied the API key').isChecked()).toBe(true);
    expect(await page.evaluate('navigator.clipboard.readText()')).toMatch(/^cnc_test_/);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);

    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  });
});
