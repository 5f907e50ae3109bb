-- Numbers the events that have no number yet, per buyer, continuing from the buyer's counter
-- (event_sequences), in the order they were created. Called under the settlement-effects applier's
-- advisory lock (src/modules/settlement/applier.ts), so numbering transactions run one at a
-- time: a number is given only to a committed event, and a later call's numbers are larger and become
-- visible after the earlier call's. GET /events/stream reads "the buyer's events after number n" and so
-- never skips one (docs/events.md). Returns how many events it numbered.
CREATE OR REPLACE FUNCTION public.number_events()
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_count integer;
BEGIN
  WITH pending AS (
    SELECT e.id, e.buyer_id, row_number() OVER (PARTITION BY e.buyer_id ORDER BY e.created_at, e.id) AS n
    FROM events e WHERE e.seq IS NULL
  ), per_buyer AS (
    SELECT p.buyer_id, count(*) AS added FROM pending p GROUP BY p.buyer_id
  ), counters AS (
    INSERT INTO event_sequences AS s (buyer_id, seq)
    SELECT b.buyer_id, b.added FROM per_buyer b ORDER BY b.buyer_id
    ON CONFLICT (buyer_id) DO UPDATE SET seq = s.seq + excluded.seq
    RETURNING s.buyer_id, s.seq
  )
  UPDATE events e SET seq = c.seq - b.added + p.n
  FROM pending p JOIN per_buyer b ON b.buyer_id = p.buyer_id JOIN counters c ON c.buyer_id = p.buyer_id
  WHERE e.id = p.id;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $function$
;
