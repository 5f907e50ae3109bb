// The SDK as a package: built as it is shipped (scripts/build-package.mjs) with the contract it depends on, into a node_modules/@concord/sdk of
// its own, then loaded by name with `require` and with `import` (package.json's exports conditions) and
// used against the real server process on the test database; its declarations type-check for a
// CommonJS and an ES module TypeScript consumer.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerDatabaseUrl } from '../helpers/context.ts';
import { installBuiltPackages } from '../../scripts/lib/packages.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/**
 * The same program for both module systems, against the real server process: it registers a buyer,
 * creates and lists projects, meets a typed error, reads the public meta and verifies a signature.
 */
const exercise = `
  (async () => {
    const baseUrl = process.env.CONCORD_URL;
    const email = 'pkg-' + Math.random().toString(36).slice(2) + '@example.test';
    const { client, token } = await sdk.BuyerClient.register({ baseUrl }, { email, password: 'correct horse battery', companyName: 'Package Co' });
    const project = await client.projects.create({ name: 'From the package' }, { idempotencyKey: 'pkg-1' });
    const again = await client.projects.create({ name: 'From the package' }, { idempotencyKey: 'pkg-1' });
    const names = [];
    for await (const p of client.projects.list()) names.push(p.name);
    const missing = await client.tasks.get('nope').catch((e) => e);
    const meta = await sdk.BuyerClient.meta({ baseUrl });
    const signature = await sdk.signWebhookBody('{"event":"budget.low"}', 'secret-0123456789');
    const event = await sdk.verifyWebhook('{"event":"budget.low"}', { 'x-service-signature': signature }, 'secret-0123456789');
    const refused = await new sdk.BuyerClient({ baseUrl: 'http://127.0.0.1:9', token, maxRetries: 0 }).tasks.list().page().catch((e) => e);
    process.stdout.write(JSON.stringify({
      sameProject: again.id === project.id,
      names,
      notFound: missing instanceof sdk.ConcordNotFoundError && missing instanceof sdk.ConcordError,
      code: missing.code,
      hasRequestId: typeof missing.requestId === 'string',
      environment: meta.environment,
      event: event.event,
      network: refused instanceof sdk.ConcordNetworkError ? refused.code : String(refused),
      annotation: typeof new sdk.AnnotationClient({ baseUrl, apiKey: 'k' }).nextTask,
    }));
  })().catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
`;
const expected = {
  sameProject: true,
  names: ['From the package'],
  notFound: true,
  code: 'TASK_NOT_FOUND',
  hasRequestId: true,
  environment: 'test',
  event: 'budget.low',
  network: 'NETWORK_ERROR',
  annotation: 'function',
};

describe('the built package', () => {
  let dir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'concord-sdk-package-'));
    // The server starts while the packages build.
    [server] = await Promise.all([
      spawnServer(workerDatabaseUrl(), { RATE_LIMIT_MAX: '1000000' }),
      installBuiltPackages(path.join(dir, 'node_modules'), ['contract', 'sdk'], ['zod']),
    ]);
  }, 120_000);
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const env = () => ({ ...process.env, CONCORD_URL: server.url });

  it('require("@concord/sdk") loads the CommonJS build, which works against the server', async () => {
    const file = path.join(dir, 'consumer.cjs');
    await writeFile(
      file,
      `const sdk = require('@concord/sdk');\nif (!require.resolve('@concord/sdk').includes('/dist/cjs/')) throw new Error('not the cjs build');\n${exercise}`,
    );
    const { stdout } = await run(process.execPath, [file], { cwd: dir, env: env() });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('import from "@concord/sdk" loads the ES module build, which works against the server', async () => {
    const file = path.join(dir, 'consumer.mjs');
    await writeFile(
      file,
      `import * as sdk from '@concord/sdk';\n` +
        `if (!import.meta.resolve('@concord/sdk').includes('/dist/esm/')) throw new Error('not the esm build');\n${exercise}`,
    );
    const { stdout } = await run(process.execPath, [file], { cwd: dir, env: env() });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('its declarations type-check for a CommonJS and an ES module TypeScript consumer', async () => {
    const usage = `
      const client = new BuyerClient({ baseUrl: 'https://concord.example.com', apiKey: 'cnc_test_x' });
      export async function main(): Promise<number> {
        const page = await client.tasks.list({ status: 'COMPLETED', limit: 10 }).page();
        const first: string | undefined = page.data[0]?.result ?? undefined;
        const error: ConcordError = new ConcordRateLimitError({ message: 'slow down', code: 'RATE_LIMITED', retryAfter: 3 });
        return (first?.length ?? 0) + (error.status ?? 0);
      }
    `;
    await writeFile(path.join(dir, 'consumer-cjs.cts'), `import { BuyerClient, ConcordError, ConcordRateLimitError } from '@concord/sdk';\n${usage}`);
    await writeFile(path.join(dir, 'consumer-esm.mts'), `import { BuyerClient, ConcordError, ConcordRateLimitError } from '@concord/sdk';\n${usage}`);
    const compilerOptions = { module: 'Node16', moduleResolution: 'Node16', target: 'ES2022', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, types: [] };
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer-cjs.cts', 'consumer-esm.mts'] }));
    const result = await run(process.execPath, [tsc, '-p', dir, '--traceResolution'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { stdout: string }) => error,
    );
    const trace = result.stdout;
    expect(trace).not.toMatch(/error TS/);
    // Each consumer got the declarations of its own build.
    expect(trace).toMatch(/'@concord\/sdk' was successfully resolved to '[^']*dist\/cjs\/index\.d\.ts'/);
    expect(trace).toMatch(/'@concord\/sdk' was successfully resolved to '[^']*dist\/esm\/index\.d\.ts'/);
  }, 60_000);
});
