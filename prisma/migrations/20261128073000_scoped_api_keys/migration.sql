-- Scoped buyer API keys (docs/organisations.md): read or write, limited to projects, with an expiry and
-- the member who created it. Every existing key stays what it was: write, the whole organisation, no
-- expiry (its creator unknown).
ALTER TABLE "buyer_api_keys" ADD COLUMN "access" TEXT NOT NULL DEFAULT 'write',
ADD COLUMN "created_by" TEXT,
ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "project_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

ALTER TABLE "buyer_api_keys" ADD CONSTRAINT "buyer_api_keys_access_check" CHECK ("access" IN ('read', 'write'));
