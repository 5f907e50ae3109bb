-- Organisations (docs/organisations.md): a buyer row is an organisation and people are its members, each
-- with one role. Every buyer so far is one person's: it gets that person as its owner, so every token,
-- key and resource keeps acting exactly as before. No resource row moves (the organisation keeps the
-- buyer's id); the backfill is one INSERT … SELECT, safe while the service runs.

-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'admin', 'member', 'billing', 'viewer');

-- CreateTable
CREATE TABLE "memberships" (
    "account_id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "invited_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("account_id","buyer_id")
);

-- CreateIndex
CREATE INDEX "memberships_buyer_id_idx" ON "memberships"("buyer_id");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The founders, as owners (an account and its personal organisation share their id).
INSERT INTO "memberships" ("account_id", "buyer_id", "role", "created_at")
SELECT "id", "id", 'owner', "created_at" FROM "buyers"
ON CONFLICT DO NOTHING;
