-- Checkout pages are reached by an unguessable checkout id (contract §6), not by the deposit id: the
-- deposit keeps only the SHA-256 digest of it, so reading the table does not yield working links.
ALTER TABLE "deposits" ADD COLUMN "checkout_digest" TEXT;

-- Deposits from before: a fresh random checkout id (two random UUIDs, 244 random bits) each. A PENDING
-- sandbox deposit's checkoutUrl moves to it, so its owner can still pay (GET /billing/deposits shows the
-- new URL); the old URL, which named the deposit id, stops working.
WITH fresh AS (
  SELECT id, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') AS token FROM "deposits"
)
UPDATE "deposits" d
SET "checkout_digest" = encode(sha256(convert_to(fresh.token, 'UTF8')), 'hex'),
    "checkout_url" = CASE WHEN d."provider" = 'sandbox'
                          THEN regexp_replace(d."checkout_url", '/sandbox/checkout/[^/]*$', '/sandbox/checkout/' || fresh.token)
                          ELSE d."checkout_url" END
FROM fresh WHERE fresh.id = d.id;

ALTER TABLE "deposits" ALTER COLUMN "checkout_digest" SET NOT NULL;
CREATE UNIQUE INDEX "deposits_checkout_digest_key" ON "deposits"("checkout_digest");
