// bench/webhooks, fairness between buyers: one server process (default WEBHOOK_TIMEOUT_MS, 10 s). A
// well-behaved buyer (the victim) has one configuration to a receiver that answers 200 at once, and an
// event every 50 ms for VICTIM_SECONDS; its latency is from an event's `at` to the delivery's arrival.
// Measured twice on the same server: alone, then while an attacker's 20 configurations point at a server
// that accepts connections and never answers, with 60 events each (1 200 deliveries, as 60 decided tasks
// would make) queued before the victim's.
//   run by bench/webhooks/run.ts (its JSON line's victim* keys)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { newId } from '../../src/lib/ids.ts';
import { queueBudgetLowEvents } from './outbox.ts';
import { benchDatabase, fundedBuyer, percentile, round, runBench, startServer } from '../lib.ts';

export interface FairnessFigures {
  victimP99MsAlone: number;
  victimP99MsUnderAttack: number;
  victimP50MsAlone: number;
  victimP50MsUnderAttack: number;
  /** Victim events not delivered by the end of their phase (plus a grace of 5 s). */
  victimLost: number;
  /** Attacker deliveries the service had tried by the end (each hangs until the timeout). */
  attackerAttempts: number;
}

const VICTIM_SECONDS = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 12);
const VICTIM_EVERY_MS = 50;
const ATTACK_CONFIGS = 20;
const ATTACK_EVENTS = 60;

async function addConfig(client: pg.Client, buyerId: string, url: string): Promise<string> {
  const id = newId();
  await client.query(`INSERT INTO webhook_configs (id, buyer_id, url, events, secret) VALUES ($1, $2, $3, ARRAY['budget.low'], $4)`, [
    id,
    buyerId,
    url,
    `whsec_${randomBytes(32).toString('base64')}`,
  ]);
  return id;
}

export async function measureFairness(databaseUrl: string, log: (message: string) => void): Promise<FairnessFigures> {
  const latencies: number[] = [];
  let received = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      latencies.push(Date.now() - Date.parse(JSON.parse(Buffer.concat(chunks).toString()).at));
      received++;
      res.writeHead(200).end();
    });
  });
  // Accepts every connection and never answers.
  let attackerAttempts = 0;
  const held = new Set<net.Socket>();
  const blackHole = net.createServer((socket) => {
    attackerAttempts++;
    held.add(socket);
    socket.on('close', () => held.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  // The attacker's timeouts would log a warning each.
  const server = await startServer(databaseUrl, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'error' });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const victim = await fundedBuyer(server.url, 100);
    const attacker = await fundedBuyer(server.url, 100);
    const victimConfig = await addConfig(client, victim.id, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    const attackConfigs: string[] = [];
    for (let i = 0; i < ATTACK_CONFIGS; i++)
      attackConfigs.push(await addConfig(client, attacker.id, `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}/${i}`));

    const victimPhase = async (): Promise<{ p50: number; p99: number; lost: number }> => {
      latencies.length = 0;
      received = 0;
      const sent = Math.floor((VICTIM_SECONDS * 1000) / VICTIM_EVERY_MS);
      for (let i = 0; i < sent; i++) {
        await queueBudgetLowEvents(client, victim.id, [victimConfig], 1);
        await new Promise((resolve) => setTimeout(resolve, VICTIM_EVERY_MS));
      }
      const deadline = Date.now() + 5_000;
      while (received < sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), lost: sent - received };
    };

    log(`fairness: the victim alone, ${VICTIM_SECONDS} s`);
    const alone = await victimPhase();
    log(`fairness: ${ATTACK_CONFIGS * ATTACK_EVENTS} attacker deliveries to a server that never answers, then the victim again`);
    await queueBudgetLowEvents(client, attacker.id, attackConfigs, ATTACK_EVENTS);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const attacked = await victimPhase();
    return {
      victimP99MsAlone: alone.p99,
      victimP99MsUnderAttack: attacked.p99,
      victimP50MsAlone: alone.p50,
      victimP50MsUnderAttack: attacked.p50,
      victimLost: alone.lost + attacked.lost,
      attackerAttempts,
    };
  } finally {
    await client.end();
    // The worker's sends to the black hole would hold a graceful stop for their timeout.
    await server.kill('SIGKILL');
    for (const socket of held) socket.destroy();
    receiver.close();
    blackHole.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runBench(async () => {
    const database = await benchDatabase('webhooks_fairness');
    try {
      process.stdout.write(
        `${JSON.stringify({ bench: 'webhooks-fairness', ...(await measureFairness(database.url, (m) => process.stderr.write(`[fairness] ${m}\n`))) })}\n`,
      );
    } finally {
      await database.stop();
    }
  });
}
