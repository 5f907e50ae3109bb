-- Invitations to an organisation (docs/organisations.md): a one-use link by e-mail, valid 7 days, that
-- makes its holder a member with the invitation's role.

-- CreateTable
CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "buyer_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by" TEXT,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_buyer_id_created_at_idx" ON "invitations"("buyer_id", "created_at");

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One pending invitation per organisation and address: inviting again replaces the pending one (in the
-- same transaction), so two concurrent invitations cannot both stay usable.
CREATE UNIQUE INDEX "invitations_one_pending" ON "invitations" ("buyer_id", "email") WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_token_hash_hex" CHECK ("token_hash" ~ '^[0-9a-f]{64}$');
