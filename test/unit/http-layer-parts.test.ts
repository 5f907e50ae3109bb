// The small parts of the lean HTTP layer, each against what it replaces: helmet's headers worked out once
// against helmet itself, the weak ETag against Express's, one middleware made of several against the same
// handlers in a row, and an endpoint's JSON answer against Express's res.status().json().
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, weakEtag } from '../../src/http/respond.ts';
import { series } from '../../src/http/series.ts';
import { securityHeaders } from '../../src/middleware/security-headers.ts';

let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.disable('x-powered-by');
  const body = { accepted: true, next: { id: 'c1', options: ['a', 'b'], text: 'café ✓' } };
  app.use('/helmet', helmet());
  app.use('/headers', securityHeaders());
  for (const [path, status] of [
    ['a', 200],
    ['b', 201],
  ] as const) {
    app.all(`/express/${path}`, (_req, res) => void res.status(status).json(body));
    app.all(`/lean/${path}`, (req, res) => sendJson(req, res, status, body));
  }
  app.all('/express/typed', (_req, res) => void res.type('application/vnd.x+json').status(200).json(body));
  app.all('/lean/typed', (req, res) => {
    res.type('application/vnd.x+json');
    sendJson(req, res, 200, body);
  });
  app.all('/express/null', (_req, res) => void res.status(200).json(null));
  app.all('/lean/null', (req, res) => sendJson(req, res, 200, null));
  app.use((_req, res) => void res.status(404).end());
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('securityHeaders', () => {
  it('sets what helmet() sets, in the same order', async () => {
    const [byHelmet, recorded] = await Promise.all([get('GET', '/helmet/x'), get('GET', '/headers/x')]);
    expect(Object.entries(recorded.headers)).toEqual(Object.entries(byHelmet.headers));
    expect(recorded.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('refuses options whose headers depend on the request', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", (req) => String((req as { id?: string }).id)] } } })).toThrow(
      /depend on the request|did not finish/,
    );
  });
});

describe('weakEtag', () => {
  it('is the ETag Express gives a body', () => {
    const etagFn = express().get('etag fn') as (body: Buffer) => string;
    for (const text of ['', '{}', '{"accepted":true}', 'é'.repeat(3000)]) expect(weakEtag(Buffer.from(text))).toBe(etagFn(Buffer.from(text)));
  });
});

describe('sendJson', () => {
  it.each([
    ['GET', 'a', {}],
    ['POST', 'b', {}],
    ['HEAD', 'a', {}],
    ['GET', 'typed', {}],
    ['GET', 'null', {}],
  ] as const)('answers %s like res.status().json() (%s)', async (method, path, headers) => {
    const [byExpress, lean] = await Promise.all([get(method, `/express/${path}`, headers), get(method, `/lean/${path}`, headers)]);
    expect(Object.entries(lean.headers)).toEqual(Object.entries(byExpress.headers));
    expect(lean).toEqual(byExpress);
  });

  it('answers a conditional GET of an unchanged body with 304, as Express does', async () => {
    const first = await get('GET', '/express/a');
    const [byExpress, lean] = await Promise.all([
      get('GET', '/express/a', { 'if-none-match': String(first.headers.etag) }),
      get('GET', '/lean/a', { 'if-none-match': String(first.headers.etag) }),
    ]);
    expect(byExpress.status).toBe(304);
    expect(lean).toEqual(byExpress);
  });
});

describe('series', () => {
  const run = (handlers: RequestHandler[]) =>
    new Promise<{ error: unknown; order: string[] }>((resolve) => {
      const order: string[] = [];
      const req = { order } as never;
      series(handlers)(req, {} as never, (error?: unknown) => resolve({ error, order }));
    });
  const mark =
    (name: string): RequestHandler =>
    (req, _res, next) => {
      (req as unknown as { order: string[] }).order.push(name);
      next();
    };

  it('runs each handler in turn, then goes on', async () => {
    expect(await run([mark('a'), mark('b'), mark('c')])).toEqual({ error: undefined, order: ['a', 'b', 'c'] });
  });

  it('stops at an error passed, thrown or rejected, and passes it on', async () => {
    const failure = new Error('no');
    expect(await run([mark('a'), (_req, _res, next) => next(failure), mark('c')])).toEqual({ error: failure, order: ['a'] });
    expect(
      await run([
        mark('a'),
        () => {
          throw failure;
        },
        mark('c'),
      ]),
    ).toEqual({ error: failure, order: ['a'] });
    expect(await run([mark('a'), async () => Promise.reject(failure), mark('c')])).toEqual({ error: failure, order: ['a'] });
  });
});
