// bench/webhooks, the event stream: 200 GET /events/stream subscribers of one buyer on
// one server process while 10 000 events are written to the outbox by concurrent transactions (so they
// commit out of creation order), paced at BENCH_SSE_RATE events/s. Every subscriber must receive every
// event once, in the order of the buyer's event numbers; the latency is from the moment an event's
// INSERT is sent to the moment its frame arrives (so it includes the commit), over every frame.
//   run by bench/webhooks/run.ts (its JSON line's sse* keys), or alone: npx tsx bench/webhooks/stream.ts
import http from 'node:http';
import pg from 'pg';
import { newId } from '../../src/lib/ids.ts';
import { SseParser } from '../../sdk/src/event-stream.ts';
import { benchDatabase, fundedBuyer, mustBe, percentile, round, runBench, startServer } from '../lib.ts';

export interface StreamFigures {
  sseSubscribers: number;
  sseEvents: number;
  sseP50Ms: number;
  sseP99Ms: number;
  /** Subscriber × event pairs never received. */
  sseLost: number;
  /** Frames received more than once. */
  sseDuplicated: number;
}

const SUBSCRIBERS = Number(process.env.BENCH_SSE_SUBSCRIBERS ?? 200);
const EVENTS = Number(process.env.BENCH_SSE_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_SSE_RATE ?? 1_000);
const WRITERS = 4;

interface Subscriber {
  request: http.ClientRequest;
  /** How often each event (by its index) arrived. */
  counts: Uint8Array;
  /** The indexes in arrival order. */
  order: number[];
}

export async function measureStream(databaseUrl: string, log: (message: string) => void): Promise<StreamFigures> {
  // One buyer with every subscriber, all from this process's address: a process's caps per buyer and per
  // address are raised to hold them all.
  const server = await startServer(databaseUrl, { EVENT_STREAM_MAX_PER_BUYER: String(SUBSCRIBERS), EVENT_STREAM_MAX_PER_ADDRESS: String(SUBSCRIBERS) });
  const writers = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const subscribers: Subscriber[] = [];
  try {
    const buyer = await fundedBuyer(server.url, 100);
    const ids = Array.from({ length: EVENTS }, () => `evt_${newId()}`);
    const indexOf = new Map(ids.map((id, index) => [id, index]));
    const sentAt = new Float64Array(EVENTS);
    const latencies: number[] = [];
    for (let s = 0; s < SUBSCRIBERS; s++) subscribers.push(await subscribe(server.url, buyer.token, indexOf, sentAt, latencies));
    log(`${SUBSCRIBERS} stream subscribers, ${EVENTS} events at ${RATE}/s from ${WRITERS} concurrent writers`);

    const started = performance.now();
    // Writer w sends events w, w + WRITERS, …, each in its own transaction, at its due time.
    await Promise.all(
      writers.map(async (client, w) => {
        for (let index = w; index < EVENTS; index += WRITERS) {
          const due = started + (index * 1_000) / RATE;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          sentAt[index] = Date.now();
          const payload = JSON.stringify({ event: 'budget.low', creditBalance: index, thresholdCents: 500, at: new Date().toISOString() });
          await client.query(`SELECT record_event($1, $2, 'budget.low', $3, ARRAY[]::text[])`, [ids[index], buyer.id, payload]);
        }
      }),
    );
    const writeSeconds = (performance.now() - started) / 1_000;
    log(`${EVENTS} events written in ${round(writeSeconds, 1)} s (${Math.round(EVENTS / writeSeconds)}/s)`);
    const deadline = Date.now() + 60_000;
    while (subscribers.some((s) => s.order.length < EVENTS) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    let lost = 0;
    let duplicated = 0;
    for (const s of subscribers) {
      for (const count of s.counts) {
        if (count === 0) lost += 1;
        else duplicated += count - 1;
      }
    }
    // Each subscriber's arrival order must be the buyer's commit order (the events' numbers).
    const { rows } = await (writers[0] as pg.Client).query<{ id: string }>('SELECT id FROM events WHERE buyer_id = $1 ORDER BY seq', [buyer.id]);
    const committed = rows.map((row) => indexOf.get(row.id) as number);
    const outOfOrder = subscribers.filter((s) => s.order.some((index, i) => index !== committed[i])).length;
    mustBe('sseLost', lost);
    mustBe('sseDuplicated', duplicated);
    mustBe('sse subscribers out of order', outOfOrder);
    if (outOfOrder > 0) log(`${outOfOrder} subscribers received events out of commit order`);
    const inCreationOrder = committed.every((index, i) => index === i);
    log(`commits out of creation order: ${inCreationOrder ? 'none this run' : 'yes (concurrent writers)'}; subscribers out of commit order: ${outOfOrder}`);
    return {
      sseSubscribers: SUBSCRIBERS,
      sseEvents: EVENTS,
      sseP50Ms: round(percentile(latencies, 50)),
      sseP99Ms: round(percentile(latencies, 99)),
      sseLost: lost,
      sseDuplicated: duplicated,
    };
  } finally {
    for (const s of subscribers) s.request.destroy();
    await Promise.all(writers.map((client) => client.end()));
    await server.stop();
  }
}

/** One subscriber: resolves once its stream has started; counts and times every frame. */
function subscribe(base: string, token: string, indexOf: Map<string, number>, sentAt: Float64Array, latencies: number[]): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const subscriber: Subscriber = { request: undefined as unknown as http.ClientRequest, counts: new Uint8Array(indexOf.size), order: [] };
    const reader = new SseParser((comment) => {
      if (comment === 'connected') resolve(subscriber);
    });
    subscriber.request = http.get(
      `${base}/api/v1/events/stream`,
      { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream refused: HTTP ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const now = Date.now();
          for (const message of reader.push(chunk)) {
            const index = indexOf.get(message.id ?? '');
            if (index === undefined) continue;
            if (subscriber.counts[index] === 0) latencies.push(now - (sentAt[index] as number));
            subscriber.counts[index] = Math.min(255, (subscriber.counts[index] as number) + 1);
            subscriber.order.push(index);
          }
        });
      },
    );
    subscriber.request.on('error', reject);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runBench(async () => {
    const database = await benchDatabase('webhooks_stream');
    try {
      process.stdout.write(
        `${JSON.stringify({ bench: 'webhooks-stream', ...(await measureStream(database.url, (m) => process.stderr.write(`[stream] ${m}\n`))) })}\n`,
      );
    } finally {
      await database.stop();
    }
  });
}
