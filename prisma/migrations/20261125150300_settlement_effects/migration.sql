-- Decisions no longer write the buyer's, the annotators' or the buyer's event-counter rows in their own
-- transaction: settle_task leaves one settlement_effects row and apply_settlement_effects applies it
-- (docs/hot-path.md). Events are numbered by number_events under the same applier lock instead of by
-- a trigger holding the buyer's counter row until COMMIT.
CREATE TABLE "settlement_effects" (
    "id" BIGSERIAL NOT NULL,
    "task_id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "effect" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failed_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    CONSTRAINT "settlement_effects_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "settlement_effects_task_id_key" ON "settlement_effects"("task_id");
-- The effects that failed, read after the others (empty but for bad data or long lock waits).
CREATE INDEX "settlement_effects_failed" ON "settlement_effects" ("id") WHERE "failed_at" IS NOT NULL;

DROP TRIGGER events_number ON "events";
DROP FUNCTION public.events_number();
ALTER TABLE "events" ALTER COLUMN "seq" DROP NOT NULL, ALTER COLUMN "seq" DROP DEFAULT;
CREATE INDEX "events_unnumbered" ON "events" ("created_at", "id") WHERE "seq" IS NULL;

-- The low-balance parameters and the balance column are gone: the applier records budget.low.
DROP FUNCTION public.sdk_answer_batch(jsonb);
DROP FUNCTION public.sdk_answer(text, text, text, text, text, integer, text, timestamp with time zone, integer, jsonb, bigint, boolean);
DROP FUNCTION public.settle_task(text, text, text, integer, text, timestamp with time zone, jsonb, bigint, boolean);
