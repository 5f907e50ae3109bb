// The API's fast path (src/http/fast-path.ts: /api/v1/… requests reach the prelude and the endpoint
// router without Express's application router) against Express's own way through the same application:
// every request of a battery — API routes with and without credentials, unknown paths, other methods,
// other spellings of the mount point, the routes outside the API — must get the same status, headers,
// body and log line (route pattern, status) either way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/lib/http-server.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { createAdmin, createBuyer, createDeveloper } from '../helpers/factories.ts';

let ctx: TestContext;
const lines: Record<string, unknown>[] = [];
let fast: http.Server;
let viaExpress: http.Server;
let credentials: { buyer: string; apiKey: string };

const listen = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // A database of its own: SDK calls here claim no task another test file left open.
  ctx = await createIsolatedTestContext({ env: { LOG_LEVEL: 'info' }, logDestination: destination });
  const admin = await createAdmin(ctx);
  credentials = { buyer: (await createBuyer(ctx)).token, apiKey: (await createDeveloper(ctx, admin.token)).apiKey };
  fast = createHttpServer(ctx.app);
  // Express's own app.handle (the fast path replaced the application's): every request through its router.
  viaExpress = http.createServer((req, res) => (express.application as unknown as { handle: (...args: unknown[]) => void }).handle.call(ctx.app, req, res));
  await Promise.all([listen(fast), listen(viaExpress)]);
});

afterAll(async () => {
  await Promise.all([fast, viaExpress].map((server) => new Promise((resolve) => server.close(resolve))));
  await ctx.close();
});

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Headers that differ between any two calls (time, connection, a rate limit's remaining budget). */
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'ratelimit', 'ratelimit-policy', 'retry-after']);

function send(server: http.Server, method: string, path: string, requestId: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method,
        path,
        headers: { 'x-request-id': requestId, ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const kept = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name) && name !== 'x-request-id'));
          // The request's log line is written when the response closes: give it its turn.
          setTimeout(() => resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString() }), 5);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The request's log line, without what differs between any two calls. */
function logLine(requestId: string): Record<string, unknown> | undefined {
  const line = lines.find((entry) => entry.reqId === requestId);
  if (!line) return undefined;
  const { time: _time, ms: _ms, reqId: _reqId, pid: _pid, hostname: _hostname, ...rest } = line;
  return rest;
}

describe('the API fast path', () => {
  it('answers every request as Express’s router does', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: [string, string, Record<string, string>, string?][] = [];
    const as = {
      nobody: {},
      buyer: { authorization: `Bearer ${credentials.buyer}` },
      sdk: { authorization: `Bearer ${credentials.apiKey}` },
    };
    for (const who of Object.values(as)) {
      for (const path of [
        '/api/v1/meta',
        '/api/v1/auth/me',
        '/api/v1/tasks',
        '/api/v1/tasks/',
        '/api/v1/tasks/counts',
        '/api/v1/tasks/cmissing000000000000000000',
        '/api/v1/tasks/%FF',
        '/api/v1/projects?limit=2',
        '/api/v1/billing/ledger?limt=5',
        '/api/v1/sdk/tasks/next?annotatorId=annotator-1',
        '/api/v1/sdk/tasks/next',
        '/api/v1/sdk/annotators/annotator-1/payouts',
        '/api/v1/no-such-route',
        '/api/v1/',
        '/api/v1',
        '/api/v1//meta',
        '/API/V1/meta',
        '/api/v1/openapi.json',
        '/healthz',
        '/nothing-here',
      ]) {
        for (const method of ['GET', 'HEAD', 'OPTIONS', 'DELETE']) cases.push([method, path, who]);
      }
      cases.push([
        'POST',
        '/api/v1/sdk/tasks/cmissing000000000000000000/complete',
        { ...who, ...json },
        JSON.stringify({ annotatorId: 'a', answer: 'x', timeSpentMs: 1 }),
      ]);
      cases.push(['POST', '/api/v1/sdk/tasks/cmissing000000000000000000/complete', { ...who, ...json }, '{"annotatorId": ']);
      cases.push(['POST', '/api/v1/sdk/tasks/cmissing000000000000000000/complete', { ...who, 'content-type': 'text/plain' }, 'hello']);
      cases.push(['POST', '/api/v1/auth/me', { ...who, ...json }, '{}']);
      cases.push(['PUT', '/api/v1/tasks/c1', { ...who, ...json }, '{}']);
      cases.push(['POST', '/api/v1/auth/login', json, JSON.stringify({ email: 'nobody@example.test', password: 'wrong password' })]);
    }
    let n = 0;
    for (const [method, path, headers, body] of cases) {
      n += 1;
      const viaFast = await send(fast, method, path, `fast-${n}`, headers, body);
      const viaRouter = await send(viaExpress, method, path, `express-${n}`, headers, body);
      const label = `${method} ${path} (${headers.authorization ? headers.authorization.slice(7, 12) : 'no credential'})`;
      expect({ ...viaFast, log: logLine(`fast-${n}`) }, label).toEqual({ ...viaRouter, log: logLine(`express-${n}`) });
    }
    // The battery reached the endpoints: a route pattern, an endpoint's own answer, a 405 and an OPTIONS answer.
    expect(lines.some((line) => line.route === '/api/v1/tasks/:id' && line.status === 404)).toBe(true);
    expect(lines.some((line) => line.route === '/api/v1/sdk/tasks/next' && line.status === 204)).toBe(true);
    expect(lines.some((line) => line.route === 'unmatched' && line.status === 405)).toBe(true);
    expect(lines.some((line) => line.method === 'OPTIONS' && line.status === 200)).toBe(true);
  });
});
