-- A buyer's own open tasks in the order its priorities give them (sdk_next takes the first that fits when the buyer has prioritised tasks).
-- Built CONCURRENTLY, alone in its migration (it cannot run in a transaction), so task writes go on meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tasks_buyer_queue_idx" ON "tasks"("buyer_id", task_queue_at("created_at", "priority"), "id") WHERE "status" IN ('PENDING', 'VALIDATING') AND "held_at" IS NULL;
