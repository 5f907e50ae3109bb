// bench/answer-loop/http-layer.ts: the server's HTTP layer alone. The real app (buildApp: request log,
// metrics, security headers, routing, authentication, body parsing, validation, the SDK handlers'
// presenters, JSON responses) in a child process, with the services the answer path calls replaced by
// ones that answer at once (no database), loaded by 64 keep-alive clients alternating GET next and POST
// complete as bench:answers' requests loop does. Prints the child's CPU per request (from /proc): the
// part of `serverCpuMsPerAnswer` (two requests per answer) that is HTTP and not the database driver.
// `--hello` serves the same responses, with the same headers, from a bare node:http handler instead: what
// any server pays here. `--als` first runs one AsyncLocalStorage (as the server does from its first
// idempotent request on, src/db/database.ts): on Node 20 that turns on async hooks for every promise.
// Figures move with the machine's load: compare variants by alternating runs.
//
//   npx tsx --conditions=source bench/answer-loop/http-layer.ts [--seconds 10] [--hello] [--als]
// (BENCH_SERVER_ARGS='--cpu-prof --cpu-prof-dir=…' profiles the server, as in bench:answers)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuMs, LoadClient, round } from '../lib.ts';

const API_KEY = `c${'0'.repeat(24)}`;
const TASK = {
  id: 'task_0000000000000000000001',
  type: 'SENTIMENT_ANALYSIS',
  content: 'Review 1: arrived on time.',
  options: ['positive', 'negative', 'neutral'],
};
const served = { assignmentId: 'asg_000000000000000000001', expiresAt: new Date('2030-01-01T00:00:00Z'), task: { ...TASK, locale: null } };

const HELMET_HEADERS = [
  [
    'Content-Security-Policy',
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  ],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
] as const;

/** An ETag of the right form (its value does not matter to a bare server's cost). */
const ETAG = 'W/"11-vsukLBYdcrS5DPrpyB/JceaAOHA"';

async function serveApp(hello: boolean): Promise<http.Server> {
  if (hello) {
    const next = JSON.stringify({ assignmentId: served.assignmentId, expiresAt: served.expiresAt.toISOString(), task: served.task });
    return http.createServer((req, res) => {
      const body = req.method === 'GET' ? next : '{"accepted":true}';
      const send = () => {
        for (const [name, value] of HELMET_HEADERS) res.setHeader(name, value);
        res.setHeader('x-request-id', randomUUID());
        res.setHeader('ETag', ETAG);
        res.writeHead(req.method === 'GET' ? 200 : 201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      };
      if (req.method === 'GET') send();
      else {
        req.on('data', () => {});
        req.on('end', send);
      }
    });
  }
  const { buildApp } = await import('../../src/app.ts');
  const { loadConfig } = await import('../../src/config.ts');
  const { createLogger } = await import('../../src/lib/logger.ts');
  const { createHttpServer } = await import('../../src/lib/http-server.ts');
  const { AuthService } = await import('../../src/modules/auth/auth.service.ts');
  const { ApiKeyCache } = await import('../../src/modules/auth/api-key-cache.ts');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: 'postgresql://unused@127.0.0.1/unused',
    JWT_SECRET: 'x'.repeat(48),
    LOG_LEVEL: 'warn',
    PAYMENT_PROVIDER: 'sandbox',
    ALLOW_SANDBOX_PAYMENTS: 'true',
  });
  const logger = createLogger('warn');
  // Whatever buildApp wires but this loop never calls: a stand-in that accepts any use.
  const anything: unknown = new Proxy(function stub() {}, { get: (_target, key) => (key === 'then' ? undefined : anything), apply: () => anything });
  const db = { rawRepos: { developers: { findActiveIdByApiKeyHash: async () => 'dev_1' }, rateLimits: anything } };
  const auth = new AuthService(db as never, anything as never, anything as never, config, logger, new ApiKeyCache());
  const annotation = { next: async () => served, complete: async () => undefined, completeAndNext: async () => served };
  const services = new Proxy({ auth, annotation, db: { ...db, ping: async () => undefined } } as Record<string, unknown>, {
    get: (target, key) => (typeof key === 'string' && key in target ? target[key] : anything),
  });
  return createHttpServer(buildApp({ config, logger, services: services as never }));
}

async function main(): Promise<void> {
  const hello = process.argv.includes('--hello');
  if (process.argv.includes('--serve')) {
    if (process.argv.includes('--als')) new (await import('node:async_hooks')).AsyncLocalStorage().run(1, () => undefined);
    const server = await serveApp(hello);
    // A normal exit, so that a --cpu-prof in BENCH_SERVER_ARGS writes its profile.
    process.once('SIGTERM', () => process.exit(0));
    server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
    return;
  }
  const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
      process.argv[1] as string,
      '--serve',
      ...(hello ? ['--hello'] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  const client = new LoadClient(`http://127.0.0.1:${port}`, 64);
  const headers = { authorization: `Bearer ${API_KEY}` };
  const body = JSON.stringify({ annotatorId: 'annotator-1', answer: 'positive', timeSpentMs: 1200 });
  const loop = async (until: number) => {
    let requests = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (Date.now() < until) {
          const next = await client.request('GET', '/api/v1/sdk/tasks/next?annotatorId=annotator-1', headers);
          const done = await client.request('POST', `/api/v1/sdk/tasks/${TASK.id}/complete`, headers, body);
          if (next.status !== 200 || done.status !== 201) throw new Error(`unexpected ${next.status} ${done.status}: ${next.text} ${done.text}`);
          requests += 2;
        }
      }),
    );
    return requests;
  };
  await loop(Date.now() + 2_000);
  const before = await cpuMs(child.pid as number);
  const started = performance.now();
  const requests = await loop(Date.now() + seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const used = (await cpuMs(child.pid as number)) - before;
  client.close();
  child.kill();
  process.stdout.write(
    `${JSON.stringify({ bench: 'http-layer', mode: hello ? 'hello' : 'app', als: process.argv.includes('--als'), requestsPerSec: Math.round(requests / elapsed), serverCpuUsPerRequest: round((used * 1000) / requests, 1) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
