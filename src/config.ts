// The only reader of the environment. Every variable is parsed once with zod; a bad value stops
// start-up with a message that names the variable.
import { z } from 'zod';
import { passwordSchema, TARGET_CONFIDENCE_MAX, TARGET_CONFIDENCE_MIN } from '@concord/contract';

const booleanString = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((value) => value === 'true' || value === '1');

const integer = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

/** A decimal from min to max inclusive (0 to 1 unless told). */
const fraction = ({ min = 0, max = 1 } = {}) =>
  z.coerce.number({ error: 'must be a number' }).refine((n) => n >= min && n <= max, { error: `must be a decimal between ${min} and ${max}` });

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/.+/, { error: 'must be a postgres:// or postgresql:// URL' });

const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s/]+/, { error: 'must be an absolute http(s) URL' })
  .transform((url) => url.replace(/\/+$/, ''));

/** express `trust proxy`: a boolean, a hop count, or a list of addresses/subnets. */
const trustProxy = z.string().transform((value): boolean | number | string => {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value;
});

/** contract §5: the chance `next` serves a golden task once an annotator has answered one, and while it has answered none. */
export const DEFAULT_GOLDEN_RATE = 0.1;
export const DEFAULT_GOLDEN_FIRST_RATE = 0.5;

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: integer(0, 65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  DATABASE_URL: postgresUrl.optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  EMBEDDED_PG_PORT: integer(1, 65535).default(54320),
  DATABASE_POOL_SIZE: integer(1, 200).default(10),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ADMIN_EMAIL: z
    .string()
    .trim()
    .pipe(z.email({ error: 'must be an e-mail address' }))
    .optional(),
  ADMIN_PASSWORD: passwordSchema.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, { error: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Concord <no-reply@concord.local>'),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, { error: 'must be a Stripe secret key (sk_test_…, sk_live_…)' })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, { error: 'must be a Stripe webhook signing secret (whsec_…)' })
    .optional(),
  PRICE_CENTS: integer(1, 100_000).default(20),
  // contract §5: the default target confidence, bounded like a project's own (contract §3).
  CONSENSUS_THRESHOLD: fraction({ min: TARGET_CONFIDENCE_MIN, max: TARGET_CONFIDENCE_MAX }).default(0.95),
  ASSIGNMENT_TTL_MS: integer(1_000, 86_400_000).default(600_000),
  GOLDEN_RATE: fraction().default(DEFAULT_GOLDEN_RATE),
  GOLDEN_FIRST_RATE: fraction().default(DEFAULT_GOLDEN_FIRST_RATE),
  ANNOTATOR_SHARE: fraction().default(0.5),
  WEBHOOK_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  WEBHOOK_RETRY_DELAY_MS: integer(0, 86_400_000).default(30_000),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.optional(),
  RATE_LIMIT_MAX: integer(1, 1_000_000).default(100),
  RATE_LIMIT_WINDOW_MS: integer(1_000, 86_400_000).default(900_000),
  TRUST_PROXY: trustProxy.default(false),
  PUBLIC_URL: httpUrl.optional(),
  ALLOW_SANDBOX_PAYMENTS: booleanString.optional(),
  REPUTATION_SNAPSHOT_MS: integer(0, 7 * 86_400_000).default(3_600_000),
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).max(256).optional(),
  EVENT_STREAM_POLL_MS: integer(10, 10_000).default(100),
  EVENT_STREAM_HEARTBEAT_MS: integer(100, 300_000).default(15_000),
  EVENT_STREAM_MAX_PER_BUYER: integer(1, 10_000).default(20),
  EVENT_STREAM_MAX_PER_ADDRESS: integer(1, 100_000).default(50),
  EVENT_STREAM_MAX: integer(1, 100_000).default(2_000),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly port: number;
  readonly logLevel: string;
  /**
   * pretty: short coloured lines for a person (pino-pretty); json: one JSON object per line. auto: pretty
   * in development when the output is a terminal, json otherwise (production, pipes, files, tests).
   */
  readonly logFormat: 'auto' | 'pretty' | 'json';
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly embeddedPgPort: number;
  /** Connections of the raw-SQL pool (the answer path, ingest); Prisma's pool has as many. */
  readonly databasePoolSize: number;
  /** Undefined only outside production: server start-up then keeps a generated one under dataDir. */
  readonly jwtSecret: string | undefined;
  readonly admin: { readonly email: string; readonly password: string } | undefined;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly paymentProvider: 'sandbox' | 'stripe';
  /** Set (both) exactly when paymentProvider is stripe. */
  readonly stripe: { readonly secretKey: string; readonly webhookSecret: string } | undefined;
  readonly priceCents: number;
  readonly consensusThreshold: number;
  readonly assignmentTtlMs: number;
  readonly goldenRate: number;
  /** contract §5: the chance of a golden task while an annotator has answered none (never certain: throwaway ids would list them). */
  readonly goldenFirstRate: number;
  readonly annotatorShare: number;
  readonly webhookTimeoutMs: number;
  readonly webhookRetryDelayMs: number;
  readonly webhookAllowPrivateUrls: boolean;
  readonly rateLimit: { readonly max: number; readonly windowMs: number };
  readonly trustProxy: boolean | number | string;
  readonly publicUrl: string;
  /** contract §5: how long a reputation snapshot is served before it is recomputed (0 = live). */
  readonly reputationSnapshotMs: number;
  /** contract §10: required as a bearer token on /metrics in production; /metrics is 404 there without it. */
  readonly metricsToken: string | undefined;
  /** GET /events/stream: how often a process reads new events, heartbeat period, and its caps. */
  readonly eventStream: {
    readonly pollMs: number;
    readonly heartbeatMs: number;
    readonly maxPerBuyer: number;
    readonly maxPerAddress: number;
    readonly max: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default) into a frozen Config, or throws ConfigError. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // An empty variable counts as unset, as in most twelve-factor tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (env.NODE_ENV === 'production' && !env.JWT_SECRET) problems.push('JWT_SECRET: is required in production');
  // The embedded PostgreSQL is a development convenience (and a development dependency, absent from the image).
  if (env.NODE_ENV === 'production' && !env.DATABASE_URL) problems.push('DATABASE_URL: is required in production (the embedded PostgreSQL is for development)');
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    problems.push(`${env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'}: ADMIN_EMAIL and ADMIN_PASSWORD go together`);
  }
  const paymentProvider = env.PAYMENT_PROVIDER ?? (env.NODE_ENV === 'production' ? 'stripe' : 'sandbox');
  if (paymentProvider === 'stripe') {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!env[name]) problems.push(`${name}: is required when PAYMENT_PROVIDER is stripe (the default in production)`);
    }
  }
  // contract §6: the sandbox lets anyone credit an account with a button, so production refuses it
  // unless the operator says in so many words that its credits are not real money.
  if (paymentProvider === 'sandbox' && env.NODE_ENV === 'production' && !env.ALLOW_SANDBOX_PAYMENTS) {
    problems.push(
      'PAYMENT_PROVIDER: sandbox is refused in production, where anyone could credit an account without paying; use stripe, or set ALLOW_SANDBOX_PAYMENTS=true for a demo whose credits are not real money',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    env: env.NODE_ENV,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    jwtSecret: env.JWT_SECRET,
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? Object.freeze({ email: env.ADMIN_EMAIL.toLowerCase(), password: env.ADMIN_PASSWORD }) : undefined,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    paymentProvider,
    stripe:
      paymentProvider === 'stripe' && env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? Object.freeze({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET })
        : undefined,
    priceCents: env.PRICE_CENTS,
    consensusThreshold: env.CONSENSUS_THRESHOLD,
    assignmentTtlMs: env.ASSIGNMENT_TTL_MS,
    goldenRate: env.GOLDEN_RATE,
    goldenFirstRate: env.GOLDEN_FIRST_RATE,
    annotatorShare: env.ANNOTATOR_SHARE,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookRetryDelayMs: env.WEBHOOK_RETRY_DELAY_MS,
    webhookAllowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS ?? env.NODE_ENV === 'development',
    rateLimit: Object.freeze({ max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MS }),
    trustProxy: env.TRUST_PROXY,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    reputationSnapshotMs: env.REPUTATION_SNAPSHOT_MS,
    metricsToken: env.METRICS_TOKEN,
    eventStream: Object.freeze({
      pollMs: env.EVENT_STREAM_POLL_MS,
      heartbeatMs: env.EVENT_STREAM_HEARTBEAT_MS,
      maxPerBuyer: env.EVENT_STREAM_MAX_PER_BUYER,
      maxPerAddress: env.EVENT_STREAM_MAX_PER_ADDRESS,
      max: env.EVENT_STREAM_MAX,
    }),
  });
}
