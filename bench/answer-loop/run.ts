// bench/answer-loop: simulated annotators doing next → complete through HTTP against the real server.
import pg from 'pg';
import { ADMIN, api, benchDatabase, fundedBuyer, LoadClient, percentile, round, runBench, startServer } from '../lib.ts';

const ANNOTATORS = Number(process.env.BENCH_ANNOTATORS ?? 64);
const TASKS = 20_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const log = (message: string) => process.stderr.write(`[answers] ${message}\n`);

async function seedTasks(base: string, token: string): Promise<void> {
  for (let created = 0; created < TASKS; created += 1_000) {
    const tasks = Array.from({ length: 1_000 }, (_, i) => ({
      type: 'SENTIMENT_ANALYSIS',
      content: `Review ${created + i}: arrived on time, works as described.`,
      options: ['positive', 'negative', 'neutral'],
      validationsNeeded: 3,
    }));
    const res = await api(base, 'POST', '/tasks/batch', { tasks }, token);
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status}`);
  }
}

async function developerKey(base: string): Promise<string> {
  const admin = await api<{ token: string }>(base, 'POST', '/admin/login', ADMIN);
  const res = await api<{ developer: { apiKey: string } }>(
    base,
    'POST',
    '/admin/developers',
    { email: `bench-dev-${Date.now()}@concord.test`, appName: 'Bench app', appUrl: 'https://bench.example.test' },
    admin.body.token,
  );
  return res.body.developer.apiKey;
}

async function main() {
  const database = await benchDatabase('answers');
  const server = await startServer(database.url);
  try {
    const buyer = await fundedBuyer(server.url, 100_000_000);
    log(`seeding ${TASKS} tasks`);
    await seedTasks(server.url, buyer.token);
    const apiKey = await developerKey(server.url);
    const headers = { authorization: `Bearer ${apiKey}` };
    const client = new LoadClient(server.url, ANNOTATORS);
    const latencies: number[] = [];
    let answers = 0;
    let refused = 0;
    let errors = 0;
    const deadline = Date.now() + SECONDS * 1000;
    log(`${ANNOTATORS} annotators for ${SECONDS} s`);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: ANNOTATORS }, async (_, n) => {
        const annotatorId = `bench-annotator-${n}`;
        while (Date.now() < deadline) {
          let t = performance.now();
          const next = await client.request('GET', `/api/v1/sdk/tasks/next?annotatorId=${annotatorId}`, headers);
          latencies.push(performance.now() - t);
          if (next.status === 204) return;
          if (next.status !== 200) {
            errors += 1;
            continue;
          }
          const { task } = JSON.parse(next.text) as { task: { id: string; options: string[] } };
          // Most annotators agree; some answers are noise, as in a real crowd.
          const answer = Math.random() < 0.85 ? task.options[0] : task.options[1 + Math.floor(Math.random() * 2)];
          t = performance.now();
          const done = await client.request('POST', `/api/v1/sdk/tasks/${task.id}/complete`, headers, JSON.stringify({ annotatorId, answer, timeSpentMs: 1200 }));
          latencies.push(performance.now() - t);
          if (done.status === 201) answers += 1;
          else if (done.status === 409) refused += 1;
          else errors += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    client.close();
    log(`${answers} answers accepted, ${refused} refused with 409 (the task was decided meanwhile)`);
    if (errors > 0) log(`${errors} unexpected responses`);

    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const over = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM tasks t WHERE (SELECT count(*) FROM task_responses r WHERE r.task_id = t.id) > t.max_responses`,
    );
    const doubled = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT task_id FROM ledger_entries WHERE type = 'TASK_CHARGE' GROUP BY task_id HAVING count(*) > 1) d`,
    );
    const decided = await db.query<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM tasks GROUP BY status`);
    await db.end();
    log(`tasks by status: ${decided.rows.map((r) => `${r.status} ${r.n}`).join(', ')}`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'answers',
        answersPerSec: Math.round(answers / elapsed),
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        overAnswered: Number(over.rows[0]?.n ?? 0),
        doubleBilled: Number(doubled.rows[0]?.n ?? 0),
      })}\n`,
    );
  } finally {
    await server.stop();
    await database.stop();
  }
}

runBench(main);
