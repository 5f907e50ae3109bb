-- AFTER INSERT trigger of buyers: every buyer has its founder (the account it shares its id with) as an
-- owner from its first transaction on, whatever code inserted it (docs/organisations.md).
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
