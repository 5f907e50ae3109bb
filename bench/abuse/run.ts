// bench/abuse: while 16 clients send 7 MB bodies to an unknown route and to an authenticated route
// without a credential for 20 s, how long does /healthz take? And while 4 CSV imports of 5 MB run at once?
// (Targets: p99 ≤ 50 ms both times, no 5xx.) The same /healthz probe is first timed on the idle server,
// so the figures say what the abuse costs on this machine.
import http from 'node:http';
import { benchDatabase, fundedBuyer, mustBe, percentile, round, runBench, startServer } from '../lib.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 20_000);
const IDLE_MS = 3_000;
const CLIENTS = 16;
const BODY = Buffer.alloc(7 * 1024 * 1024, 'a');
const PROBE_INTERVAL_MS = 20;
const log = (message: string) => process.stderr.write(`[abuse] ${message}\n`);

/** One abusive request: a 7 MB body, on a fresh connection (the server closes refused ones). */
function abusiveRequest(base: URL, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(BODY.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    // The server answers before the body is sent and closes the connection: EPIPE/ECONNRESET after a
    // response are expected. Without a response the request counts as status 0.
    req.on('error', () => resolve(0));
    req.end(BODY);
  });
}

async function probeHealthz(base: string, until: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${base}/healthz`);
  const times: number[] = [];
  while (Date.now() < until) {
    const started = process.hrtime.bigint();
    const status = await new Promise<number>((resolve) => {
      const req = http.get({ host: url.hostname, port: url.port, path: url.pathname, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
    });
    if (status !== 200) throw new Error(`/healthz answered ${status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  agent.destroy();
  return times;
}

const CSV_IMPORTS = 4;

/** A CSV just under 5 MB (the import limit): about 45 000 valid rows. */
function bigCsv(): { text: string; rows: number } {
  const lines = ['type,content,options,locale,maxCents\n'];
  let size = (lines[0] as string).length;
  for (let i = 0; size < 5 * 1024 * 1024 - 300; i++) {
    const line = `SENTIMENT_ANALYSIS,"Row ${i}: ""quoted"" text, with a comma and some more words to fill the line",positive|negative|neutral,en,20\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return { text: lines.join(''), rows: lines.length - 1 };
}

/** CSV_IMPORTS imports of a 5 MB file at once, while /healthz is probed; each must create every row. */
async function csvImports(base: string): Promise<{ healthz: number[]; seconds: number }> {
  const { text, rows } = bigCsv();
  const buyer = await fundedBuyer(base, CSV_IMPORTS * rows * 20 + 10_000);
  const started = performance.now();
  let done = false;
  const imports = Array.from({ length: CSV_IMPORTS }, async () => {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/csv' }), 'tasks.csv');
    const res = await fetch(`${base}/api/v1/tasks/batch/csv`, { method: 'POST', headers: { authorization: `Bearer ${buyer.token}` }, body: form });
    const body = (await res.json()) as { created?: number };
    if (res.status !== 201 || body.created !== rows) throw new Error(`csv import failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  });
  const all = Promise.all(imports).finally(() => (done = true));
  const healthz: number[] = [];
  // Probed until the last import has answered.
  while (!done) healthz.push(...(await probeHealthz(base, Date.now() + 1_000)));
  await all;
  log(
    `${CSV_IMPORTS} CSV imports of ${rows} rows (${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MB) each at once: ${round((performance.now() - started) / 1000)} s`,
  );
  return { healthz, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  const database = await benchDatabase('abuse');
  const server = await startServer(database.url);
  try {
    const idle = await probeHealthz(server.url, Date.now() + IDLE_MS);
    log(`idle /healthz: p50 ${round(percentile(idle, 50))} ms, p99 ${round(percentile(idle, 99))} ms over ${idle.length} probes`);
    const base = new URL(server.url);
    const until = Date.now() + DURATION_MS;
    const statuses: number[] = [];
    const clients = Array.from({ length: CLIENTS }, async (_, i) => {
      const path = i % 2 === 0 ? '/api/v1/no-such-route' : '/api/v1/tasks';
      while (Date.now() < until) statuses.push(await abusiveRequest(base, path));
    });
    const [loaded] = await Promise.all([probeHealthz(server.url, until), ...clients]);
    const byStatus = Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]));
    log(`abusive requests by status: ${JSON.stringify(byStatus)}`);
    const csv = await csvImports(server.url);
    const line = {
      bench: 'abuse',
      healthzP50Ms: round(percentile(loaded, 50)),
      healthzP99Ms: round(percentile(loaded, 99)),
      abusiveRequests: statuses.length,
      abusive5xx: statuses.filter((s) => s >= 500).length,
      abusiveUnanswered: statuses.filter((s) => s === 0).length,
      probes: loaded.length,
      idleHealthzP50Ms: round(percentile(idle, 50)),
      idleHealthzP99Ms: round(percentile(idle, 99)),
      csvImportHealthzP50Ms: round(percentile(csv.healthz, 50)),
      csvImportHealthzP99Ms: round(percentile(csv.healthz, 99)),
      csvImportSeconds: round(csv.seconds),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    mustBe('abusive5xx', line.abusive5xx);
  } finally {
    await server.stop();
    await database.stop();
  }
}

runBench(main);
