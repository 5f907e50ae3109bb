// The SDK as a package: built as it is shipped (sdk/scripts/build.mjs) into a node_modules/@concord/sdk of
// its own, then loaded by name with `require` and with `import` (package.json's exports conditions) and
// used; its declarations type-check for a CommonJS and an ES module consumer; and every TypeScript
// example of sdk/README.md compiles against the SDK's source, so the README cannot drift from the API.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/** The same program for both module systems: it exercises the clients, the errors and the webhook helpers. */
const exercise = `
  const server = require('node:http').createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-request-id', req.headers['x-request-id']);
    if (req.url.startsWith('/api/v1/tasks?')) return res.end(JSON.stringify({ tasks: [{ id: 't1' }, { id: 't2' }], nextCursor: null, hasMore: false }));
    res.statusCode = 404;
    res.end(JSON.stringify({ error: 'Task not found', code: 'TASK_NOT_FOUND' }));
  });
  server.listen(0, '127.0.0.1', async () => {
    const baseUrl = 'http://127.0.0.1:' + server.address().port;
    const client = new sdk.BuyerClient({ baseUrl, apiKey: 'cnc_test_x' });
    const ids = [];
    for await (const task of client.tasks.list()) ids.push(task.id);
    const missing = await client.tasks.get('nope').catch((e) => e);
    const signature = await sdk.signWebhookBody('{"event":"budget.low"}', 'secret-0123456789');
    const event = await sdk.verifyWebhook('{"event":"budget.low"}', { 'x-service-signature': signature }, 'secret-0123456789');
    server.close();
    process.stdout.write(JSON.stringify({
      ids,
      notFound: missing instanceof sdk.ConcordNotFoundError && missing instanceof sdk.ConcordError,
      code: missing.code,
      hasRequestId: typeof missing.requestId === 'string',
      event: event.event,
      annotation: typeof new sdk.AnnotationClient({ baseUrl, apiKey: 'k' }).nextTask,
    }));
  });
`;
const expected = { ids: ['t1', 't2'], notFound: true, code: 'TASK_NOT_FOUND', hasRequestId: true, event: 'budget.low', annotation: 'function' };

describe('the built package', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'concord-sdk-package-'));
    const pkg = path.join(dir, 'node_modules/@concord/sdk');
    await mkdir(pkg, { recursive: true });
    await copyFile(path.join(root, 'sdk/package.json'), path.join(pkg, 'package.json'));
    await run(process.execPath, [path.join(root, 'sdk/scripts/build.mjs'), '--out-dir', path.join(pkg, 'dist')], { cwd: root });
  }, 120_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('require("@concord/sdk") loads the CommonJS build and works', async () => {
    const file = path.join(dir, 'consumer.cjs');
    await writeFile(file, `const sdk = require('@concord/sdk');\nif (!require.resolve('@concord/sdk').includes('/dist/cjs/')) throw new Error('not the cjs build');\n${exercise}`);
    const { stdout } = await run(process.execPath, [file], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('import from "@concord/sdk" loads the ES module build and works', async () => {
    const file = path.join(dir, 'consumer.mjs');
    await writeFile(
      file,
      `import * as sdk from '@concord/sdk';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n` +
        `if (!import.meta.resolve('@concord/sdk').includes('/dist/esm/')) throw new Error('not the esm build');\n${exercise}`,
    );
    const { stdout } = await run(process.execPath, [file], { cwd: dir });
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
    const result = await run(process.execPath, [tsc, '-p', dir, '--traceResolution'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout: string }) => error);
    const trace = result.stdout;
    expect(trace).not.toMatch(/error TS/);
    // Each consumer got the declarations of its own build.
    expect(trace).toMatch(/'@concord\/sdk' was successfully resolved to '[^']*dist\/cjs\/index\.d\.ts'/);
    expect(trace).toMatch(/'@concord\/sdk' was successfully resolved to '[^']*dist\/esm\/index\.d\.ts'/);
  }, 60_000);
});

describe('sdk/README.md', () => {
  it('every TypeScript example compiles against the SDK', async () => {
    const readme = await readFile(path.join(root, 'sdk/README.md'), 'utf8');
    const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(snippets.length).toBeGreaterThanOrEqual(7);
    // Inside the repository, so that node_modules (@types/node) resolve as they do for the SDK.
    const dir = await mkdtemp(path.join(root, 'node_modules/.cache-sdk-readme-'));
    try {
      await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
      const files = await Promise.all(
        snippets.map(async (snippet, i) => {
          const name = `snippet-${i + 1}.ts`;
          await writeFile(path.join(dir, name), snippet);
          return name;
        }),
      );
      const compilerOptions = {
        module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], strict: true, noEmit: true,
        noUncheckedIndexedAccess: true, allowImportingTsExtensions: true, skipLibCheck: true, types: ['node'],
        paths: { '@concord/sdk': [path.join(root, 'sdk/src/index.ts')] },
      };
      await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
      const result = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      expect(result).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
