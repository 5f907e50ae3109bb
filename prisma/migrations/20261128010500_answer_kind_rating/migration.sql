-- Answer kinds (docs/answer-kinds.md): every task and golden task has one, `single` for every row that
-- exists, so nothing already stored changes meaning. A label scope has the kind of its tasks: a rating
-- scope's counts are an L×L table over ordered levels, read by the rating model. A decided task's
-- result may carry more than the option (a rating's posterior mean and interval): result_details.
ALTER TABLE "tasks" ADD COLUMN "answer_kind" TEXT NOT NULL DEFAULT 'single',
  ADD COLUMN "result_details" JSONB,
  ADD CONSTRAINT "tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating'));
ALTER TABLE "golden_tasks" ADD COLUMN "answer_kind" TEXT NOT NULL DEFAULT 'single',
  ADD CONSTRAINT "golden_tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating'));
ALTER TABLE "label_scopes" ADD COLUMN "answer_kind" TEXT NOT NULL DEFAULT 'single';

-- sdk_next and sdk_next_batch return the served task's answer kind: a new row type, so they are dropped
-- here and created again by the next migration (from prisma/functions).
DROP FUNCTION "sdk_next_batch"(jsonb, timestamp with time zone, timestamp with time zone, double precision, double precision);
DROP FUNCTION "sdk_next"(text, text, text, text, text, text[], timestamp with time zone, timestamp with time zone, double precision, double precision, double precision);
