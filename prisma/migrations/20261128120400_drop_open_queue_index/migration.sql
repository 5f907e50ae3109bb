-- sdk_next reads tasks_served_queue_idx since the migration before this one: the older queue index only
-- costs writes now.
DROP INDEX CONCURRENTLY IF EXISTS "tasks_open_queue_idx";
