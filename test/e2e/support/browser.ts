// Debian's Chromium driven by playwright-core (no browser download), with the flags this machine needs,
// and a page that records console errors and uncaught exceptions so a test can assert there were none.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  problems: string[];
}

export async function openPage(browser: Browser, viewport = DESKTOP): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  trackRequests(page);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page (evaluated through the driver, so the page's CSP stays as it is). */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  // A string, not a function: this file is compiled for Node, where the page's globals do not exist.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Problems a page should never have. The browser itself logs every 4xx answer as "Failed to load
 * resource"; those are the API's answers to what a test does on purpose, shown in words by the page.
 */
export function unexpectedProblems(problems: string[]): string[] {
  return problems.filter((problem) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(problem));
}

/** Logs in through the page at `loginPath` (/login or /admin/login) and waits to leave it. */
export async function logIn(page: Page, url: string, loginPath: string, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${url}${loginPath}`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((target) => !target.pathname.endsWith('/login'));
}

/**
 * Makes the logged-in person act for `organisation` through the header's picker (a person invited there
 * also has an organisation of their own) and waits until the header names it.
 */
export async function actFor(page: Page, organisation: string): Promise<void> {
  const picker = page.getByRole('button', { name: /Switch organisation/ });
  await picker.waitFor();
  if (!(await picker.innerText()).includes(organisation)) {
    await picker.click();
    await page.locator('.org-menu-item', { hasText: organisation }).click();
  }
  await page.getByRole('button', { name: new RegExp(`^Organisation: ${organisation} `) }).waitFor();
}

/** A request a page holds open for as long as it is shown: the buyer's event stream. */
const longLived = (url: string) => new URL(url).pathname === '/api/v1/events/stream';
const inFlight = new WeakMap<Page, Set<Request>>();

/** The page's requests in flight (but the event stream), counted from the first call (openPage makes it). */
export function trackRequests(page: Page): Set<Request> {
  const known = inFlight.get(page);
  if (known) return known;
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (request) => {
    if (!longLived(request.url())) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return open;
}

/**
 * Waits for the page's requests to end — no request in flight for 500 ms, like Playwright's
 * 'networkidle', which never comes on the buyer's pages: their event stream stays open — and for no
 * loading indicator to be left in <main>.
 */
export async function settle(page: Page, timeoutMs = 15_000): Promise<void> {
  const open = trackRequests(page);
  await page.waitForLoadState('load');
  const deadline = Date.now() + timeoutMs;
  for (let quietSince = Date.now(); Date.now() - quietSince < 500; await page.waitForTimeout(50)) {
    if (open.size > 0) quietSince = Date.now();
    if (Date.now() > deadline) throw new Error(`the page still had ${open.size} requests in flight after ${timeoutMs} ms`);
  }
  await page.locator('main .loading').first().waitFor({ state: 'detached', timeout: timeoutMs });
}
