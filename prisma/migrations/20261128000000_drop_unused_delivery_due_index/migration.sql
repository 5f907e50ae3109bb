-- The fair claim reads pending deliveries by configuration (webhook_deliveries_pending_config_idx); no
-- query reads them by due time alone any more, and every delivery written paid for this index.
DROP INDEX IF EXISTS "webhook_deliveries_due_idx";
