-- The month a task's budget is committed in, for the monthly cap: its creation's, or, for a task held by
-- its project's cap, the month it was released in. A nullable column: adding it rewrites no row.
ALTER TABLE "tasks" ADD COLUMN "released_at" TIMESTAMPTZ(3);
