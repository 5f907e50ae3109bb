-- Webhook delivery, second version (issue 18 items 1, 2, 5, 6; README, Webhooks).
-- retry_policy: `spec` (contract §7: one retry after 30 s, none on a 4xx; every existing configuration
-- keeps it) or `extended` (8 attempts over about a day, 408/429 retried, auto-disable after 3 days of
-- failures). previous_secret: the secret before the last rotate-secret, which still signs the Standard
-- Webhooks header until previous_secret_expires_at (24 h after the rotation). failing_since: for extended
-- configurations, the first failed attempt since the last delivered one. disabled_at/disabled_reason:
-- set when the service disabled the configuration itself, cleared when the buyer re-activates it.
CREATE TYPE "WebhookRetryPolicy" AS ENUM ('spec', 'extended');

ALTER TABLE "webhook_configs"
    ADD COLUMN "retry_policy" "WebhookRetryPolicy" NOT NULL DEFAULT 'spec',
    ADD COLUMN "previous_secret" TEXT,
    ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "failing_since" TIMESTAMPTZ(3),
    ADD COLUMN "disabled_at" TIMESTAMPTZ(3),
    ADD COLUMN "disabled_reason" TEXT,
    ADD CONSTRAINT "webhook_configs_previous_secret_expiry" CHECK (("previous_secret" IS NULL) = ("previous_secret_expires_at" IS NULL)),
    ADD CONSTRAINT "webhook_configs_disabled_reason" CHECK (("disabled_at" IS NULL) = ("disabled_reason" IS NULL));
