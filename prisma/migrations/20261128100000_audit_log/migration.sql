-- The audit log (docs/organisations.md): one row per change a person or an API key made to an
-- organisation, appended in the change's transaction. A new table, so nothing existing moves.
-- CreateTable
CREATE TABLE "audit_log" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" TEXT NOT NULL,
    "actor_account_id" TEXT,
    "actor_key_id" TEXT,
    "ip" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_log_buyer_id_at_id_idx" ON "audit_log"("buyer_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_log_buyer_id_target_id_idx" ON "audit_log"("buyer_id", "target_id");

-- CreateIndex
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_kind_check" CHECK (
  ("actor_kind" = 'apiKey' AND "actor_key_id" IS NOT NULL AND "actor_account_id" IS NULL)
  OR ("actor_kind" IN ('member', 'admin') AND "actor_account_id" IS NOT NULL AND "actor_key_id" IS NULL)
);

CREATE OR REPLACE FUNCTION public.audit_log_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.at < now() - interval '400 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING HINT = 'Only rows older than 400 days may be deleted.';
END $function$
;

CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
FOR EACH ROW EXECUTE FUNCTION public.audit_log_append_only();

CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
FOR EACH STATEMENT EXECUTE FUNCTION public.audit_log_append_only();
