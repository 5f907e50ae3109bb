-- Idempotency keys on every creating POST, for every kind of account (contract §4): the key's owner is
-- the calling account (a buyer's, a developer's or the admin's id; buyer and developer ids are account
-- ids), no longer only a buyer. Existing keys keep working: a buyer's id is its account id.
ALTER TABLE "idempotency_keys" RENAME COLUMN "buyer_id" TO "account_id";
