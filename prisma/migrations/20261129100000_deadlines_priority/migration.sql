-- Deadlines and priority (docs/organisations.md, "Deadlines and priority"). Both columns are added
-- without a table rewrite (a constant default); the priority CHECK is NOT VALID here and validated in the
-- next migration, which scans the table without holding off writes.
ALTER TABLE "tasks" ADD COLUMN "deadline" TIMESTAMPTZ(3),
ADD COLUMN "priority" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_priority_check" CHECK ("priority" BETWEEN -10 AND 10) NOT VALID;

ALTER TABLE "projects" ADD COLUMN "default_deadline_hours" INTEGER;
ALTER TABLE "projects" ADD CONSTRAINT "projects_default_deadline_hours_check" CHECK ("default_deadline_hours" BETWEEN 1 AND 8760);
