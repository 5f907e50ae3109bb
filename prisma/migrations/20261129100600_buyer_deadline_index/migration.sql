-- A buyer's open tasks that have a deadline, soonest first: what GET /tasks/at-risk reads.
-- Built CONCURRENTLY, alone in its migration (it cannot run in a transaction), so task writes go on meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tasks_buyer_deadline_idx" ON "tasks"("buyer_id", "deadline") WHERE "deadline" IS NOT NULL AND "status" IN ('PENDING', 'VALIDATING');
