-- Text tasks (docs/answer-kinds.md): a fifth answer kind, a written answer of at most `max_length`
-- characters (text tasks only). Its consensus is a second stage: once a text task has its written answers,
-- a review task (single choice: which of them is best) is opened for other annotators, a task of its own
-- with `review_of` naming the text task (one review per text task); its decision decides the text task.
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_answer_kind_check",
  ADD CONSTRAINT "tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating', 'multi', 'pairwise', 'text')),
  ADD COLUMN "max_length" INTEGER,
  ADD COLUMN "review_of" TEXT,
  ADD CONSTRAINT "tasks_max_length_check" CHECK (("answer_kind" = 'text') = ("max_length" IS NOT NULL)),
  ADD CONSTRAINT "tasks_review_of_fkey" FOREIGN KEY ("review_of") REFERENCES "tasks"("id") ON DELETE CASCADE;
CREATE UNIQUE INDEX "tasks_review_of_key" ON "tasks" ("review_of");

-- sdk_next and sdk_next_batch return the served task's maxLength: a new row type, so they are dropped here
-- and created again by the next migration (from prisma/functions).
DROP FUNCTION "sdk_next_batch"(jsonb, timestamp with time zone, timestamp with time zone, double precision, double precision);
DROP FUNCTION "sdk_next"(text, text, text, text, text, text[], timestamp with time zone, timestamp with time zone, double precision, double precision, double precision, double precision);
