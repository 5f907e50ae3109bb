-- An event of the outbox and one delivery per active webhook of the buyer that subscribes to its type.
-- EventsRepository.record and the settlement both call it, so the outbox's SQL exists once.
CREATE OR REPLACE FUNCTION public.record_event(p_id text, p_buyer_id text, p_type text, p_payload text, p_delivery_ids text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  WITH event AS (
    INSERT INTO events (id, buyer_id, type, payload) VALUES (p_id, p_buyer_id, p_type, p_payload) RETURNING id
  )
  INSERT INTO webhook_deliveries (id, event_id, config_id)
  SELECT p_delivery_ids[row_number() OVER (ORDER BY c.id)], event.id, c.id
  FROM event, webhook_configs c
  WHERE c.buyer_id = p_buyer_id AND c.is_active AND p_type = ANY (c.events);
END $function$
;
