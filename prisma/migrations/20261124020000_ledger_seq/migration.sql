-- The ledger in commit order (contract §4): every row is numbered per owner (a buyer, or an annotator for
-- EARNING/PAYOUT rows) by a BEFORE INSERT trigger that takes the next number from the owner's counter
-- row. Every insertion follows the UPDATE of the owner's balance in the same transaction, so the owner's
-- row lock is already held when the number is taken and is held until commit: numbers follow commit
-- order, and each row's balance_after_cents is the previous number's plus its own amount. (created_at is
-- the transaction's start time, which concurrent transactions do not commit in.)
CREATE TABLE "ledger_sequences" (
    "owner_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    CONSTRAINT "ledger_sequences_pkey" PRIMARY KEY ("owner_id")
);

ALTER TABLE "ledger_entries" ADD COLUMN "seq" BIGINT NOT NULL DEFAULT 0;

-- Rows from before are numbered in the order they were listed in until now.
WITH numbered AS (
  SELECT id, row_number() OVER (PARTITION BY coalesce(buyer_id, annotator_id) ORDER BY created_at, id) AS n FROM "ledger_entries"
)
UPDATE "ledger_entries" l SET "seq" = numbered.n FROM numbered WHERE numbered.id = l.id;
INSERT INTO "ledger_sequences" ("owner_id", "seq")
SELECT coalesce(buyer_id, annotator_id), max("seq") FROM "ledger_entries" GROUP BY 1;

CREATE UNIQUE INDEX "ledger_entries_buyer_id_seq_key" ON "ledger_entries"("buyer_id", "seq");
CREATE UNIQUE INDEX "ledger_entries_annotator_id_seq_key" ON "ledger_entries"("annotator_id", "seq");

CREATE FUNCTION ledger_entries_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_sequences AS s (owner_id, seq) VALUES (coalesce(NEW.buyer_id, NEW.annotator_id), 1)
  ON CONFLICT (owner_id) DO UPDATE SET seq = s.seq + 1
  RETURNING s.seq INTO NEW.seq;
  RETURN NEW;
END $$;

CREATE TRIGGER ledger_entries_number BEFORE INSERT ON "ledger_entries"
FOR EACH ROW EXECUTE FUNCTION ledger_entries_number();
