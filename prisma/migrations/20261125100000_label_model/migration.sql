-- The learned label model (issue 16, CONTRACT §3 and §5).
--
-- A project may set its own quality settings (null: the service's defaults); a task copies the effective
-- ones when it is created, so later changes to the project apply to tasks created afterwards.
ALTER TABLE "projects" ADD COLUMN "target_confidence" DOUBLE PRECISION, ADD COLUMN "max_responses" INTEGER;
ALTER TABLE "projects" ADD CONSTRAINT "projects_target_confidence_check" CHECK ("target_confidence" BETWEEN 0.5 AND 0.999);
ALTER TABLE "projects" ADD CONSTRAINT "projects_max_responses_check" CHECK ("max_responses" BETWEEN 2 AND 50);
-- Tasks created before the model keep their maxResponses and take the new default target. The service
-- always writes the task's effective target; the default is CONSENSUS_THRESHOLD's.
ALTER TABLE "tasks" ADD COLUMN "target_confidence" DOUBLE PRECISION NOT NULL DEFAULT 0.95;

-- A scope: the tasks whose answers teach one set of confusion matrices — a project's, or the buyer's
-- project-less tasks with one option set (label_scope_key). `options` is the scope's option set in the
-- order its matrices are indexed by (sorted, collation "C"); a task of the scope with another option set
-- uses the one-coin form. The prior is the contract's r0 = 0.7 until a re-fit replaces it with the
-- scope's population prior. `refit_answers`: the counted answers (Σ annotator_scope_counts.answered)
-- when the last re-fit read the scope; the re-fit job runs again once they have grown by 5 % or an hour
-- has passed with any growth.
CREATE TABLE "label_scopes" (
    "key" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "project_id" TEXT,
    "options" TEXT[] NOT NULL,
    "prior_reliability" DOUBLE PRECISION NOT NULL DEFAULT 0.7,
    "prior_shape" DOUBLE PRECISION[],
    "refit_answers" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "refitted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "label_scopes_pkey" PRIMARY KEY ("key")
);
ALTER TABLE "label_scopes" ADD CONSTRAINT "label_scopes_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "label_scopes" ADD CONSTRAINT "label_scopes_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One annotator's soft counts in one scope (src/consensus/label-model.ts AnnotatorCounts): the K×K
-- matrix row-major (row = true option, column = answer), the soft count of right answers, and the
-- answers behind it. Moved by every decided task (by its posterior) and golden answer (by one whole
-- count), replaced by a re-fit.
CREATE TABLE "annotator_scope_counts" (
    "scope_key" TEXT NOT NULL,
    "annotator_id" TEXT NOT NULL,
    "matrix" DOUBLE PRECISION[] NOT NULL,
    "correct" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "answered" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "annotator_scope_counts_pkey" PRIMARY KEY ("scope_key", "annotator_id")
);
ALTER TABLE "annotator_scope_counts" ADD CONSTRAINT "annotator_scope_counts_scope_key_fkey" FOREIGN KEY ("scope_key") REFERENCES "label_scopes"("key") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "annotator_scope_counts" ADD CONSTRAINT "annotator_scope_counts_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- An annotator's rows (cascade on delete).
CREATE INDEX "annotator_scope_counts_annotator_id_idx" ON "annotator_scope_counts"("annotator_id");

-- The option set of a scope, in the order its matrices use (collation "C": the same in every database).
CREATE FUNCTION label_scope_options(p_options text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT o FROM unnest(p_options) o ORDER BY o COLLATE "C")
$$;

-- The scope of a task or golden task: its project's, else the buyer's tasks with the same option set.
CREATE FUNCTION label_scope_key(p_project_id text, p_buyer_id text, p_options text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_project_id IS NOT NULL THEN 'project:' || p_project_id
              ELSE 'options:' || p_buyer_id || ':' || md5(to_jsonb(label_scope_options(p_options))::text) END
$$;

-- Element-wise a + b (a NULL array counts as zeros): how soft counts are added.
CREATE FUNCTION label_counts_add(a double precision[], b double precision[]) RETURNS double precision[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), '{}') FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
