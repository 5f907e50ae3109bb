-- BEFORE INSERT trigger of events: numbers every event per buyer from the buyer's counter row
-- (event_sequences), whose row lock is held until the inserting transaction ends. A second transaction
-- numbering an event of the same buyer waits for it, so a buyer's numbers are taken — and become
-- visible — in commit order, without gaps (a rolled-back number is taken again). GET /events/stream
-- reads "the buyer's events after number n" and so can never skip an event that commits late.
-- Every writer takes the buyer's balance row (if at all) before this one: the lock order is buyers →
-- event_sequences (settle_task records its event after the charge for that reason).
CREATE OR REPLACE FUNCTION public.events_number()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO event_sequences AS s (buyer_id, seq) VALUES (NEW.buyer_id, 1)
  ON CONFLICT (buyer_id) DO UPDATE SET seq = s.seq + 1
  RETURNING s.seq INTO NEW.seq;
  RETURN NEW;
END $function$
;
