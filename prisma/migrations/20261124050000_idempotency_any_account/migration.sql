-- Idempotency keys on every creating POST, for every kind of account (contract §4): the key's owner is
-- the calling account (a buyer's, a developer's or the admin's id; buyer and developer ids are account
-- ids), no longer only a buyer. Existing keys keep working: a buyer's id is its account id.
ALTER TABLE "idempotency_keys" RENAME COLUMN "buyer_id" TO "account_id";

-- Keys are kept as their SHA-256 (hex) and new responses are sealed (see idempotency.service.ts), so the
-- table reveals neither a client's keys nor a secret a response carried. Responses stored before stay
-- readable as they are and expire within 24 hours.
UPDATE "idempotency_keys" SET "key" = encode(sha256(convert_to("key", 'UTF8')), 'hex');
