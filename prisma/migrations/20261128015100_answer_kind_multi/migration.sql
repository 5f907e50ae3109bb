-- Multi-select tasks (docs/answer-kinds.md): a third answer kind, and whether a task (or golden task)
-- takes the empty set as an answer. A multi-select answer, golden answer and result are stored as the
-- JSON array of the options chosen, in the task's option order (task_answer).
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_answer_kind_check",
  ADD CONSTRAINT "tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating', 'multi')),
  ADD COLUMN "allow_empty" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "golden_tasks" DROP CONSTRAINT "golden_tasks_answer_kind_check",
  ADD CONSTRAINT "golden_tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating', 'multi')),
  ADD COLUMN "allow_empty" BOOLEAN NOT NULL DEFAULT false;

-- sdk_answer takes a multi-select answer's set (p_choices) and returns the task's kind; sdk_answer_batch
-- returns what it returns: new signatures and row types, so both are dropped here and created again by the
-- next migration (from prisma/functions).
DROP FUNCTION "sdk_answer_batch"(jsonb, double precision, double precision);
DROP FUNCTION "sdk_answer"(text, text, text, text, text, integer, text, timestamp with time zone, integer, jsonb);
