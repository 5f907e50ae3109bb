-- BEFORE UPDATE, DELETE and TRUNCATE trigger of audit_log: the log is append-only (docs/organisations.md).
-- Nothing changes a row; a row is deleted only once it is older than AUDIT_RETENTION_DAYS (400), so every
-- row is kept at least a year whatever code, job or script runs the DELETE.
CREATE OR REPLACE FUNCTION public.audit_log_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.at < now() - interval '400 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING HINT = 'Only rows older than 400 days may be deleted.';
END $function$
;
