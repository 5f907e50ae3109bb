// Graceful shutdown against a real server process: SIGTERM ends the process with exit 0 at once, even when a
// client dropped an event stream and its HTTP client keeps a connection open that never sends a request
// (what fetch's pool does after an aborted stream). Node's own close() left such a connection open and
// stopped the header-timeout checks that would have ended it, so the shutdown ran out its 25 s grace
// period and exited 1.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { workerDatabaseUrl } from '../helpers/context.ts';
import { spawnServer } from '../helpers/server-process.ts';

describe('SIGTERM', () => {
  it('exits 0 at once after an event stream was dropped, with a connection open that sent nothing', { timeout: 90_000 }, async () => {
    const server = await spawnServer(workerDatabaseUrl(), { LOG_LEVEL: 'info' });
    try {
      const email = `shutdown-${Date.now()}@example.test`;
      const registered = await fetch(`${server.url}/api/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery', companyName: 'Shutdown Co' }),
      });
      const { token } = (await registered.json()) as { token: string };
      // An event stream, read a little, then dropped by its client (whose process stays alive).
      const abort = new AbortController();
      const stream = await fetch(`${server.url}/api/v1/events/stream`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
      expect(stream.status).toBe(200);
      await stream.body?.getReader().read();
      abort.abort();
      // A connection that has not sent a byte yet.
      const { port } = new URL(server.url);
      const silent = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve, reject) => silent.once('connect', resolve).once('error', reject));
      await new Promise((resolve) => setTimeout(resolve, 500));

      const started = Date.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      const elapsed = Date.now() - started;
      silent.destroy();
      expect({ code, quick: elapsed < 10_000, timedOut: server.output().includes('server.shutdown.timeout') }).toEqual({
        code: 0,
        quick: true,
        timedOut: false,
      });
      expect(server.output()).toContain('"event":"server.stopped"');
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
