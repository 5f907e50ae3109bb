-- The monthly cap's sum reads a month's released tasks by this (its created tasks by the buyer's
-- created_at index). Built CONCURRENTLY, alone in its migration.
CREATE INDEX CONCURRENTLY "tasks_released_idx" ON "tasks"("buyer_id", "released_at") WHERE "released_at" IS NOT NULL;
