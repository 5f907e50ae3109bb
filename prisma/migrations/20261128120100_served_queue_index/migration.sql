-- The work queue without held tasks (sdk_next reads it with held_at IS NULL): held tasks are the oldest
-- open ones, and a queue index holding them would make every next call step over all of them. Built
-- CONCURRENTLY, alone in its migration (it cannot run in a transaction), so task writes go on meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tasks_served_queue_idx" ON "tasks"("created_at", "id") WHERE "status" IN ('PENDING', 'VALIDATING') AND "held_at" IS NULL;
