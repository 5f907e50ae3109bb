// bench/exports: 1 000 000 completed tasks exported as jsonl and as a split ZIP over HTTP.
import pg from 'pg';
import { benchDatabase, fundedBuyer, rssMb, round, runBench, startServer } from '../lib.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
const log = (message: string) => process.stderr.write(`[exports] ${message}\n`);

/** Downloads a URL to nowhere, counting bytes; returns seconds. */
async function download(url: string, token: string): Promise<{ seconds: number; firstByteSeconds: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200 || !res.body) throw new Error(`export failed: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let firstByte = 0;
  for await (const chunk of res.body) {
    if (bytes === 0) firstByte = performance.now();
    bytes += (chunk as Uint8Array).length;
  }
  return { seconds: (performance.now() - started) / 1000, firstByteSeconds: (firstByte - started) / 1000, bytes };
}

async function main() {
  const database = await benchDatabase('exports');
  // The compiled server, as production runs it: memory is part of what this bench measures.
  const server = await startServer(database.url, {}, { compiled: true });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const buyer = await fundedBuyer(server.url, 100);
    log(`seeding ${TASKS} completed tasks`);
    for (let start = 0; start < TASKS; start += 200_000) {
      await client.query(
        `INSERT INTO tasks (id, buyer_id, type, content, options, max_cents, cost_cents, validations_needed, max_responses,
                            status, result, confidence, total_responses, validated_at)
         SELECT 'cb' || lpad(g::text, 23, '0'), $1, 'SENTIMENT_ANALYSIS', 'Review ' || g || ': arrived on time and works as described.',
                ARRAY['positive','negative','neutral'], 20, 20, 3, 6, 'COMPLETED', 'positive', 0.927, 3,
                now() - g * interval '1 millisecond'
         FROM generate_series($2::bigint, $3::bigint) g`,
        [buyer.id, start + 1, Math.min(start + 200_000, TASKS)],
      );
    }
    // Settled as completed tasks are in a live database (autovacuum has set hint bits and the visibility map).
    await client.query('VACUUM ANALYZE tasks');
    let peak = await rssMb(server.pid);
    const sampler = setInterval(() => {
      rssMb(server.pid).then(
        (mb) => (peak = Math.max(peak, mb)),
        () => undefined,
      );
    }, 50);
    log('jsonl');
    const jsonl = await download(`${server.url}/api/v1/exports?format=jsonl`, buyer.token);
    log(`jsonl: ${(jsonl.bytes / 1e6).toFixed(1)} MB in ${jsonl.seconds.toFixed(1)} s (first byte after ${jsonl.firstByteSeconds.toFixed(2)} s)`);
    log('split zip');
    const zip = await download(`${server.url}/api/v1/exports?format=jsonl&trainRatio=0.8&valRatio=0.1&testRatio=0.1`, buyer.token);
    log(`zip: ${(zip.bytes / 1e6).toFixed(1)} MB in ${zip.seconds.toFixed(1)} s (first byte after ${zip.firstByteSeconds.toFixed(2)} s)`);
    clearInterval(sampler);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'exports',
        jsonlRecordsPerSec: Math.round(TASKS / jsonl.seconds),
        zipRecordsPerSec: Math.round(TASKS / zip.seconds),
        peakRssMb: round(peak, 1),
      })}\n`,
    );
  } finally {
    await client.end();
    await server.stop();
    await database.stop();
  }
}

runBench(main);
