-- Every buyer has its founder as an owner, held by the database: a buyer row inserted by any code (a
-- server from before organisations still running while this migrates, a script) gets its owner row in
-- the same transaction. The backfill again catches any buyer registered between the memberships
-- migration and this one by a server that did not know memberships yet.
CREATE OR REPLACE FUNCTION public.buyers_founder_owner()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO memberships (account_id, buyer_id, role, created_at)
  VALUES (NEW.id, NEW.id, 'owner', NEW.created_at)
  ON CONFLICT DO NOTHING;
  RETURN NEW;
END $function$
;

CREATE TRIGGER "buyers_founder_owner" AFTER INSERT ON "buyers"
FOR EACH ROW EXECUTE FUNCTION public.buyers_founder_owner();

INSERT INTO "memberships" ("account_id", "buyer_id", "role", "created_at")
SELECT "id", "id", 'owner', "created_at" FROM "buyers"
ON CONFLICT DO NOTHING;
