-- Spending caps (docs/organisations.md): a project's budget cap and the organisation's monthly cap, each
-- with the moment it first refused work (budget.cap_reached once per crossing). Nullable columns without
-- defaults: adding them rewrites no row and takes no lasting lock.
-- AlterTable
ALTER TABLE "buyers" ADD COLUMN     "monthly_cap_cents" BIGINT,
ADD COLUMN     "monthly_cap_reached_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "budget_cap_cents" BIGINT,
ADD COLUMN     "cap_reached_at" TIMESTAMPTZ(3);

-- NOT VALID then VALIDATE: the check of existing rows (all null) holds no lock that stops writes.
ALTER TABLE "projects" ADD CONSTRAINT "projects_budget_cap_cents_check" CHECK ("budget_cap_cents" >= 0) NOT VALID;
ALTER TABLE "projects" VALIDATE CONSTRAINT "projects_budget_cap_cents_check";
ALTER TABLE "buyers" ADD CONSTRAINT "buyers_monthly_cap_cents_check" CHECK ("monthly_cap_cents" >= 0) NOT VALID;
ALTER TABLE "buyers" VALIDATE CONSTRAINT "buyers_monthly_cap_cents_check";
