-- The open tasks that have a deadline, soonest first: what the expiry job closes.
-- Built CONCURRENTLY, alone in its migration (it cannot run in a transaction), so task writes go on meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tasks_deadline_idx" ON "tasks"("deadline") WHERE "deadline" IS NOT NULL AND "status" IN ('PENDING', 'VALIDATING');
