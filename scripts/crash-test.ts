// Crash safety as a test: the server runs under answer, ingest, deposit and webhook
// load, is killed with SIGKILL at random moments several times and restarted, and then every invariant
// is checked against the database and what clients were told:
//   - each buyer's balance equals the sum of its ledger, and its reservations the open (not held) tasks' budgets;
//   - no spending cap (the first buyer's monthly cap, the second's holding project cap) is passed by a cent;
//   - each annotator's earnings equal the sum of its EARNING rows;
//   - no task has more answers than its maxResponses, or a counter that disagrees with its answers;
//   - a COMPLETED task is charged exactly once and has one task.completed event; others are not charged;
//   - every task and answer a client got a 2xx for exists; every paid deposit is credited exactly once;
//   - every event has a delivery per subscribed configuration, each DELIVERED and received at least once.
// Usage: npm run test:crash [-- --kills N --seed S [--plant-violation]]. Prints one JSON line; exits 1 when an
// invariant broke.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ADMIN, api, benchDatabase, startServer, type BenchServer } from '../bench/lib.ts';
import { freePort } from '../test/helpers/ports.ts';

const { values: args } = parseArgs({
  options: { kills: { type: 'string', default: '5' }, seed: { type: 'string' }, 'plant-violation': { type: 'boolean', default: false } },
});
const KILLS = Number(args.kills);
let seed = Number(args.seed ?? Date.now() % 100_000);
// CI's canary: one real, committed violation (a buyer's balance a cent off its ledger) planted after the
// run, so that a run whose check or exit code lies fails CI instead of passing it.
const PLANT_VIOLATION = args['plant-violation'];
const SEED = seed;
/** Deterministic randomness for the kill schedule and the answers (mulberry32). */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => process.stderr.write(`[crash] ${message}\n`);

const ANNOTATORS = 6;
const BUYERS = 2;
const BATCH = 40;
/** The caps the ingest runs into, even in CI's shorter run: ten batches' budgets (the first buyer's month, the second's project). */
const CAP_CENTS = 10 * BATCH * 20;

interface Acknowledged {
  tasks: Set<string>;
  answers: Set<string>;
  paidDeposits: Set<string>;
  /** Tasks whose result a 200 of POST /tasks/:id/reject acknowledged rejecting. */
  rejections: Set<string>;
}

/** Webhook receiver: answers 200 and remembers every delivery id it saw. */
async function startReceiver() {
  const deliveries = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.add(String(req.headers['x-service-delivery']));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries, close: () => server.close() };
}

/** Sends a request until some server answers it (the server may be down between a kill and a restart). */
async function untilAnswered<T>(attempt: () => Promise<T>, running: () => boolean): Promise<T | undefined> {
  while (running()) {
    try {
      return await attempt();
    } catch {
      await sleep(100);
    }
  }
  return undefined;
}

