// bench/answer-loop: simulated annotators answering tasks, in three loops measured in one run on the same
// data shape: the spec's loop (GET next → POST complete, the headline), the same loop with one request
// per answer (complete with `next`), and the floor (the same statements straight through `pg`).
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import pg from 'pg';
import { ADMIN, api, benchDatabase, cpuMs, fundedBuyer, LoadClient, mustBe, percentile, round, runBench, startServer, statFields } from '../lib.ts';
import { floorClients, type FloorClient, type FloorMode } from './floor.ts';

const ANNOTATORS = Number(process.env.BENCH_ANNOTATORS ?? 64);
const TASKS = Number(process.env.BENCH_TASKS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/**
 * An unmeasured requests loop first, so that every measured loop starts from a database that has been
 * used: on a fresh one the first loop ran on plans made for empty tables (seq scans of task_responses in
 * the answer's checks, cached by each connection) at about half the speed of the same loop run second.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
/** The floor's connections: the server's pool size unless set. */
const FLOOR_CONNECTIONS = Number(process.env.BENCH_FLOOR_CONNECTIONS ?? 10);
const FLOOR_MODE: FloorMode = process.env.BENCH_FLOOR === 'single' ? 'single' : 'batched';
const LOOPS = ['floor', 'requests', 'combined'] as const;
type Loop = (typeof LOOPS)[number];
/** Which loops run, in this order (e.g. BENCH_LOOPS=requests to profile the spec's loop alone). */
const SELECTED = (process.env.BENCH_LOOPS ?? LOOPS.join(',')).split(',').filter((name): name is Loop => (LOOPS as readonly string[]).includes(name));
const log = (message: string) => process.stderr.write(`[answers] ${message}\n`);

/**
 * The answer kinds of the seeded tasks, taken in turn (BENCH_KIND_MIX=single,rating,multi,pairwise,text for
 * a fifth of each; single choice alone by default): each kind's check and model in the loop, on the same
 * queue. A text task's writing is followed by its review task, a single-choice task the loop answers too.
 */
const KINDS = ['single', 'rating', 'multi', 'pairwise', 'text'];
const KIND_MIX = (process.env.BENCH_KIND_MIX ?? 'single').split(',').filter((kind) => KINDS.includes(kind));
if (KIND_MIX.length === 0) throw new Error(`BENCH_KIND_MIX takes ${KINDS.join(', ')}, separated by commas`);
const TASK_OF_KIND: Record<string, { type: string; options?: string[]; answerKind?: string; candidates?: { A: string; B: string } }> = {
  single: { type: 'SENTIMENT_ANALYSIS', options: ['positive', 'negative', 'neutral'] },
  rating: { type: 'AI_RESPONSE_RATING', options: ['1', '2', '3', '4', '5'], answerKind: 'rating' },
  multi: { type: 'BINARY_CHOICE', options: ['spam', 'offensive', 'off-topic', 'fine'], answerKind: 'multi' },
  pairwise: {
    type: 'AI_RESPONSE_RATING',
    answerKind: 'pairwise',
    candidates: { A: 'It works.', B: 'It works as described and arrived a day early, well packed.' },
  },
  text: { type: 'BINARY_CHOICE', answerKind: 'text' },
};

/**
 * Most annotators agree; some answers are noise, as in a real crowd (one level off for a rating, a stray
 * tick for a set, the other candidate of a pair: the longer one is the better, wherever it is shown).
 */
function chooseAnswer(task: Task): string | string[] {
  const agree = Math.random() < 0.85;
  const other = task.options[1 + Math.floor(Math.random() * 2)] as string;
  if (task.answerKind === 'text') return `A short summary of this review, ${agree ? 'faithful' : 'loose'}.`;
  if (task.candidates) {
    const better = task.candidates.second.length > task.candidates.first.length ? 'second' : 'first';
    return agree ? better : better === 'first' ? 'second' : 'first';
  }
  if (task.answerKind === 'multi') return agree ? [task.options[0] as string] : [task.options[0] as string, other];
  if (task.answerKind === 'rating') return (agree ? task.options[3] : task.options[2 + Math.floor(Math.random() * 3)]) as string;
  return agree ? (task.options[0] as string) : other;
}

/** A fresh queue of TASKS open tasks for every loop: what an earlier loop left open is closed first. */
async function freshQueue(db: pg.Client, base: string, token: string): Promise<void> {
  await db.query(`UPDATE tasks SET status = 'FAILED', held_at = NULL WHERE status IN ('PENDING', 'VALIDATING')`);
  await db.query('DELETE FROM assignments');
  // The earlier loop's dead row versions would otherwise slow this one's claims (bench/README.md), and
  // every table's statistics should describe a used database (see WARMUP_SECONDS).
  await db.query('VACUUM ANALYZE');
  for (let created = 0; created < TASKS; created += 1_000) {
    const tasks = Array.from({ length: 1_000 }, (_, i) => ({
      ...TASK_OF_KIND[KIND_MIX[(created + i) % KIND_MIX.length] ?? 'single'],
      content: `Review ${created + i}: arrived on time, works as described.`,
      validationsNeeded: 3,
    }));
    const res = await api(base, 'POST', '/tasks/batch', { tasks }, token);
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status}`);
  }
}

async function developer(base: string): Promise<{ id: string; apiKey: string }> {
  const admin = await api<{ token: string }>(base, 'POST', '/admin/login', ADMIN);
  const res = await api<{ developer: { id: string; apiKey: string } }>(
    base,
    'POST',
    '/admin/developers',
    { email: `bench-dev-${Date.now()}@concord.test`, appName: 'Bench app', appUrl: 'https://bench.example.test' },
    admin.body.token,
  );
  return res.body.developer;
}

type Task = { id: string; options: string[]; answerKind?: string; candidates?: { first: string; second: string } };

interface Tally {
  answers: number;
  refused: number;
  errors: number;
  /** Annotators that found no work before the deadline: the queue ran dry and the rate is understated. */
  ranDry: number;
  latencies: number[];
  /** The same by call: next, or the answer (with the next assignment in the combined loop). */
  byCall: { next: number[]; answer: number[] };
}

interface Step {
  /** The annotator's next task, or null when nothing fits. Throws on an unexpected response. */
  next(): Promise<Task | null>;
  /** 'accepted' with the next task when the loop gets one with the answer; 'refused' for a 409. */
  answer(task: Task): Promise<{ outcome: 'accepted' | 'refused'; next?: Task | null }>;
}

/** Each annotator answers until the deadline; every call is timed. */
async function runLoop(stepFor: (n: number) => Step, seconds = SECONDS): Promise<Tally & { seconds: number }> {
  const tally: Tally = { answers: 0, refused: 0, errors: 0, ranDry: 0, latencies: [], byCall: { next: [], answer: [] } };
  const deadline = Date.now() + seconds * 1000;
  const timed = async <T>(kind: 'next' | 'answer', call: () => Promise<T>) => {
    const t = performance.now();
    try {
      return await call();
    } finally {
      const ms = performance.now() - t;
      tally.latencies.push(ms);
      tally.byCall[kind].push(ms);
    }
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: ANNOTATORS }, async (_, n) => {
      const step = stepFor(n);
      // undefined: ask for one; null: nothing fits any more.
      let task: Task | null | undefined;
      while (Date.now() < deadline) {
        try {
          if (task === undefined) task = await timed('next', () => step.next());
          if (task === null) {
            tally.ranDry += 1;
            return;
          }
          const done = await timed('answer', () => step.answer(task as Task));
          if (done.outcome === 'accepted') tally.answers += 1;
          else tally.refused += 1;
          task = done.next;
        } catch {
          tally.errors += 1;
          task = undefined;
        }
      }
    }),
  );
  return { ...tally, seconds: (performance.now() - started) / 1000 };
}

/** Over HTTP: next then complete (the spec's loop), or complete with `next` after the first next (combined). */
function httpStep(client: LoadClient, apiKey: string, annotatorId: string, combined: boolean): Step {
  const headers = { authorization: `Bearer ${apiKey}` };
  return {
    async next() {
      const res = await client.request('GET', `/api/v1/sdk/tasks/next?annotatorId=${annotatorId}`, headers);
      if (res.status === 204) return null;
      if (res.status !== 200) throw new Error(`next: ${res.status}`);
      return (JSON.parse(res.text) as { task: Task }).task;
    },
    async answer(task) {
      const body = { annotatorId, answer: chooseAnswer(task), timeSpentMs: 1200, ...(combined ? { next: {} } : {}) };
      const res = await client.request('POST', `/api/v1/sdk/tasks/${task.id}/complete`, headers, JSON.stringify(body));
      // A 409: the task was decided meanwhile (nothing handed out; the loop asks next again).
      if (res.status === 409) return { outcome: 'refused' };
      if (res.status !== 201) throw new Error(`complete: ${res.status}`);
      if (!combined) return { outcome: 'accepted' };
      return { outcome: 'accepted', next: (JSON.parse(res.text) as { next: { task: Task } | null }).next?.task ?? null };
    },
  };
}

function floorStep(client: FloorClient, annotatorId: string): Step {
  return {
    next: () => client.next(annotatorId),
    async answer(task) {
      try {
        await client.complete(task.id, annotatorId, chooseAnswer(task));
        return { outcome: 'accepted' };
      } catch (error) {
        if ((error as { status?: unknown }).status === 409) return { outcome: 'refused' };
        throw error;
      }
    },
  };
}

/**
 * PostgreSQL's CPU: the postmaster with every backend, live or ended. Meaningful on the bench's own
 * embedded PostgreSQL only; a DATABASE_URL server may be serving others too.
 */
async function postgresCpuMs(postmaster: number): Promise<number> {
  if (process.env.DATABASE_URL) return Number.NaN;
  const children = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  let total = await cpuMs(postmaster, true);
  for (const pid of children) {
    const f = await statFields(Number(pid));
    if (Number(f[1]) === postmaster) total += (Number(f[11]) + Number(f[12])) * 10;
  }
  return total;
}

async function main() {
  const database = await benchDatabase('answers');
  const server = await startServer(database.url);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // The backend serving this connection is a child of the postmaster.
    const backend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    const postmaster = Number((await statFields(backend))[1]);
    const buyer = await fundedBuyer(server.url, 1_000_000_000);
    const app = await developer(server.url);
    const results: Partial<Record<Loop, Tally & { seconds: number }>> = {};
    /** Each loop's CPU per accepted answer, in ms: the server process's and PostgreSQL's (all its processes). */
    const cpuPerAnswer: Partial<Record<Loop, { server: number; postgres: number }>> = {};
    if (WARMUP_SECONDS > 0) {
      log(`warm-up: seeding ${TASKS} tasks, then ${WARMUP_SECONDS} s of the requests loop, not measured`);
      await freshQueue(db, server.url, buyer.token);
      const client = new LoadClient(server.url, ANNOTATORS);
      await runLoop((n) => httpStep(client, app.apiKey, `bench-warmup-${n}`, false), WARMUP_SECONDS);
      client.close();
    }
    for (const loop of SELECTED) {
      log(`${loop}: seeding ${TASKS} tasks`);
      await freshQueue(db, server.url, buyer.token);
      log(`${loop}: ${ANNOTATORS} annotators for ${SECONDS} s`);
      // Sessions opened, and transactions committed and rolled back (each autocommitted statement is one).
      const databaseStats = async () => {
        const row = (
          await db.query<{ sessions: string; commits: string; rollbacks: string }>(
            'SELECT sessions, xact_commit AS commits, xact_rollback AS rollbacks FROM pg_stat_database WHERE datname = current_database()',
          )
        ).rows[0];
        return { sessions: Number(row?.sessions), commits: Number(row?.commits), rollbacks: Number(row?.rollbacks) };
      };
      const statsBefore = await databaseStats();
      const cpu = { server: await cpuMs(server.pid), postgres: await postgresCpuMs(postmaster), bench: process.cpuUsage() };
      if (loop === 'floor') {
        const floor = floorClients(database.url, app.id, ANNOTATORS, FLOOR_CONNECTIONS, FLOOR_MODE);
        try {
          results[loop] = await runLoop((n) => floorStep(floor.clients[n] as FloorClient, `bench-${loop}-${n}`));
        } finally {
          await floor.close();
        }
      } else {
        const client = new LoadClient(server.url, ANNOTATORS);
        results[loop] = await runLoop((n) => httpStep(client, app.apiKey, `bench-${loop}-${n}`, loop === 'combined'));
        client.close();
      }
      const result = results[loop];
      if (!result) continue;
      const benchCpu = process.cpuUsage(cpu.bench);
      const perAnswer = (ms: number) => round(ms / Math.max(1, result.answers), 3);
      const stats = await databaseStats();
      cpuPerAnswer[loop] = {
        server: perAnswer((await cpuMs(server.pid)) - cpu.server),
        postgres: perAnswer((await postgresCpuMs(postmaster)) - cpu.postgres),
      };
      log(
        `${loop}: ${result.answers} answers accepted, ${result.refused} refused with 409 (decided meanwhile), ${result.errors} unexpected; ` +
          `CPU per answer: server ${cpuPerAnswer[loop].server} ms, PostgreSQL ${cpuPerAnswer[loop].postgres} ms, ` +
          `bench process ${perAnswer((benchCpu.user + benchCpu.system) / 1000)} ms; ` +
          `per answer ${perAnswer(stats.commits - statsBefore.commits)} transactions committed, ${perAnswer(stats.rollbacks - statsBefore.rollbacks)} rolled back; ` +
          `${stats.sessions - statsBefore.sessions} database connections opened; ` +
          `machine load ${os.loadavg()[0]?.toFixed(1)}`,
      );
      const ms = (values: number[]) => `p50 ${round(percentile(values, 50), 1)} / p99 ${round(percentile(values, 99), 1)} ms`;
      log(
        `${loop}: next ${ms(result.byCall.next)} (${result.byCall.next.length} calls), answer ${ms(result.byCall.answer)} (${result.byCall.answer.length} calls)`,
      );
      mustBe(`${loop}: unexpected answers`, result.errors);
      if (result.ranDry > 0) log(`${loop}: ${result.ranDry} annotators ran out of tasks before the deadline: raise BENCH_TASKS`);
    }

    const over = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM tasks t WHERE (SELECT count(*) FROM task_responses r WHERE r.task_id = t.id) > t.max_responses`,
    );
    const doubled = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT task_id FROM ledger_entries WHERE type = 'TASK_CHARGE' GROUP BY task_id HAVING count(*) > 1) d`,
    );
    const rate = (loop: Loop) => {
      const result = results[loop];
      return result ? Math.round(result.answers / result.seconds) : null;
    };
    const latency = (loop: Loop, p: number) => {
      const result = results[loop];
      return result ? round(percentile(result.latencies, p)) : null;
    };
    const [requests, combined, floor] = [rate('requests'), rate('combined'), rate('floor')];
    mustBe('overAnswered', Number(over.rows[0]?.n ?? 0));
    mustBe('doubleBilled', Number(doubled.rows[0]?.n ?? 0));
    process.stdout.write(
      `${JSON.stringify({
        bench: 'answers',
        answersPerSec: requests,
        p50Ms: latency('requests', 50),
        p99Ms: latency('requests', 99),
        floorAnswersPerSec: floor,
        floorP99Ms: latency('floor', 99),
        ratioToFloor: requests !== null && floor ? round(requests / floor) : null,
        serverCpuMsPerAnswer: cpuPerAnswer.requests?.server ?? null,
        postgresCpuMsPerAnswer: cpuPerAnswer.requests?.postgres ?? null,
        combinedAnswersPerSec: combined,
        combinedP50Ms: latency('combined', 50),
        combinedP99Ms: latency('combined', 99),
        combinedToRequests: combined !== null && requests ? round(combined / requests) : null,
        overAnswered: Number(over.rows[0]?.n ?? 0),
        doubleBilled: Number(doubled.rows[0]?.n ?? 0),
      })}\n`,
    );
  } finally {
    await db.end();
    await server.stop();
    await database.stop();
  }
}

runBench(main);
