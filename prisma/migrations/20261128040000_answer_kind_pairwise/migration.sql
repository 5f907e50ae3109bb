-- Pairwise tasks (docs/answer-kinds.md): a fourth answer kind. A pairwise task's content is the prompt and
-- `candidates` its two texts ({"A": …, "B": …}); its options are A and B (and tie where ties are allowed),
-- which are also its stored answers and results. Tasks of one `pair_group` are ranked together in exports.
-- Each assignment shows the two candidates in a random order (`swapped`: B first), and each answer keeps
-- the order it was given in, so the model can tell a preference for a side from one for a candidate.
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_answer_kind_check",
  ADD CONSTRAINT "tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating', 'multi', 'pairwise')),
  ADD COLUMN "candidates" JSONB,
  ADD COLUMN "pair_group" TEXT,
  ADD CONSTRAINT "tasks_candidates_check" CHECK (("answer_kind" = 'pairwise') = ("candidates" IS NOT NULL));
ALTER TABLE "golden_tasks" DROP CONSTRAINT "golden_tasks_answer_kind_check",
  ADD CONSTRAINT "golden_tasks_answer_kind_check" CHECK ("answer_kind" IN ('single', 'rating', 'multi', 'pairwise')),
  ADD COLUMN "candidates" JSONB,
  ADD CONSTRAINT "golden_tasks_candidates_check" CHECK (("answer_kind" = 'pairwise') = ("candidates" IS NOT NULL));
ALTER TABLE "assignments" ADD COLUMN "swapped" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "task_responses" ADD COLUMN "swapped" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "golden_responses" ADD COLUMN "swapped" BOOLEAN NOT NULL DEFAULT false;
-- A group's pairs, read together to rank the group's candidates.
CREATE INDEX "tasks_pair_group_idx" ON "tasks" ("buyer_id", "pair_group") WHERE "pair_group" IS NOT NULL;

-- sdk_next takes a second roll (the shown order) and, with sdk_next_batch, returns the candidates as
-- shown: new signatures and row types, so both are dropped here and created again by the next migration
-- (from prisma/functions).
DROP FUNCTION "sdk_next_batch"(jsonb, timestamp with time zone, timestamp with time zone, double precision, double precision);
DROP FUNCTION "sdk_next"(text, text, text, text, text, text[], timestamp with time zone, timestamp with time zone, double precision, double precision, double precision);