async function main() {
  const database = await benchDatabase('crash');
  const receiver = await startReceiver();
  const port = await freePort();
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_DELAY_MS: '500', WEBHOOK_TIMEOUT_MS: '2000', PUBLIC_URL: `http://127.0.0.1:${port}` };
  const start = () => startServer(database.url, env, { port });
  let server: BenchServer = await start();
  const base = server.url;
  const acknowledged: Acknowledged = { tasks: new Set(), answers: new Set(), paidDeposits: new Set(), rejections: new Set() };
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // Setup through the API: buyers with a webhook each, a developer whose app answers.
    const admin = await api<{ token: string }>(base, 'POST', '/admin/login', ADMIN);
    const buyers: Array<{ id: string; token: string; projectId?: string }> = [];
    for (let i = 0; i < BUYERS; i++) {
      const email = `crash-${randomUUID()}@concord.test`;
      const reg = await api<{ token: string; buyer: { id: string } }>(base, 'POST', '/auth/register', {
        email,
        password: 'crash password',
        companyName: 'Crash',
      });
      await api(base, 'POST', `/admin/buyers/${reg.body.buyer.id}/credits`, { amountCents: 2_000, reason: 'crash test' }, admin.body.token);
      const hook = await api(
        base,
        'POST',
        '/webhooks/configs',
        { url: receiver.url, events: ['task.completed', 'task.failed', 'budget.low'], secret: 'crash-test-secret-0123' },
        reg.body.token,
      );
      if (hook.status !== 201) throw new Error(`webhook config: ${JSON.stringify(hook.body)}`);
      let projectId: string | undefined;
      if (i === 0) {
        const capped = await api(base, 'PUT', '/billing/caps/monthly', { capCents: CAP_CENTS }, reg.body.token);
        if (capped.status !== 200) throw new Error(`monthly cap: ${JSON.stringify(capped.body)}`);
      } else {
        const project = await api<{ id: string }>(base, 'POST', '/projects', { name: 'Capped' }, reg.body.token);
        projectId = project.body.id;
        // Past its cap, the project holds new tasks (neither reserved nor served) rather than refusing them.
        const capped = await api(base, 'PUT', `/projects/${projectId}/budget-cap`, { capCents: CAP_CENTS, capAction: 'hold' }, reg.body.token);
        if (capped.status !== 200) throw new Error(`project cap: ${JSON.stringify(capped.body)}`);
      }
      buyers.push({ id: reg.body.buyer.id, token: reg.body.token, projectId });
    }
    const developer = await api<{ developer: { apiKey: string } }>(
      base,
      'POST',
      '/admin/developers',
      { email: `crash-dev-${randomUUID()}@concord.test`, appName: 'Crash', appUrl: 'https://crash.test' },
      admin.body.token,
    );
    const apiKey = developer.body.developer.apiKey;

    let running = true;
    const isRunning = () => running;
    const json = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      }).then(async (res) => ({ status: res.status, body: (res.status === 204 ? undefined : await res.json()) as Record<string, unknown> }));

    // Ingest: batches with Idempotency-Keys, retried with the same key until a server answers.
    const ingest = buyers.map(async (buyer, b) => {
      for (let n = 0; running; n++) {
        const key = `crash-${b}-${n}`;
        // Every third batch has deadlines (which the time warp below brings forward) and priorities.
        const scheduled = n % 3 === 0 ? { deadline: new Date(Date.now() + 10 * 60_000).toISOString() } : {};
        const tasks = Array.from({ length: BATCH }, (_, i) => ({
          type: 'SENTIMENT_ANALYSIS',
          content: `item ${b}-${n}-${i}`,
          options: ['positive', 'negative'],
          maxCents: 20,
          validationsNeeded: 2,
          ...(buyer.projectId ? { projectId: buyer.projectId } : {}),
          ...scheduled,
          ...(n % 3 === 0 ? { priority: (i % 7) - 3 } : {}),
        }));
        const res = await untilAnswered(() => json('POST', '/api/v1/tasks/batch', buyer.token, { tasks }, { 'idempotency-key': key }), isRunning);
        if (res?.status === 201) for (const task of res.body.tasks as Array<{ taskId: string }>) acknowledged.tasks.add(task.taskId);
        else if (res && res.status !== 402) throw new Error(`batch answered ${res.status}: ${JSON.stringify(res.body)}`);
        await sleep(res?.status === 402 ? 500 : 150);
      }
    });
    // Deposits paid through the sandbox checkout, which confirms through the provider webhook route.
    const deposits = buyers.map(async (buyer) => {
      while (running) {
        const created = await untilAnswered(() => json('POST', '/api/v1/billing/deposits', buyer.token, { amountCents: 1_000, method: 'card' }), isRunning);
        if (created?.status === 201) {
          const checkoutUrl = String(created.body.checkoutUrl);
          const paid = await untilAnswered(
            () => fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual', signal: AbortSignal.timeout(10_000) }),
            isRunning,
          );
          if (paid && paid.status < 400) acknowledged.paidDeposits.add(String(created.body.id));
        }
        await sleep(400);
      }
    });
    // Annotators: next, then an answer (mostly "positive", so most tasks complete and some fail).
    const answering = Array.from({ length: ANNOTATORS }, async (_, a) => {
      const annotatorId = `crash-annotator-${a}`;
      while (running) {
        const next = await untilAnswered(() => json('GET', `/api/v1/sdk/tasks/next?annotatorId=${annotatorId}`, apiKey), isRunning);
        if (next?.status !== 200) {
          await sleep(100);
          continue;
        }
        const task = next.body.task as { id: string };
        const answer = random() < 0.8 ? 'positive' : 'negative';
        const done = await untilAnswered(
          () => json('POST', `/api/v1/sdk/tasks/${task.id}/complete`, apiKey, { annotatorId, answer, timeSpentMs: 1000 }),
          isRunning,
        );
        if (done?.status === 201) acknowledged.answers.add(`${task.id}:${annotatorId}`);
      }
    });

    // Result review: now and then a buyer rejects one of its completed results (refund, reservation, earnings
    // taken back, the task decided again), racing the answers, the expiry job and the kills.
    const reviews = buyers.map(async (buyer) => {
      while (running) {
        await sleep(600 + random() * 600);
        const { rows } = await db
          .query<{ id: string }>(`SELECT id FROM tasks WHERE buyer_id = $1 AND status = 'COMPLETED' AND revision = 1 ORDER BY random() LIMIT 1`, [buyer.id])
          .catch(() => ({ rows: [] as Array<{ id: string }> }));
        const id = rows[0]?.id;
        if (!id) continue;
        const res = await untilAnswered(() => json('POST', `/api/v1/tasks/${id}/reject`, buyer.token, { reason: 'crash test' }), isRunning);
        if (res?.status === 200) acknowledged.rejections.add(id);
        else if (res && res.status !== 402 && res.status !== 409) throw new Error(`reject answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
    });

    // The time warp: the API takes deadlines at least a minute ahead, longer than a life lasts here; so a
    // few open tasks at a time have theirs brought forward to within two seconds, and the servers' expiry job
    // ends them while answers, decisions and kills go on.
    const warp = (async () => {
      while (running) {
        await db
          .query(
            `UPDATE tasks SET deadline = now() + random() * interval '2 seconds'
             WHERE id IN (SELECT id FROM tasks WHERE deadline > now() + interval '1 minute' AND status IN ('PENDING', 'VALIDATING') ORDER BY random() LIMIT 4)`,
          )
          .catch(() => undefined);
        await sleep(700);
      }
    })();

    // The killer: SIGKILL at a random moment 1.5–4 s into each life, restart on the same port.
    for (let kill = 1; kill <= KILLS; kill++) {
      await sleep(1_500 + random() * 2_500);
      await server.kill('SIGKILL');
      log(
        `kill ${kill}/${KILLS}: ${acknowledged.tasks.size} tasks, ${acknowledged.answers.size} answers, ${acknowledged.paidDeposits.size} deposits acknowledged`,
      );
      await sleep(random() * 500);
      server = await start();
    }
    await sleep(2_000);
    running = false;
    await Promise.all([...ingest, ...deposits, ...answering, ...reviews, warp]);

    // Let the last life deliver what the outbox holds, then stop it gracefully.
    const drainDeadline = Date.now() + 60_000;
    while (Date.now() < drainDeadline) {
      const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'PENDING'`);
      if (Number(rows[0]?.n) === 0) break;
      await sleep(250);
    }
    await server.stop();
    if (PLANT_VIOLATION) await db.query('UPDATE buyers SET credit_balance = credit_balance + 1 WHERE id = (SELECT min(id) FROM buyers)');

    const violations = await checkInvariants(db, acknowledged, receiver.deliveries);
    const blind = await checksThatMissCorruption(db, acknowledged, receiver.deliveries);
    for (const name of blind) violations.push(`the check did not see a deliberate corruption: ${name}`);
    const counts = await db.query<{
      tasks: string;
      completed: string;
      failed: string;
      expired: string;
      rejected: string;
      answers: string;
      events: string;
      held: string;
      capped: string;
    }>(
      `SELECT (SELECT count(*) FROM tasks) AS tasks,
              (SELECT count(*) FROM tasks WHERE status = 'COMPLETED') AS completed,
              (SELECT count(*) FROM tasks WHERE status = 'FAILED') AS failed,
              (SELECT count(*) FROM tasks WHERE failure_reason = 'EXPIRED') AS expired,
              (SELECT count(*) FROM tasks WHERE revision = 2) AS rejected,
              (SELECT count(*) FROM task_responses) AS answers,
              (SELECT count(*) FROM events) AS events,
              (SELECT count(*) FROM tasks WHERE held_at IS NOT NULL) AS held,
              (SELECT count(*) FROM events WHERE type = 'budget.cap_reached') AS capped`,
    );
    const c = counts.rows[0];
    const line = {
      bench: 'crash',
      seed: SEED,
      kills: KILLS,
      plantedViolation: PLANT_VIOLATION,
      tasks: Number(c?.tasks),
      completed: Number(c?.completed),
      failed: Number(c?.failed),
      // Of the failed, those whose deadline passed (the expiry job's, across the kills).
      expired: Number(c?.expired),
      // Results rejected by their buyer (and reopened), however they ended.
      rejected: Number(c?.rejected),
      answers: Number(c?.answers),
      events: Number(c?.events),
      // Whether the run reached its caps: tasks the holding project held, caps that announced budget.cap_reached.
      heldTasks: Number(c?.held),
      capsReached: Number(c?.capped),
      deliveriesReceived: receiver.deliveries.size,
      acknowledgedTasks: acknowledged.tasks.size,
      acknowledgedAnswers: acknowledged.answers.size,
      paidDeposits: acknowledged.paidDeposits.size,
      violations: violations.length,
    };
    for (const violation of violations.slice(0, 20)) log(`VIOLATION ${violation}`);
    process.stdout.write(`${JSON.stringify(line)}\n`);
    if (violations.length > 0 || line.kills === 0) process.exitCode = 1;
  } finally {
    await server.kill('SIGKILL');
    await db.end();
    receiver.close();
    await database.stop();
  }
}

