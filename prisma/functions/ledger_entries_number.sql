-- BEFORE INSERT trigger of ledger_entries: numbers every row per owner (a buyer, or an annotator) from
-- the owner's counter row, in commit order (the owner's balance row is already locked by then).
CREATE OR REPLACE FUNCTION public.ledger_entries_number()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO ledger_sequences AS s (owner_id, seq) VALUES (coalesce(NEW.buyer_id, NEW.annotator_id), 1)
  ON CONFLICT (owner_id) DO UPDATE SET seq = s.seq + 1
  RETURNING s.seq INTO NEW.seq;
  RETURN NEW;
END $function$
;
