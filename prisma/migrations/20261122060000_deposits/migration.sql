-- CreateEnum
CREATE TYPE "DepositStatus" AS ENUM ('PENDING', 'SUCCEEDED', 'CANCELLED', 'FAILED');

-- CreateEnum
CREATE TYPE "DepositMethod" AS ENUM ('card', 'mobile_money');

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "deposit_id" TEXT;

-- CreateTable
CREATE TABLE "deposits" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "bonus_cents" INTEGER NOT NULL,
    "method" "DepositMethod" NOT NULL,
    "status" "DepositStatus" NOT NULL DEFAULT 'PENDING',
    "provider" TEXT NOT NULL,
    "provider_ref" TEXT,
    "checkout_url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "deposits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "deposits_buyer_id_created_at_id_idx" ON "deposits"("buyer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_deposit_id_type_key" ON "ledger_entries"("deposit_id", "type");

-- AddForeignKey
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Invariants the database keeps whatever the application does.
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_amount_range" CHECK ("amount_cents" BETWEEN 500 AND 10000000);
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_bonus_non_negative" CHECK ("bonus_cents" >= 0);
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_decided_when_not_pending" CHECK (("status" = 'PENDING') = ("decided_at" IS NULL));
-- A provider reference names one deposit (a Stripe session is never reused).
CREATE UNIQUE INDEX "deposits_provider_ref_key" ON "deposits"("provider", "provider_ref") WHERE "provider_ref" IS NOT NULL;
