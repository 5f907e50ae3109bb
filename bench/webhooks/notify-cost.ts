// What a pg_notify in the outbox's transactions would cost (docs/events.md, "Why polling"): 8 clients
// commit one-row inserts as fast as they can for 5 s, without and with a trigger that notifies, in turn,
// ROUNDS times (medians reported: on a shared machine single runs vary by 2–3×).
// NOTIFY takes a cluster-wide lock at commit and holds it across the WAL flush, so notifying commits
// happen one at a time.
//   npx tsx bench/webhooks/notify-cost.ts   (DATABASE_URL: a server to create concord_bench_notify on)
import pg from 'pg';
import { benchDatabase, percentile, runBench } from '../lib.ts';

const CLIENTS = 8;
const SECONDS = 5;
const ROUNDS = 5;

async function commitsPerSecond(url: string): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  let commits = 0;
  const end = Date.now() + SECONDS * 1_000;
  await Promise.all(
    clients.map(async (client, i) => {
      while (Date.now() < end) {
        await client.query('INSERT INTO notify_bench (buyer_id, payload) VALUES ($1, $2)', [`buyer-${i}`, 'x'.repeat(200)]);
        commits += 1;
      }
    }),
  );
  await Promise.all(clients.map((client) => client.end()));
  return Math.round(commits / SECONDS);
}

runBench(async () => {
  const database = await benchDatabase('notify');
  const setup = new pg.Client({ connectionString: database.url });
  await setup.connect();
  try {
    await setup.query('CREATE TABLE notify_bench (id bigserial PRIMARY KEY, buyer_id text NOT NULL, payload text NOT NULL)');
    await setup.query(
      `CREATE FUNCTION notify_bench() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('events', NEW.buyer_id); RETURN NEW; END $$`,
    );
    const figures: Record<string, number[]> = { withoutNotify: [], withNotify: [] };
    for (let round = 0; round < ROUNDS; round++) {
      await setup.query('DROP TRIGGER IF EXISTS notify_bench ON notify_bench');
      figures.withoutNotify?.push(await commitsPerSecond(database.url));
      await setup.query('CREATE TRIGGER notify_bench BEFORE INSERT ON notify_bench FOR EACH ROW EXECUTE FUNCTION notify_bench()');
      figures.withNotify?.push(await commitsPerSecond(database.url));
    }
    const median = (values: number[] = []) => percentile(values, 50);
    process.stdout.write(
      `${JSON.stringify({ bench: 'notify-cost', clients: CLIENTS, medianWithoutNotify: median(figures.withoutNotify), medianWithNotify: median(figures.withNotify), commitsPerSec: figures })}\n`,
    );
  } finally {
    await setup.end();
    await database.stop();
  }
});
