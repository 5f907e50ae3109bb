// The sensitive routes' budget is one per client IP across every server process (contract §1): the
// count lives in PostgreSQL, so two processes on one database allow the limit once, not twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';

let ctx: TestContext;
let servers: ServerProcess[] = [];
beforeAll(async () => {
  ctx = await createIsolatedTestContext();
  const env = { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_MS: '600000' };
  servers = await Promise.all([spawnServer(ctx.databaseUrl, env), spawnServer(ctx.databaseUrl, env)]);
}, 120_000);
afterAll(async () => {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
  await ctx.close();
});

const login = (server: ServerProcess) =>
  fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail(), password: 'not-the-password' }),
  });

describe('rate limit across processes', () => {
  it('two servers on one database share one budget per IP, with IETF draft-8 headers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await login(servers[i % 2] as ServerProcess);
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-policy')).toMatch(/;\s*q=6;\s*w=600\b/);
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`;\\s*r=${5 - i};\\s*t=\\d+`));
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    // The seventh, on either process, is over the shared budget.
    for (const server of servers) {
      const blocked = await login(server);
      expect(blocked.status).toBe(429);
      expect(await blocked.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(blocked.headers.get('ratelimit')).toMatch(/;\s*r=0;/);
    }
    const [counter] = await ctx.prisma.rateLimitCounter.findMany();
    expect(counter).toMatchObject({ key: expect.stringMatching(/^sensitive:6:600000:/), hits: 8 });
  });
});
