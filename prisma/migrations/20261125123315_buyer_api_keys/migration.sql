-- Buyer API keys (issue 17): server-to-server credentials that act as their buyer on the buyer routes.
-- Only the SHA-256 digest of a secret is kept (looked up on every request that presents one, hence the
-- unique index), with a short display prefix. Revoked keys keep their row (revoked_at set) and are
-- refused at once by every process: nothing caches them. The per-buyer cap of live keys is counted under
-- the buyer's row lock when a key is created (buyer-api-keys.repository.ts).
CREATE TABLE "buyer_api_keys" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "buyer_api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "buyer_api_keys_name_length" CHECK (char_length("name") BETWEEN 1 AND 100),
    CONSTRAINT "buyer_api_keys_secret_hash_hex" CHECK ("secret_hash" ~ '^[0-9a-f]{64}$')
);

CREATE UNIQUE INDEX "buyer_api_keys_secret_hash_key" ON "buyer_api_keys"("secret_hash");

CREATE INDEX "buyer_api_keys_buyer_id_created_at_idx" ON "buyer_api_keys"("buyer_id", "created_at");

ALTER TABLE "buyer_api_keys" ADD CONSTRAINT "buyer_api_keys_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