/**
 * The checks themselves are tested: each corruption below, made inside a transaction that is rolled
 * back, must be reported. Returns the corruptions that went unseen.
 */
async function checksThatMissCorruption(db: pg.Client, acknowledged: Acknowledged, received: Set<string>): Promise<string[]> {
  const corruptions: Array<[string, string]> = [
    ['a balance off by a cent', `UPDATE buyers SET credit_balance = credit_balance + 1 WHERE id = (SELECT min(id) FROM buyers)`],
    [
      'a completed task charged twice',
      `INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id)
       SELECT 'corrupt-' || t.id, t.buyer_id, 'TASK_CHARGE', 0, 0, t.id FROM tasks t WHERE t.status = 'COMPLETED' LIMIT 1`,
    ],
    ['an answer lost', `DELETE FROM task_responses WHERE id = (SELECT min(id) FROM task_responses)`],
    ['a project cap passed', `UPDATE projects SET budget_cap_cents = 0 WHERE budget_cap_cents IS NOT NULL`],
    ['a monthly cap passed', `UPDATE buyers SET monthly_cap_cents = 0 WHERE monthly_cap_cents IS NOT NULL`],
    ['a refund lost', `DELETE FROM ledger_entries WHERE id = (SELECT min(id) FROM ledger_entries WHERE type = 'REFUND')`],
    ['an expiry before its deadline', `UPDATE tasks SET deadline = failed_at + interval '1 second' WHERE failure_reason = 'EXPIRED'`],
    ['a delivery left pending', `UPDATE webhook_deliveries SET status = 'PENDING' WHERE id = (SELECT min(id) FROM webhook_deliveries)`],
  ];
  const unseen: string[] = [];
  for (const [name, sql] of corruptions) {
    await db.query('BEGIN');
    try {
      const { rowCount } = await db.query(sql);
      if (rowCount && (await checkInvariants(db, acknowledged, received)).length === 0) unseen.push(name);
      if (!rowCount) unseen.push(`${name} (nothing to corrupt: the run produced too little)`);
    } finally {
      await db.query('ROLLBACK');
    }
  }
  return unseen;
}

