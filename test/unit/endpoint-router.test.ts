// The endpoint router (one table, src/http/endpoint-router.ts) against what it replaced: Express's own
// router with one route per endpoint. Both serve the service's real endpoint declarations (with stand-in
// handlers that echo what they were given), behind the same 405/404 handlers and error pipeline, and every
// request of a battery — each route's path with ids, encodings, case, trailing slashes, a segment more or
// less, under every method — must get the same status, headers, body, and the same route pattern for the
// log line and the metrics.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type Express, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/app.ts';
import { buildRouter } from '../../src/http/endpoint-router.ts';
import type { EndpointDefinition } from '../../src/lib/endpoint.ts';
import { jsonBody } from '../../src/middleware/body.ts';
import { errorHandler, notFoundHandler } from '../../src/middleware/error-handler.ts';
import { routeOf } from '../../src/middleware/request-log.ts';
import { methodNotAllowed } from '../../src/middleware/routing.ts';
import { createLogger } from '../../src/lib/logger.ts';

// Whatever the endpoint factories take from the services: a stand-in that accepts any use.
const anything: unknown = new Proxy(function stub() {}, { get: (_target, key) => (key === 'then' ? undefined : anything), apply: () => anything });

/** The real declarations (method, path, order, statuses) with handlers that echo the request. */
const endpoints: EndpointDefinition[] = allEndpoints(anything as never).map((endpoint) => ({
  method: endpoint.method,
  path: endpoint.path,
  operationId: endpoint.operationId,
  summary: endpoint.summary,
  tag: endpoint.tag,
  access: 'public',
  unsettledReads: true,
  notFound: endpoint.notFound,
  handler: async ({ req }) => ({ declared: `${endpoint.method} ${endpoint.path}`, params: { ...req.params }, method: req.method }),
}));

/** Express's router as buildRouter built it before: one route per endpoint, in declaration order. */
function expressRouter(): Router {
  const router = Router();
  for (const endpoint of endpoints) {
    const chain: RequestHandler[] = [
      (req, res, next) => {
        res.locals.route = `${req.baseUrl}${endpoint.path}`;
        next();
      },
    ];
    if (endpoint.method !== 'get') chain.push(jsonBody('1mb'));
    chain.push(async (req, res) => {
      res.status(200).json(await endpoint.handler({ req, res } as never));
    });
    router[endpoint.method](endpoint.path, ...chain);
  }
  return router;
}

const routes = new Map<string, string>();

function app(api: RequestHandler): Express {
  const built = express();
  built.disable('x-powered-by');
  const logger = createLogger('silent');
  built.use((req, res, next) => {
    req.log = logger;
    // What the request log and the metrics record as the route, keyed by the test's request tag.
    res.on('finish', () => routes.set(`${String(req.headers['x-tag'])}`, routeOf(req, res.locals)));
    next();
  });
  built.use('/api/v1', api);
  built.use('/api/v1', methodNotAllowed(endpoints));
  built.use(notFoundHandler);
  built.use(errorHandler);
  return built;
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  route: string | undefined;
}

function send(port: number, method: string, path: string, tag: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? undefined : '{}';
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { 'x-tag': tag, ...(body ? { 'content-type': 'application/json', 'content-length': '2' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = res.headers;
          // The log line is written once the response is out: give 'finish' its turn.
          setImmediate(() => resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString(), route: routes.get(tag) }));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Paths a client may send for a declared one: its ids in several spellings, its case, its slashes. */
function pathsFor(declared: string): string[] {
  const filled = (id: string) => declared.replace(/:[A-Za-z]+/g, id);
  const plain = filled('c0123456789abcdefghijklmn');
  return [
    plain,
    filled('a%20b'),
    filled('%41%2Fb'),
    filled('dots.and-dashes'),
    `${plain}/`,
    `${plain}//`,
    plain.toUpperCase(),
    `${plain}/extra`,
    plain.slice(0, plain.lastIndexOf('/')) || '/',
    declared.includes(':') ? filled('') : `${plain}x`,
    `${plain}?a=1&b=%20`,
  ];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];

let servers: http.Server[] = [];
let ports: { reference: number; table: number };

beforeAll(async () => {
  const listen = (handler: Express) =>
    new Promise<http.Server>((resolve) => {
      const server = http.createServer(handler);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  const deps = {
    auth: anything as never,
    idempotency: anything as never,
    settled: async () => undefined,
    sensitiveRateLimit: ((_req, _res, next) => next()) as RequestHandler,
  };
  servers = [await listen(app(expressRouter())), await listen(app(buildRouter(endpoints, deps)))];
  ports = { reference: (servers[0]?.address() as AddressInfo).port, table: (servers[1]?.address() as AddressInfo).port };
});

afterAll(async () => {
  agent.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('the endpoint router answers as Express’s router did', () => {
  const paths = [
    ...new Set([
      ...endpoints.flatMap((endpoint) => pathsFor(endpoint.path)),
      '/',
      '/nothing-here',
      '/tasks/counts',
      '/TASKS/Counts/',
      '/events/stream',
      '/tasks/batch',
      '/tasks/batch/csv',
      '/sdk/tasks/next',
      '/sdk/tasks/%ZZ/complete',
    ]),
  ];

  it.each(METHODS)('%s on every path', async (method) => {
    // A few requests at a time (each pair in order), so that the battery takes seconds, not minutes.
    const queue = paths.map((path, n) => ({ url: `/api/v1${path}`, tag: `${method}-${n}` }));
    const compare = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const reference = await send(ports.reference, method, item.url, `r-${item.tag}`);
        const table = await send(ports.table, method, item.url, `t-${item.tag}`);
        expect({ url: item.url, ...table }, `${method} ${item.url}`).toEqual({ url: item.url, ...reference });
      }
    };
    await Promise.all(Array.from({ length: 8 }, compare));
  });

  it('serves the routes the way the declarations order them (a literal segment declared first wins)', async () => {
    const counts = await send(ports.table, 'GET', '/api/v1/tasks/counts', 'counts');
    expect(JSON.parse(counts.body)).toMatchObject({ declared: 'get /tasks/counts' });
    const byId = await send(ports.table, 'GET', '/api/v1/tasks/c0123', 'by-id');
    expect(JSON.parse(byId.body)).toMatchObject({ declared: 'get /tasks/:id', params: { id: 'c0123' } });
    expect(byId.route).toBe('/api/v1/tasks/:id');
    const options = await send(ports.table, 'OPTIONS', '/api/v1/tasks', 'options');
    expect(options).toMatchObject({ status: 200, body: 'GET, HEAD, POST', headers: { allow: 'GET, HEAD, POST' } });
    const wrongMethod = await send(ports.table, 'PUT', '/api/v1/tasks/c0123', 'put');
    expect(wrongMethod).toMatchObject({ status: 405, headers: { allow: 'DELETE, GET, HEAD, PATCH' }, route: 'unmatched' });
  });
});
