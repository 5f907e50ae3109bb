// The rows the service writes for webhook events, written straight into the outbox by the webhook benches:
// `count` budget.low events of a buyer, each with one delivery per configuration, due now.
import type pg from 'pg';
import { newEventId, newId } from '../../src/lib/ids.ts';

export async function queueBudgetLowEvents(client: pg.Client, buyerId: string, configIds: readonly string[], count: number): Promise<void> {
  const eventIds = Array.from({ length: count }, newEventId);
  const deliveries = eventIds.flatMap((eventId) => configIds.map((configId) => ({ id: newId(), eventId, configId })));
  await client.query(
    `WITH e AS (
       INSERT INTO events (id, buyer_id, type, payload)
       SELECT id, $2, 'budget.low', json_build_object('event', 'budget.low', 'creditBalance', n, 'thresholdCents', 500,
              'at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
       FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) RETURNING id)
     INSERT INTO webhook_deliveries (id, event_id, config_id)
     SELECT d.id, e.id, d.config_id FROM unnest($3::text[], $4::text[], $5::text[]) AS d(id, event_id, config_id) JOIN e ON e.id = d.event_id`,
    [eventIds, buyerId, deliveries.map((d) => d.id), deliveries.map((d) => d.eventId), deliveries.map((d) => d.configId)],
  );
}
