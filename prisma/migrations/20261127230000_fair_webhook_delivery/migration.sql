-- Fair webhook delivery (src/modules/webhooks/delivery.worker.ts): a cap on deliveries in flight per
-- endpoint and per buyer, counted across processes from the leased rows, and an endpoint that keeps
-- failing sent one delivery at a time.
ALTER TABLE "webhook_configs" ADD COLUMN "consecutive_failures" INTEGER NOT NULL DEFAULT 0;

-- The claim visits each configuration with pending deliveries (a skip scan) and takes its oldest due ones.
CREATE INDEX "webhook_deliveries_pending_config_idx" ON "webhook_deliveries"("config_id", "next_attempt_at") WHERE "status" = 'PENDING';

-- The deliveries in flight: leased, not yet recorded (a recorded attempt clears locked_until).
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries"("config_id") WHERE "locked_until" IS NOT NULL;
