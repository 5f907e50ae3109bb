import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from '../../src/config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('starts with no configuration at all, with the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      databaseUrl: undefined,
      dataDir: './.data',
      paymentProvider: 'sandbox',
      priceCents: 20,
      consensusThreshold: 0.95,
      assignmentTtlMs: 600_000,
      goldenRate: 0.1,
      webhookTimeoutMs: 10_000,
      webhookRetryDelayMs: 30_000,
      webhookAllowPrivateUrls: true,
      rateLimit: { max: 100, windowMs: 900_000 },
      trustProxy: false,
      publicUrl: 'http://localhost:3000',
      eventStream: { pollMs: 100, heartbeatMs: 15_000, maxPerBuyer: 20, max: 2_000 },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['LOG_LEVEL', 'verbose'],
    ['CONSENSUS_THRESHOLD', '1.5'],
    ['CONSENSUS_THRESHOLD', '0.49'],
    ['CONSENSUS_THRESHOLD', '1'],
    ['GOLDEN_RATE', '-0.1'],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'yes please'],
    ['PAYMENT_PROVIDER', 'paypal'],
    ['PUBLIC_URL', 'concord.example.com'],
    ['JWT_SECRET', 'too-short'],
    ['RATE_LIMIT_MAX', '0'],
  ])('a bad %s (%s) stops start-up with a message naming it', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });

  it('requires JWT_SECRET and DATABASE_URL in production and defaults to Stripe and private-URL refusal there', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    const database = { DATABASE_URL: 'postgresql://concord@db:5432/concord' };
    expect(problemsOf({ NODE_ENV: 'production', ...stripe, ...database })).toEqual(['JWT_SECRET: is required in production']);
    expect(problemsOf({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ...stripe })).toEqual([
      'DATABASE_URL: is required in production (the embedded PostgreSQL is for development)',
    ]);
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ...stripe, ...database });
    expect(config.paymentProvider).toBe('stripe');
    expect(config.stripe).toEqual({ secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123' });
    expect(config.webhookAllowPrivateUrls).toBe(false);
  });

  it('wants both Stripe keys when the provider is Stripe, and none for the sandbox', () => {
    expect(problemsOf({ PAYMENT_PROVIDER: 'stripe' }).map((p) => p.split(':')[0])).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(problemsOf({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc' }).map((p) => p.split(':')[0])).toEqual(['STRIPE_WEBHOOK_SECRET']);
    expect(problemsOf({ STRIPE_SECRET_KEY: 'pk_test_abc' })[0]).toMatch(/^STRIPE_SECRET_KEY: /);
    expect(loadConfig({ PAYMENT_PROVIDER: 'sandbox', NODE_ENV: 'development' }).stripe).toBeUndefined();
  });

  it('refuses the sandbox provider in production unless ALLOW_SANDBOX_PAYMENTS=true, and no message suggests it', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgresql://concord@db:5432/concord' };
    const [problem] = problemsOf({ ...production, PAYMENT_PROVIDER: 'sandbox' });
    expect(problem).toMatch(/^PAYMENT_PROVIDER: sandbox is refused in production/);
    expect(problemsOf({ ...production, PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'false' })[0]).toBe(problem);
    expect(loadConfig({ ...production, PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'true' }).paymentProvider).toBe('sandbox');
    for (const stripeProblem of problemsOf(production)) expect(stripeProblem).not.toMatch(/sandbox/i);
  });

  it('reads the reputation snapshot period (1 hour by default, 0 = live) and the metrics token', () => {
    expect(loadConfig({}).reputationSnapshotMs).toBe(3_600_000);
    expect(loadConfig({ REPUTATION_SNAPSHOT_MS: '0' }).reputationSnapshotMs).toBe(0);
    expect(problemsOf({ REPUTATION_SNAPSHOT_MS: '-1' })[0]).toMatch(/^REPUTATION_SNAPSHOT_MS: /);
    expect(problemsOf({ METRICS_TOKEN: 'short' })[0]).toMatch(/^METRICS_TOKEN: /);
    expect(loadConfig({ METRICS_TOKEN: 't'.repeat(16) }).metricsToken).toBe('t'.repeat(16));
  });

  it('sizes the database pools by DATABASE_POOL_SIZE (10 unless set, 1 to 200)', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    for (const value of ['0', '201', 'many']) expect(problemsOf({ DATABASE_POOL_SIZE: value })[0]).toMatch(/^DATABASE_POOL_SIZE: /);
  });

  it("takes CONSENSUS_THRESHOLD from 0.5 to 0.999, the bounds of a project's targetConfidence", () => {
    expect(loadConfig({ CONSENSUS_THRESHOLD: '0.5' }).consensusThreshold).toBe(0.5);
    expect(loadConfig({ CONSENSUS_THRESHOLD: '0.999' }).consensusThreshold).toBe(0.999);
    for (const value of ['0.4999', '0.9991', 'abc']) expect(problemsOf({ CONSENSUS_THRESHOLD: value })[0]).toMatch(/^CONSENSUS_THRESHOLD: must be/);
    expect(problemsOf({ CONSENSUS_THRESHOLD: '0.2' })).toEqual(['CONSENSUS_THRESHOLD: must be a decimal between 0.5 and 0.999']);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'root@example.test' })[0]).toMatch(/^ADMIN_PASSWORD: /);
    expect(problemsOf({ ADMIN_PASSWORD: 'long enough' })[0]).toMatch(/^ADMIN_EMAIL: /);
    expect(loadConfig({ ADMIN_EMAIL: ' Root@Example.test ', ADMIN_PASSWORD: 'long enough' }).admin).toEqual({
      email: 'root@example.test',
      password: 'long enough',
    });
  });

  it('parses booleans, hop counts and address lists for TRUST_PROXY', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it('treats empty variables as unset and reports every problem at once', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
    expect(problemsOf({ PORT: 'x', PRICE_CENTS: 'y' })).toHaveLength(2);
  });
});

describe('.env.example', () => {
  it('lists every variable the configuration reads', async () => {
    const example = await readFile(new URL('../../.env.example', import.meta.url), 'utf8');
    const listed = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    expect(Object.keys(envSchema.shape).filter((name) => !listed.has(name))).toEqual([]);
  });
});