/** What a task commits against a spending cap (SpendingCapsRepository): its budget while open, its price once completed. */
const COMMITTED = `CASE WHEN t.status IN ('PENDING', 'VALIDATING') AND t.held_at IS NULL THEN t.max_cents WHEN t.status = 'COMPLETED' THEN t.cost_cents ELSE 0 END`;

/** Each query returns the rows that break one invariant, described in one line each. */
async function checkInvariants(db: pg.Client, acknowledged: Acknowledged, received: Set<string>): Promise<string[]> {
  const checks: Array<[string, string]> = [
    [
      'balance ≠ ledger',
      `SELECT b.id || ': ' || b.credit_balance || ' vs ' || coalesce(sum(l.amount_cents), 0) AS v
       FROM buyers b LEFT JOIN ledger_entries l ON l.buyer_id = b.id GROUP BY b.id HAVING b.credit_balance <> coalesce(sum(l.amount_cents), 0)`,
    ],
    [
      'reserved ≠ open budgets',
      `SELECT b.id || ': ' || b.reserved_cents || ' vs ' || coalesce(sum(t.max_cents), 0) AS v
       FROM buyers b LEFT JOIN tasks t ON t.buyer_id = b.id AND t.status IN ('PENDING', 'VALIDATING') AND t.held_at IS NULL
       GROUP BY b.id HAVING b.reserved_cents <> coalesce(sum(t.max_cents), 0)`,
    ],
    [
      'a spending cap passed',
      `SELECT 'project ' || p.id || ': ' || c.committed || ' committed, cap ' || p.budget_cap_cents AS v
       FROM projects p CROSS JOIN LATERAL (SELECT coalesce(sum(${COMMITTED}), 0) AS committed FROM tasks t WHERE t.project_id = p.id) c
       WHERE c.committed > p.budget_cap_cents
       UNION ALL
       SELECT 'organisation ' || b.id || ': ' || c.committed || ' committed, monthly cap ' || b.monthly_cap_cents
       FROM buyers b CROSS JOIN LATERAL (SELECT coalesce(sum(${COMMITTED}), 0) AS committed FROM tasks t
                                         WHERE t.buyer_id = b.id AND coalesce(t.released_at, t.created_at) >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') c
       WHERE c.committed > b.monthly_cap_cents`,
    ],
    [
      'expired before its deadline',
      `SELECT t.id || ': failed ' || t.failed_at || ', deadline ' || coalesce(t.deadline::text, 'none') AS v
       FROM tasks t WHERE t.failure_reason = 'EXPIRED' AND (t.deadline IS NULL OR t.failed_at < t.deadline)`,
    ],
    [
      'earnings ≠ ledger',
      `SELECT a.id || ': ' || a.earned_cents || ' vs ' || coalesce(sum(l.amount_cents), 0) AS v
       FROM annotators a LEFT JOIN ledger_entries l ON l.annotator_id = a.id AND l.type IN ('EARNING', 'EARNING_REVERSAL') GROUP BY a.id
       HAVING a.earned_cents <> coalesce(sum(l.amount_cents), 0)`,
    ],
    [
      'over-answered or miscounted',
      `SELECT t.id || ': ' || t.total_responses || ' counted, ' || count(r.id) || ' stored, max ' || t.max_responses AS v
       FROM tasks t LEFT JOIN task_responses r ON r.task_id = t.id GROUP BY t.id
       HAVING count(r.id) > t.max_responses OR count(r.id) <> t.total_responses`,
    ],
    [
      // A rejected result's charge is refunded (and its task charged again if it completes again).
      'charged ≠ once per completed task',
      `SELECT t.id || ' ' || t.status || ': ' || count(l.id) FILTER (WHERE l.type = 'TASK_CHARGE') || ' charges, '
              || count(l.id) FILTER (WHERE l.type = 'REFUND') || ' refunds, ' || coalesce(sum(l.amount_cents), 0) || ' cents' AS v
       FROM tasks t LEFT JOIN ledger_entries l ON l.task_id = t.id AND l.type IN ('TASK_CHARGE', 'REFUND') GROUP BY t.id, t.status, t.cost_cents
       HAVING count(l.id) FILTER (WHERE l.type = 'TASK_CHARGE') - count(l.id) FILTER (WHERE l.type = 'REFUND') <> CASE WHEN t.status = 'COMPLETED' THEN 1 ELSE 0 END
           OR coalesce(sum(l.amount_cents), 0) <> CASE WHEN t.status = 'COMPLETED' THEN -t.cost_cents ELSE 0 END`,
    ],
    [
      // Each rejection reopens a decided task, and its next decision sends a second event.
      'decided tasks ≠ their events',
      `SELECT d.n || ' decided tasks vs ' || e.decisions || ' decision events less ' || e.rejections || ' rejections' AS v
       FROM (SELECT count(*) AS n FROM tasks WHERE status IN ('COMPLETED', 'FAILED')) d,
            (SELECT count(*) FILTER (WHERE type IN ('task.completed', 'task.failed')) AS decisions,
                    count(*) FILTER (WHERE type = 'task.rejected') AS rejections FROM events) e
       WHERE d.n <> e.decisions - e.rejections`,
    ],
    [
      'rejection without its event',
      `SELECT t.id AS v FROM tasks t WHERE t.revision = 2
         AND NOT EXISTS (SELECT 1 FROM events e WHERE e.buyer_id = t.buyer_id AND e.type = 'task.rejected' AND e.payload::jsonb->>'taskId' = t.id)`,
    ],
    [
      'event without a delivery',
      `SELECT e.id || ' ' || e.type AS v FROM events e
       JOIN webhook_configs c ON c.buyer_id = e.buyer_id AND e.type = ANY (c.events)
       WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.config_id = c.id)`,
    ],
    [
      'delivery not delivered',
      `SELECT d.id || ' ' || d.status || ' after ' || d.attempts || ' attempts' AS v FROM webhook_deliveries d WHERE d.status <> 'DELIVERED'`,
    ],
    // A graceful stop applies what decisions owe; a kill leaves it to the next life's applier.
    ['decision effects never applied', `SELECT s.task_id AS v FROM settlement_effects s`],
    ['event never numbered', `SELECT e.id AS v FROM events e WHERE e.seq IS NULL`],
    [
      'deposit credited ≠ once',
      `SELECT d.id || ' ' || d.status || ': ' || count(l.id) || ' DEPOSIT rows' AS v
       FROM deposits d LEFT JOIN ledger_entries l ON l.deposit_id = d.id AND l.type = 'DEPOSIT' GROUP BY d.id
       HAVING count(l.id) <> CASE WHEN d.status = 'SUCCEEDED' THEN 1 ELSE 0 END`,
    ],
  ];
  const violations: string[] = [];
  for (const [name, sql] of checks) {
    const { rows } = await db.query<{ v: string }>(sql);
    for (const row of rows) violations.push(`${name}: ${row.v}`);
  }
  const present = async (sql: string, ids: string[]) => new Set((await db.query<{ id: string }>(sql, [ids])).rows.map((row) => row.id));
  const tasks = await present(`SELECT id FROM tasks WHERE id = ANY ($1)`, [...acknowledged.tasks]);
  for (const id of acknowledged.tasks) if (!tasks.has(id)) violations.push(`acknowledged task lost: ${id}`);
  const answers = await present(
    `SELECT r.task_id || ':' || a.external_id AS id FROM task_responses r JOIN annotators a ON a.id = r.annotator_id WHERE r.task_id || ':' || a.external_id = ANY ($1)`,
    [...acknowledged.answers],
  );
  for (const id of acknowledged.answers) if (!answers.has(id)) violations.push(`acknowledged answer lost: ${id}`);
  const rejected = await present(`SELECT id FROM tasks WHERE revision = 2 AND id = ANY ($1)`, [...acknowledged.rejections]);
  for (const id of acknowledged.rejections) if (!rejected.has(id)) violations.push(`acknowledged rejection lost: ${id}`);
  const paid = await present(`SELECT id FROM deposits WHERE status = 'SUCCEEDED' AND id = ANY ($1)`, [...acknowledged.paidDeposits]);
  for (const id of acknowledged.paidDeposits) if (!paid.has(id)) violations.push(`paid deposit not credited: ${id}`);
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE status = 'DELIVERED'`);
  const missing = rows.filter((row) => !received.has(row.id));
  for (const row of missing.slice(0, 20)) violations.push(`delivery marked DELIVERED but never received: ${row.id}`);
  if (missing.length > 20) violations.push(`… and ${missing.length - 20} more deliveries never received`);
  return violations;
}

main().then(
  // Explicitly: nothing loaded on the way may decide the exit code.
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
