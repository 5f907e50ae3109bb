// The whole re-fit job at the scale it must handle (10 M answers on 1 M tasks, one scope): the service's own
// QualityService.refitScope — snapshot read through a cursor, EM in a worker thread, batched write-back —
// timed step by step, with the process's peak RSS, the event loop's worst delay, and the answer path
// simulated meanwhile (a counts row incremented every 20 ms, as a decided task does), whose latency and
// survival show that answers keep flowing. refit-scale.ts measures the EM alone.
// Usage: npm run bench:refit [-- --answers N --tasks N --annotators N --options K]
// The database is concord_bench_refit on DATABASE_URL's server (else an embedded one), dropped at the end
// (`--keep`: kept, to look into with psql).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { createLogger } from '../../src/lib/logger.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { QualityRepository } from '../../src/modules/quality/quality.repository.ts';
import { QualityService } from '../../src/modules/quality/quality.service.ts';
import { benchDatabase, mustBe, runBench, wholeNumberArgument } from '../lib.ts';

const mb = (bytes: number) => Math.round(bytes / 1_048_576);
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const log = (message: string) => process.stderr.write(`${new Date().toISOString()} ${message}\n`);

const BUYER = 'bench-buyer';
const PROJECT = 'bench-project';
const TASKS_PER_STATEMENT = 100_000;

/**
 * One project scope seeded in SQL (generate_series, no row crosses the wire). Annotator a's kind is a hash
 * of a mod 10: good (right 85 %) below 5, weak (60 %) below 8, biased to option 0 at 8 and a spammer at 9,
 * the shares of refit-scale.ts; task t's truth is a hash of t, its answerers R annotators spread over all
 * of them (a hash, so that one task's answerers are of mixed kinds).
 * Nine tasks in ten are decided (COMPLETED, with the truth as result) and counted; the counts rows hold
 * each annotator's (truth, answer) counts on them, standing in for what the answer path would have added.
 */
