// The dashboard's budget, measured on this machine:
// - the app's JavaScript, gzipped (level 9), summed over every chunk the build emits (target ≤ 250 kB);
// - the overview interactive after navigation: from the navigation's start to the moment its figures are
//   on screen and no loading indicator is left, in a fresh tab with a signed-in session (target ≤ 1 s);
// - the tasks page for a buyer of 1 000 000 tasks: first page and next pages (it pages; the largest API
//   response it reads is reported, in rows), and the longest main-thread task while doing so.
// Each figure is measured here in the same run; none is compared with a floor, since no other code path
// does the same work. Prints one JSON line.
//   npm run bench:dashboard [-- --tasks 1000000 --runs 7]
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { launchBrowser, logIn } from '../../test/e2e/support/browser.ts';
import { benchDatabase, fundedBuyer, mustBe, percentile, round, runBench, startServer } from '../lib.ts';

const { values } = parseArgs({ options: { tasks: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '7' } } });
const TASKS = Number(values.tasks);
const RUNS = Number(values.runs);
// fundedBuyer registers with this password.
const PASSWORD = 'bench password';
const log = (message: string) => process.stderr.write(`[dashboard] ${message}\n`);

// In-page code as strings: this file is compiled for Node, where the page's globals do not exist.
/** The overview is interactive: its figures are rendered and no loading indicator is left in <main>. */
const OVERVIEW_READY = `Boolean(document.querySelector('main .stat-value')) && !document.querySelector('main .loading, main [aria-busy="true"]')`;
const WATCH_LONG_TASKS = `window.__longest = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask', buffered: true });`;

async function gzippedKb(dir: string, extension: string): Promise<number> {
  const files = (await readdir(dir)).filter((name) => name.endsWith(extension));
  let bytes = 0;
  for (const name of files) bytes += gzipSync(await readFile(path.join(dir, name)), { level: 9 }).length;
  return round(bytes / 1024, 1);
}

async function seedTasks(databaseUrl: string, buyerId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let start = 0; start < TASKS; start += 200_000) {
      // A month of history: mostly completed, some failed, the newest still open.
      await client.query(
        `INSERT INTO tasks (id, buyer_id, type, content, options, locale, max_cents, cost_cents, validations_needed, max_responses,
                            status, result, confidence, total_responses, validated_at, failed_at, created_at)
         SELECT 'cd' || lpad(g::text, 23, '0'), $1,
                (ARRAY['SENTIMENT_ANALYSIS','BINARY_CHOICE','RELEVANCE_RATING']::"TaskType"[])[1 + g % 3],
                'Item ' || g || ': the parcel arrived on time and the product works as described.',
                ARRAY['positive','negative','neutral'], 'en', 20, 20, 3, 6,
                (CASE WHEN g > $4 - 2000 THEN 'PENDING' WHEN g % 17 = 0 THEN 'FAILED' ELSE 'COMPLETED' END)::"TaskStatus",
                CASE WHEN g > $4 - 2000 OR g % 17 = 0 THEN NULL ELSE 'positive' END,
                CASE WHEN g > $4 - 2000 OR g % 17 = 0 THEN NULL ELSE 0.9 END,
                CASE WHEN g > $4 - 2000 THEN 0 ELSE 3 END,
                CASE WHEN g > $4 - 2000 OR g % 17 = 0 THEN NULL ELSE now() - ($4 - g) * interval '2 seconds' END,
                CASE WHEN g <= $4 - 2000 AND g % 17 = 0 THEN now() - ($4 - g) * interval '2 seconds' END,
                now() - ($4 - g) * interval '2 seconds' - interval '1 minute'
         FROM generate_series($2::bigint, $3::bigint) g`,
        [buyerId, start + 1, Math.min(start + 200_000, TASKS), TASKS],
      );
    }
    await client.query('VACUUM ANALYZE tasks');
  } finally {
    await client.end();
  }
}

async function main() {
  log('building the dashboard');
  const build = spawnSync(process.execPath, ['scripts/build-web.mjs', '--force', '--strict'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('dashboard build failed');
  const assets = path.resolve('web/dist/assets');
  const jsGzipKb = await gzippedKb(assets, '.js');
  const cssGzipKb = await gzippedKb(assets, '.css');

  const database = await benchDatabase('dashboard');
  const server = await startServer(database.url);
  const browser = await launchBrowser();
  try {
    const buyer = await fundedBuyer(server.url, 5_000_000);
    const me = await fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${buyer.token}` } }).then(
      (r) => r.json() as Promise<{ buyer: { email: string } }>,
    );
    log(`seeding ${TASKS} tasks`);
    await seedTasks(database.url, buyer.id);

    // bypassCSP: Playwright's waitForFunction evaluates its predicate, which the service's CSP forbids.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await logIn(page, server.url, '/login', { email: me.buyer.email, password: PASSWORD });

    // The overview, loaded afresh each run (the session stays in sessionStorage, as after a reload).
    const overview: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await page.goto(`${server.url}/`, { waitUntil: 'commit' });
      await page.waitForFunction(OVERVIEW_READY, undefined, { timeout: 30_000, polling: 'raf' });
      overview.push((await page.evaluate('performance.now()')) as number);
    }

    // The tasks page: its first page, then paging forward; every /tasks response's row count is recorded.
    const rowsPerResponse: number[] = [];
    page.on('response', async (response) => {
      const url = new URL(response.url());
      if (url.pathname === '/api/v1/tasks' && response.request().method() === 'GET') {
        const body = (await response.json().catch(() => null)) as { tasks?: unknown[] } | null;
        if (body?.tasks) rowsPerResponse.push(body.tasks.length);
      }
    });
    const firstPage: number[] = [];
    const nextPage: number[] = [];
    let longestTaskMs = 0;
    for (let run = 0; run < Math.min(RUNS, 5); run += 1) {
      await page.goto(`${server.url}/tasks`, { waitUntil: 'commit' });
      await page.evaluate(WATCH_LONG_TASKS);
      await page.locator('main table tbody tr').first().waitFor({ timeout: 30_000 });
      firstPage.push((await page.evaluate('performance.now()')) as number);
      for (let p = 0; p < 3; p += 1) {
        const before = await page.locator('main table tbody tr').first().innerText();
        const started = Date.now();
        await page.getByRole('button', { name: /Next/ }).click();
        await page.waitForFunction(`document.querySelector('main table tbody tr')?.innerText !== ${JSON.stringify(before)}`, undefined, { timeout: 30_000 });
        nextPage.push(Date.now() - started);
      }
      longestTaskMs = Math.max(longestTaskMs, (await page.evaluate('window.__longest')) as number);
    }
    await context.close();
    process.stdout.write(
      `${JSON.stringify({
        bench: 'dashboard',
        jsGzipKb,
        cssGzipKb,
        overviewInteractiveMsMedian: round(percentile(overview, 50), 0),
        overviewInteractiveMsMax: round(Math.max(...overview), 0),
        tasks: TASKS,
        tasksFirstPageMsMedian: round(percentile(firstPage, 50), 0),
        tasksNextPageMsMedian: round(percentile(nextPage, 50), 0),
        tasksNextPageMsMax: round(Math.max(...nextPage), 0),
        tasksRowsPerResponseMax: Math.max(...rowsPerResponse),
        longestMainThreadTaskMs: round(longestTaskMs, 0),
        consoleErrors: errors.length,
      })}\n`,
    );
    mustBe('consoleErrors', errors.length);
  } finally {
    await browser.close();
    await server.stop();
    await database.stop();
  }
}

runBench(main);
