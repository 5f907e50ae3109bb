-- A project's cap may hold tasks instead of refusing them (docs/organisations.md, spending caps): its
-- cap_action, and a task's held_at while it waits, neither reserved nor served. A constant default and a
-- nullable column: adding them rewrites no row.
ALTER TABLE "projects" ADD COLUMN "cap_action" TEXT NOT NULL DEFAULT 'refuse';

ALTER TABLE "tasks" ADD COLUMN "held_at" TIMESTAMPTZ(3);

-- NOT VALID then VALIDATE: the check of existing rows holds no lock that stops writes.
ALTER TABLE "projects" ADD CONSTRAINT "projects_cap_action_check" CHECK ("cap_action" IN ('refuse', 'hold')) NOT VALID;
ALTER TABLE "projects" VALIDATE CONSTRAINT "projects_cap_action_check";
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_held_pending_check" CHECK ("held_at" IS NULL OR "status" = 'PENDING') NOT VALID;
ALTER TABLE "tasks" VALIDATE CONSTRAINT "tasks_held_pending_check";