async function seed(db: pg.Client, size: { answers: number; tasks: number; annotators: number; options: string[] }): Promise<string> {
  const K = size.options.length;
  const R = size.answers / size.tasks;
  if (!Number.isInteger(R) || R > size.annotators) throw new Error('--answers must be a whole multiple of --tasks, at most --annotators per task');
  // A scratch database whose rows are consistent by construction: the foreign-key triggers are skipped.
  await db.query(`SET session_replication_role = replica`);
  await db.query(`SET synchronous_commit = off`);
  await db.query(`INSERT INTO accounts (id, email, role) VALUES ($1, 'buyer@bench.test', 'BUYER'), ('bench-dev', 'dev@bench.test', 'DEVELOPER')`, [BUYER]);
  await db.query(`INSERT INTO buyers (id, company_name) VALUES ($1, 'Bench')`, [BUYER]);
  await db.query(`INSERT INTO developers (id, app_name, app_url, api_key_hash) VALUES ('bench-dev', 'Bench', 'https://bench.test', 'bench')`);
  await db.query(`INSERT INTO projects (id, buyer_id, name) VALUES ($1, $2, 'Bench')`, [PROJECT, BUYER]);
  const { rows } = await db.query<{ key: string }>(
    `INSERT INTO label_scopes (key, buyer_id, project_id, options) VALUES (label_scope_key($1, $2, $3), $2, $1, label_scope_options($3)) RETURNING key`,
    [PROJECT, BUYER, size.options],
  );
  const key = rows[0]?.key ?? '';
  await db.query(
    `INSERT INTO annotators (id, developer_id, external_id) SELECT 'a' || lpad(g::text, 7, '0'), 'bench-dev', 'a' || g FROM generate_series(0, $1 - 1) g`,
    [size.annotators],
  );
  const truth = (task: string) => `((hashint4(${task})::bigint + 2147483648) % ${K})::int`;
  for (let from = 0; from < size.tasks; from += TASKS_PER_STATEMENT) {
    const to = Math.min(size.tasks, from + TASKS_PER_STATEMENT) - 1;
    await db.query(
      `INSERT INTO tasks (id, buyer_id, project_id, type, content, options, max_cents, cost_cents, validations_needed, max_responses, status, total_responses, result)
       SELECT 't' || lpad(g::text, 8, '0'), $3, $4, 'IMAGE_CLASSIFICATION', 'bench', $5::text[], 2, 2, 3, 50,
              (CASE WHEN g % 10 = 9 THEN 'VALIDATING' ELSE 'COMPLETED' END)::"TaskStatus", $6,
              CASE WHEN g % 10 = 9 THEN NULL ELSE ($5::text[])[1 + ${truth('g')}] END
       FROM generate_series($1::int, $2::int) g`,
      [from, to, BUYER, PROJECT, size.options, R],
    );
    await db.query(
      `INSERT INTO task_responses (id, task_id, annotator_id, answer, time_spent_ms)
       SELECT 'r' || (t * $3::bigint + k), 't' || lpad(t::text, 8, '0'), 'a' || lpad(x.a::text, 7, '0'), ($5::text[])[1 + y.answer], 1500
       FROM generate_series($1::int, $2::int) t
       CROSS JOIN generate_series(0, $3 - 1) k
       CROSS JOIN LATERAL (SELECT (t::bigint * 7919 + k * ($4 / $3)) % $4 AS a, ${truth('t')} AS truth, random() AS u, random() AS v, random() AS w) x
       CROSS JOIN LATERAL (SELECT ((hashint4(x.a::int)::bigint + 2147483648) % 10)::int AS kind) z
       CROSS JOIN LATERAL (SELECT CASE
           WHEN z.kind < 5 THEN CASE WHEN x.u < 0.85 THEN x.truth ELSE (x.truth + 1 + floor(x.v * ($6 - 1))::int) % $6 END
           WHEN z.kind < 8 THEN CASE WHEN x.u < 0.6 THEN x.truth ELSE (x.truth + 1 + floor(x.v * ($6 - 1))::int) % $6 END
           WHEN z.kind = 8 THEN CASE WHEN x.w < 0.5 THEN 0 WHEN x.u < 0.7 THEN x.truth ELSE (x.truth + 1 + floor(x.v * ($6 - 1))::int) % $6 END
           ELSE floor(x.u * $6)::int END AS answer) y`,
      [from, to, R, size.annotators, size.options, K],
    );
    log(`seeded tasks ${from}–${to}`);
  }
  await db.query(
    `INSERT INTO annotator_scope_counts (scope_key, annotator_id, matrix, correct, answered)
     SELECT $1, a.annotator_id, array_agg(coalesce(c.n, 0) ORDER BY cell.i), coalesce(sum(c.n) FILTER (WHERE cell.i % ($2::int + 1) = 0), 0), coalesce(sum(c.n), 0)
     FROM (SELECT DISTINCT annotator_id FROM task_responses) a
     CROSS JOIN generate_series(0, $2::int * $2::int - 1) AS cell(i)
     LEFT JOIN (
       SELECT r.annotator_id, ${truth(`substr(r.task_id, 2)::int`)} * $2::int + array_position(label_scope_options($3::text[]), r.answer) - 1 AS i, count(*)::float8 AS n
       FROM task_responses r JOIN tasks t ON t.id = r.task_id WHERE t.status = 'COMPLETED' GROUP BY 1, 2
     ) c ON c.annotator_id = a.annotator_id AND c.i = cell.i
     GROUP BY a.annotator_id`,
    [key, K, size.options],
  );
  await db.query(`SET session_replication_role = origin`);
  await db.query('VACUUM ANALYZE');
  // The seed's gigabytes flushed now rather than by a checkpoint in the middle of the measurement.
  await db.query('CHECKPOINT');
  return key;
}

