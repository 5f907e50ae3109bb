-- The reputation an app reads is a snapshot (contract §5): recomputed at most every
-- REPUTATION_SNAPSHOT_MS, so an answer to a golden task does not move anything an app can read right
-- after it. One row per annotator, shared by every server process.
CREATE TABLE "reputation_snapshots" (
    "annotator_id" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "as_of" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "reputation_snapshots_pkey" PRIMARY KEY ("annotator_id"),
    CONSTRAINT "reputation_snapshots_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
