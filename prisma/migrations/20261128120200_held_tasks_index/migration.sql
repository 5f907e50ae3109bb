-- A project's held tasks in creation order: what setting its cap again releases first.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tasks_held_idx" ON "tasks"("project_id", "created_at", "id") WHERE "held_at" IS NOT NULL;
