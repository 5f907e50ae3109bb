-- Result review (docs/organisations.md, "Result review"): a buyer may reject a completed result once, within
-- 7 days; the task reopens (revision 2) and the rejected result is kept beside it. The ledger gains the
-- buyer's REFUND of the rejected result's charge and the annotators' EARNING_REVERSAL of what they earned
-- on it. The new enum values are not used in this migration (ADD VALUE's rule in a transaction), and the
-- columns are added without a table rewrite (a constant default, or none).
ALTER TYPE "LedgerType" ADD VALUE 'REFUND';
ALTER TYPE "LedgerType" ADD VALUE 'EARNING_REVERSAL';

ALTER TABLE "tasks" ADD COLUMN "revision" SMALLINT NOT NULL DEFAULT 1,
ADD COLUMN "rejected_at" TIMESTAMPTZ(3),
ADD COLUMN "rejection_reason" TEXT,
ADD COLUMN "rejected_result" TEXT,
ADD COLUMN "rejected_confidence" DOUBLE PRECISION;
