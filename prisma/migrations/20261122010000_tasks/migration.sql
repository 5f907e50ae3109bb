-- CreateTable
CREATE TABLE "annotators" (
    "id" TEXT NOT NULL,
    "developer_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "annotators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_responses" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "annotator_id" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "time_spent_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_responses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "buyer_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER,
    "response" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("buyer_id","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "annotators_developer_id_external_id_key" ON "annotators"("developer_id", "external_id");

-- CreateIndex
CREATE INDEX "task_responses_task_id_created_at_idx" ON "task_responses"("task_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "task_responses_task_id_annotator_id_key" ON "task_responses"("task_id", "annotator_id");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- CreateIndex
CREATE INDEX "tasks_buyer_id_status_created_at_id_idx" ON "tasks"("buyer_id", "status", "created_at" DESC, "id" DESC);

-- Partial indexes (not expressible in schema.prisma): only the rows that need them pay for them.
DROP INDEX "tasks_project_id_status_idx";
CREATE INDEX "tasks_project_status_idx" ON "tasks"("project_id", "status") WHERE "project_id" IS NOT NULL;
CREATE INDEX "tasks_completed_type_validated_idx" ON "tasks"("type", "validated_at") WHERE "status" = 'COMPLETED';

-- AddForeignKey
ALTER TABLE "annotators" ADD CONSTRAINT "annotators_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_responses" ADD CONSTRAINT "task_responses_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_responses" ADD CONSTRAINT "task_responses_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "annotators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

