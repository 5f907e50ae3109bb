-- Indexes for the dashboard's read routes (issue 15), found by EXPLAIN on 1 M tasks / 3 M answers:
-- An event's deliveries (GET /events, the overview's recent events): was a scan of every delivery.
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
-- GET /events?taskId=: the task id lives in the payload the webhook sends.
CREATE INDEX "events_buyer_task_idx" ON "events"("buyer_id", (("payload"::jsonb) ->> 'taskId'));
-- GET /admin/stats/daily: tasks created and answers given per day. Both tables are append-mostly in
-- creation order, so a BRIN index (a few pages, almost free to maintain on the answer path) finds a
-- 30-day window without reading the rest.
CREATE INDEX "tasks_created_at_brin" ON "tasks" USING BRIN ("created_at");
CREATE INDEX "task_responses_created_at_brin" ON "task_responses" USING BRIN ("created_at");
-- … and decided per day: completions and failures by their own time (a completion already rewrites
-- index entries, since validated_at is in tasks_export_completed_idx).
CREATE INDEX "tasks_validated_at_idx" ON "tasks"("validated_at") WHERE "status" = 'COMPLETED';
CREATE INDEX "tasks_failed_at_idx" ON "tasks"("failed_at") WHERE "status" = 'FAILED';
