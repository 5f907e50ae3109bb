-- Whether a buyer has open tasks of a priority other than 0: sdk_next reorders a buyer's tasks only then, so a queue without priorities costs one probe of this small index more.
-- Built CONCURRENTLY, alone in its migration (it cannot run in a transaction), so task writes go on meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tasks_prioritised_idx" ON "tasks"("buyer_id") WHERE "priority" <> 0 AND "status" IN ('PENDING', 'VALIDATING') AND "held_at" IS NULL;
