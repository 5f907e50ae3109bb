// bench/webhooks: 10 000 events delivered by two server processes to a local receiver; then the event
// stream's figures (bench/webhooks/stream.ts); then one buyer's latency alone and while another's
// endpoints never answer (bench/webhooks/fairness.ts).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { newId } from '../../src/lib/ids.ts';
import { benchDatabase, cpuMs, fundedBuyer, mustBe, percentile, round, runBench, startServer } from '../lib.ts';
import { measureFairness } from './fairness.ts';
import { queueBudgetLowEvents } from './outbox.ts';
import { measureStream } from './stream.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = 500;
const log = (message: string) => process.stderr.write(`[webhooks] ${message}\n`);

async function main() {
  const database = await benchDatabase('webhooks');
  const received = new Map<string, number>();
  const latencies: number[] = [];
  let unsigned = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.parse(JSON.parse(Buffer.concat(chunks).toString()).at);
      const id = String(req.headers['x-service-delivery']);
      if (!req.headers['webhook-signature'] || !req.headers['x-service-signature']) unsigned++;
      if (!received.has(id)) latencies.push(Date.now() - at);
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  const servers = [await startServer(database.url, env), await startServer(database.url, env)];
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const buyer = await fundedBuyer(servers[0]?.url as string, 100);
    const configId = newId();
    // A whsec_ secret, so every delivery is signed both ways (the spec's header and Standard Webhooks).
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await client.query(`INSERT INTO webhook_configs (id, buyer_id, url, events, secret) VALUES ($1, $2, $3, ARRAY['budget.low'], $4)`, [
      configId,
      buyer.id,
      receiverUrl,
      secret,
    ]);
    log(`${EVENTS} events, two server processes`);
    const serversCpuMs = async () => (await Promise.all(servers.map((server) => cpuMs(server.pid)))).reduce((a, b) => a + b, 0);
    const cpuBefore = await serversCpuMs();
    const started = Date.now();
    for (let offset = 0; offset < EVENTS; offset += BATCH) {
      const count = Math.min(BATCH, EVENTS - offset);
      await queueBudgetLowEvents(client, buyer.id, [configId], count);
    }
    const deadline = Date.now() + 120_000;
    while (received.size < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (Date.now() - started) / 1000;
    const serverCpuMsPerDelivery = ((await serversCpuMs()) - cpuBefore) / Math.max(1, received.size);
    const duplicates = [...received.values()].filter((n) => n > 1).length;
    if (duplicates > 0) log(`${duplicates} deliveries arrived more than once`);
    // The event stream's figures (sse* keys), on a server process of its own, after the deliveries.
    const stream = await measureStream(database.url, log);
    // The fairness figures on a server process alone: the two above would claim the attacker's deliveries too.
    for (const server of servers.splice(0)) await server.stop();
    const fairness = await measureFairness(database.url, log);
    if (unsigned > 0) log(`${unsigned} deliveries arrived without both signatures`);
    mustBe('lost', EVENTS - received.size);
    mustBe('duplicated deliveries', duplicates);
    mustBe('unsigned deliveries', unsigned);
    mustBe('victim deliveries lost', fairness.victimLost);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'webhooks',
        deliveriesPerSec: Math.round(received.size / seconds),
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        lost: EVENTS - received.size,
        serverCpuMsPerDelivery: round(serverCpuMsPerDelivery, 3),
        ...stream,
        ...fairness,
      })}\n`,
    );
  } finally {
    await client.end();
    for (const server of servers) await server.stop();
    receiver.close();
    await database.stop();
  }
}

runBench(main);
