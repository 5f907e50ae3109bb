// What a person running the service in development reads: short pretty lines, the first-run admin's
// credentials in a box, and no line per request unless LOG_LEVEL=debug (production and pipes keep JSON).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { spawnServer, waitFor } from '../helpers/server-process.ts';

let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  ctx = await createIsolatedTestContext();
  dataDir = await mkdtemp(path.join(tmpdir(), 'concord-dev-logs-'));
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('development logs', () => {
  it('are short pretty lines with the first-run admin in a box, and no line per request at the default level', { timeout: 90_000 }, async () => {
    const server = await spawnServer(ctx.databaseUrl, { NODE_ENV: 'development', LOG_FORMAT: 'pretty', LOG_LEVEL: 'info', DATA_DIR: dataDir });
    try {
      expect((await fetch(`${server.url}/api/v1/auth/me`)).status).toBe(401);
      await waitFor(() => server.output().includes('is listening'), 10_000, 'the listening line');
      const output = server.output();
      const admin = JSON.parse(await readFile(path.join(dataDir, 'local-admin.json'), 'utf8')) as { email: string; password: string };
      // The box: its lines one under the other, the same width, holding the e-mail and the password.
      const box = output.split('\n').filter((line) => /^[┌│└]/.test(line));
      expect(box.length).toBeGreaterThanOrEqual(5);
      expect(new Set(box.map((line) => line.replace(/\s*\{.*$/, '').length)).size).toBe(1);
      expect(box.some((line) => line.includes(`e-mail    ${admin.email}`))).toBe(true);
      expect(box.some((line) => line.includes(`password  ${admin.password}`))).toBe(true);
      // Pretty lines, not JSON, and no request line at info.
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Concord is listening/m);
      expect(output).not.toContain('"level":');
      expect(output).not.toMatch(/INFO: request/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('print a line per request with LOG_LEVEL=debug', { timeout: 90_000 }, async () => {
    const server = await spawnServer(ctx.databaseUrl, { NODE_ENV: 'development', LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug', DATA_DIR: dataDir });
    try {
      expect((await fetch(`${server.url}/api/v1/auth/me`)).status).toBe(401);
      await waitFor(() => /DEBUG: request \{.*"route":"\/api\/v1\/auth\/me".*"status":401/.test(server.output()), 10_000, 'the request line');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
