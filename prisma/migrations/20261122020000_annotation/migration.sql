-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('PENDING', 'PAID', 'REJECTED');

-- CreateEnum
CREATE TYPE "PayoutMethod" AS ENUM ('mobile_money', 'paypal', 'bank_transfer');

-- AlterTable
ALTER TABLE "annotators" ADD COLUMN     "agreed_responses" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "earned_cents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "golden_answered" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "golden_answered_base" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "golden_correct" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "golden_correct_base" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "paid_out_cents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "pending_payout_cents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "resolved_responses" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "suspended" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "total_responses" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "annotator_id" TEXT,
ALTER COLUMN "buyer_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "golden_tasks" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "project_id" TEXT,
    "type" "TaskType" NOT NULL,
    "content" TEXT NOT NULL,
    "options" TEXT[],
    "golden_answer" TEXT NOT NULL,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "times_served" INTEGER NOT NULL DEFAULT 0,
    "times_correct" INTEGER NOT NULL DEFAULT 0,
    "times_answered" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "golden_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "golden_responses" (
    "id" TEXT NOT NULL,
    "golden_task_id" TEXT NOT NULL,
    "annotator_id" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "time_spent_ms" INTEGER NOT NULL,
    "correct" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "golden_responses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assignments" (
    "annotator_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "task_id" TEXT,
    "golden_task_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assignments_pkey" PRIMARY KEY ("annotator_id")
);

-- CreateTable
CREATE TABLE "payouts" (
    "id" TEXT NOT NULL,
    "annotator_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "method" "PayoutMethod" NOT NULL,
    "destination" TEXT NOT NULL,
    "status" "PayoutStatus" NOT NULL DEFAULT 'PENDING',
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "golden_tasks_buyer_id_type_locale_idx" ON "golden_tasks"("buyer_id", "type", "locale");

-- CreateIndex
CREATE UNIQUE INDEX "golden_responses_golden_task_id_annotator_id_key" ON "golden_responses"("golden_task_id", "annotator_id");

-- CreateIndex
CREATE UNIQUE INDEX "assignments_id_key" ON "assignments"("id");

-- CreateIndex
CREATE INDEX "assignments_task_id_expires_at_idx" ON "assignments"("task_id", "expires_at");

-- CreateIndex
CREATE INDEX "payouts_annotator_id_created_at_idx" ON "payouts"("annotator_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payouts_status_created_at_idx" ON "payouts"("status", "created_at");

-- CreateIndex
CREATE INDEX "events_buyer_id_created_at_idx" ON "events"("buyer_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_entries_annotator_id_created_at_idx" ON "ledger_entries"("annotator_id", "created_at");

-- AddForeignKey
ALTER TABLE "golden_tasks" ADD CONSTRAINT "golden_tasks_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "golden_tasks" ADD CONSTRAINT "golden_tasks_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "golden_responses" ADD CONSTRAINT "golden_responses_golden_task_id_fkey" FOREIGN KEY ("golden_task_id") REFERENCES "golden_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "golden_responses" ADD CONSTRAINT "golden_responses_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_golden_task_id_fkey" FOREIGN KEY ("golden_task_id") REFERENCES "golden_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Invariants the database keeps whatever the application does.
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_one_owner" CHECK (("buyer_id" IS NULL) <> ("annotator_id" IS NULL));
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_one_target" CHECK (("task_id" IS NULL) <> ("golden_task_id" IS NULL));
ALTER TABLE "annotators" ADD CONSTRAINT "annotators_earnings_cover_payouts" CHECK ("pending_payout_cents" >= 0 AND "paid_out_cents" >= 0 AND "earned_cents" - "paid_out_cents" - "pending_payout_cents" >= 0);
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_amount_positive" CHECK ("amount_cents" > 0);
-- The work queue: open tasks in creation order (next hands out the oldest that fits).
CREATE INDEX "tasks_open_queue_idx" ON "tasks"("created_at", "id") WHERE "status" IN ('PENDING', 'VALIDATING');
