-- A project's default answer kind (docs/answer-kinds.md): the kind its tasks take when they name none. Only
-- the kinds whose tasks carry options like single choice's (single, rating, multi): a default of pairwise
-- or text would change which fields a request needs. NULL: single choice.
ALTER TABLE "projects" ADD COLUMN "default_answer_kind" TEXT,
  ADD CONSTRAINT "projects_default_answer_kind_check" CHECK ("default_answer_kind" IN ('single', 'rating', 'multi'));
