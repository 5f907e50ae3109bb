// bench/ingest: how fast tasks get in. See bench/README.md for what each figure means.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { newId } from '../../src/lib/ids.ts';
import { api, benchDatabase, fundedBuyer, percentile, round, runBench, rssMb, startServer } from '../lib.ts';
import { batchBody, CONCURRENT_CLIENTS, sustainedIngest } from './sustained.ts';

const TIMED_RUNS = 20;
const SUSTAINED_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const LARGE_LIST = Number(process.env.BENCH_LARGE_LIST ?? 1_000_000);

const log = (message: string) => process.stderr.write(`[ingest] ${message}\n`);

async function timeIt(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** (a) one 1 000-task batch over HTTP, against the same rows in one multi-row INSERT through pg. */
async function batchVersusFloor(base: string, token: string, buyerId: string, databaseUrl: string) {
  const post = async () => {
    const res = await api(base, 'POST', '/tasks/batch', batchBody(randomUUID()), token);
    if (res.status !== 201) throw new Error(`batch failed: ${res.status} ${JSON.stringify(res.body)}`);
  };
  for (let i = 0; i < 3; i++) await post();
  const batchTimes: number[] = [];
  for (let i = 0; i < TIMED_RUNS; i++) batchTimes.push(await timeIt(post));

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const insert = async () => {
    const { tasks } = batchBody(randomUUID());
    const values: unknown[] = [];
    const rows = tasks.map((task, i) => {
      values.push(newId(), buyerId, task.type, task.content, task.options, 'en', 20, 20, 3, 6);
      const p = i * 10;
      return `($${p + 1}, $${p + 2}, $${p + 3}::"TaskType", $${p + 4}, $${p + 5}::text[], $${p + 6}, $${p + 7}, $${p + 8}, $${p + 9}, $${p + 10})`;
    });
    await client.query(
      `INSERT INTO tasks (id, buyer_id, type, content, options, locale, max_cents, cost_cents, validations_needed, max_responses) VALUES ${rows.join(',')}`,
      values,
    );
  };
  for (let i = 0; i < 3; i++) await insert();
  const floorTimes: number[] = [];
  for (let i = 0; i < TIMED_RUNS; i++) floorTimes.push(await timeIt(insert));
  await client.end();
  return { batchMedianMs: percentile(batchTimes, 50), floorMedianMs: percentile(floorTimes, 50) };
}

/** (c) a CSV just under 5 MB: wall time and the server's peak RSS growth. */
async function csvImport(base: string, token: string, pid: number) {
  const header = 'type,content,options,locale,maxCents\n';
  const lines: string[] = [header];
  let size = header.length;
  for (let i = 0; size < 5 * 1024 * 1024 - 300; i++) {
    const line = `SENTIMENT_ANALYSIS,"Row ${i}: ""quoted"" text, with a comma and some more words to fill the line",positive|negative|neutral,en,20\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  const csv = lines.join('');
  const rows = lines.length - 1;
  const baseline = await rssMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    rssMb(pid).then(
      (mb) => (peak = Math.max(peak, mb)),
      () => undefined,
    );
  }, 5);
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'tasks.csv');
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/tasks/batch/csv`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { created: number };
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (res.status !== 201 || body.created !== rows) throw new Error(`csv import failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  log(`csv: ${rows} rows, ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(2)} MB`);
  return { csvSeconds: seconds, csvRssGrowthMb: peak - baseline };
}

/** Writes `count` tasks for a buyer straight into the table, one millisecond apart. */
async function seedTasks(databaseUrl: string, buyerId: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Ids keep the cuid shape ('c' + 24 base-36 characters): a 4-character prefix per call, then the row number.
  const prefix = newId().slice(-4);
  try {
    const chunk = 200_000;
    for (let start = 0; start < count; start += chunk) {
      await client.query(
        `INSERT INTO tasks (id, buyer_id, type, content, options, locale, max_cents, cost_cents, validations_needed, max_responses, created_at)
         SELECT 'c' || $4 || lpad(g::text, 20, '0'), $1, 'BINARY_CHOICE', 'seeded task ' || g, ARRAY['yes','no'], 'en', 20, 20, 3, 6,
                now() - g * interval '1 millisecond'
         FROM generate_series($2::bigint, $3::bigint) AS g`,
        [buyerId, start + 1, Math.min(start + chunk, count), prefix],
      );
    }
    await client.query('ANALYZE tasks');
  } finally {
    await client.end();
  }
}

/** (d) p50 of GET /tasks?limit=100 starting half-way down the buyer's list. */
async function deepListP50(base: string, token: string, databaseUrl: string, buyerId: string, count: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const middle = await client
    .query<{ created_at: Date; id: string }>('SELECT created_at, id FROM tasks WHERE buyer_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1', [
      buyerId,
      Math.floor(count / 2),
    ])
    .finally(() => client.end());
  const row = middle.rows[0];
  if (!row) throw new Error('no middle row');
  const cursor = Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');
  const times: number[] = [];
  for (let i = 0; i < 120; i++) {
    const elapsed = await timeIt(async () => {
      const res = await api<{ tasks: unknown[] }>(base, 'GET', `/tasks?limit=100&cursor=${cursor}`, undefined, token);
      if (res.status !== 200 || res.body.tasks.length !== 100) throw new Error(`list failed: ${res.status}`);
    });
    if (i >= 20) times.push(elapsed);
  }
  return percentile(times, 50);
}

async function main() {
  const database = await benchDatabase('ingest');
  const server = await startServer(database.url);
  try {
    const buyer = await fundedBuyer(server.url, 1_000_000_000);
    log('(a) batch versus floor');
    const a = await batchVersusFloor(server.url, buyer.token, buyer.id, database.url);
    log(`(b) ${CONCURRENT_CLIENTS} clients for ${SUSTAINED_SECONDS} s`);
    const sustainedTasksPerSec = await sustainedIngest(server.url, buyer.token, SUSTAINED_SECONDS, log);
    log('(c) 5 MB CSV');
    const c = await csvImport(server.url, (await fundedBuyer(server.url, 10_000_000)).token, server.pid);
    log('(d) deep list at 10 k and at 1 M');
    const small = await fundedBuyer(server.url, 100);
    await seedTasks(database.url, small.id, 10_000);
    const listP50Ms10k = await deepListP50(server.url, small.token, database.url, small.id, 10_000);
    const large = await fundedBuyer(server.url, 100);
    await seedTasks(database.url, large.id, LARGE_LIST);
    const listP50Ms1M = await deepListP50(server.url, large.token, database.url, large.id, LARGE_LIST);
    const result = {
      bench: 'ingest',
      batchMedianMs: round(a.batchMedianMs),
      floorMedianMs: round(a.floorMedianMs),
      ratio: round(a.batchMedianMs / a.floorMedianMs),
      sustainedTasksPerSec: Math.round(sustainedTasksPerSec),
      csvSeconds: round(c.csvSeconds),
      csvRssGrowthMb: round(c.csvRssGrowthMb, 1),
      listP50Ms10k: round(listP50Ms10k),
      listP50Ms1M: round(listP50Ms1M),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await server.stop();
    await database.stop();
  }
}

runBench(main);