/** The answer path meanwhile: every 20 ms a decided task adds one answer to one counts row. */
function simulateAnswers(pool: pg.Pool, key: string, K: number) {
  let stopped = false;
  const latencies: number[] = [];
  const increment = Array.from({ length: K * K }, (_, c) => (c === 0 ? 1 : 0));
  const running = (async () => {
    // The first one after the re-fit's snapshot (taken within milliseconds of its start), so every
    // increment is one the write must keep.
    await new Promise((resolve) => setTimeout(resolve, 200));
    while (!stopped) {
      const started = performance.now();
      await pool.query(
        `UPDATE annotator_scope_counts SET matrix = label_counts_add(matrix, $3::float8[]), correct = correct + 1, answered = answered + 1 WHERE scope_key = $1 AND annotator_id = $2`,
        [key, `a${String(latencies.length % 100).padStart(7, '0')}`, increment],
      );
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      const sorted = latencies.toSorted((a, b) => a - b);
      const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
      return { updates: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
    },
  };
}

async function main() {
  const answers = wholeNumberArgument('answers', 10_000_000);
  const tasks = wholeNumberArgument('tasks', 1_000_000);
  const annotators = wholeNumberArgument('annotators', 20_000);
  const options = Array.from({ length: wholeNumberArgument('options', 4) }, (_, k) => `option-${k}`);
  const database = await benchDatabase('refit');
  const db = new pg.Client({ connectionString: database.url });
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    await db.connect();
    const seedStarted = performance.now();
    const key = await seed(db, { answers, tasks, annotators, options });
    const seedMs = performance.now() - seedStarted;
    log(`seeded in ${seconds(seedMs)} s; re-fitting`);
    const quality = new QualityService(new QualityRepository(pool), systemClock, createLogger('info'));
    const sumAnswered = async () =>
      (await pool.query<{ n: number }>(`SELECT sum(answered)::float8 AS n FROM annotator_scope_counts WHERE scope_key = $1`, [key])).rows[0]?.n ?? 0;
    // The same increments for 5 s with no re-fit running: what their latency is without one.
    const idle = simulateAnswers(pool, key, options.length);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const baseline = await idle.stop();
    const rssBefore = process.memoryUsage().rss;
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const answerPath = simulateAnswers(pool, key, options.length);
    const outcome = await quality.refitScope(key);
    const concurrent = await answerPath.stop();
    loopDelay.disable();
    if (outcome.kind !== 'refitted') throw new Error(`the re-fit did not run: ${outcome.kind}`);
    // Σ answered after = the fit's counted answers + every increment made while it ran (none lost).
    const incrementsKept = (await sumAnswered()) === outcome.countedAnswers + concurrent.updates;
    process.stdout.write(
      `${JSON.stringify({
        bench: 'refit-job',
        answers,
        tasks,
        annotators,
        options: options.length,
        seedSeconds: seconds(seedMs),
        seconds: seconds(outcome.ms),
        readSeconds: seconds(outcome.readMs),
        fitSeconds: seconds(outcome.fitMs),
        writeSeconds: seconds(outcome.writeMs),
        iterations: outcome.iterations,
        countedAnswers: outcome.countedAnswers,
        rssBeforeMb: mb(rssBefore),
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        eventLoopMaxDelayMs: Math.round(loopDelay.max / 1e6),
        concurrentUpdates: concurrent.updates,
        concurrentUpdateMs: { p50: concurrent.p50Ms, p99: concurrent.p99Ms, max: concurrent.maxMs },
        idleUpdateMs: { p50: baseline.p50Ms, p99: baseline.p99Ms, max: baseline.maxMs },
        incrementsKept,
      })}\n`,
    );
    mustBe('incrementsKept', incrementsKept, true);
  } finally {
    await db.end();
    await pool.end();
    if (!process.argv.includes('--keep')) await database.stop();
  }
}

runBench(main);
