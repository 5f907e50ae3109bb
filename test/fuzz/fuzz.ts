// Property-based fuzzing of every operation in the OpenAPI document (contract §0): requests
// generated from each operation's schemas and then mutated — wrong types, missing and unknown keys,
// boundary numbers, unicode edge cases (NUL, lone surrogates, RTL, combining marks), invalid UTF-8,
// other content types and encodings, garbage and foreign path ids, odd queries and headers — sent
// anonymously and with every role's credential. Properties, for every request:
//   1. no 5xx;
//   2. every error body has the contract's shape {error, code, details?, taskIndex?} with a known code;
//   3. a rejected request (4xx) changes no row: a checksum of every table is the same before and after.
// Used by test/integration/fuzz.test.ts (a seeded, bounded run in `npm test`) and scripts/fuzz.ts
// (`npm run fuzz -- --runs N`).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import fc from 'fast-check';
import pg from 'pg';
import { createHttpServer } from '../../src/lib/http-server.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };

interface Operation {
  method: string;
  path: string;
  /** The credential this operation is for: a request mostly carries it, so most get past authentication. */
  role: keyof Identities | 'anonymous';
  params: Array<{ name: string; in: string; schema?: Schema; required?: boolean }>;
  body?: Schema;
  bodyType?: string;
}

/** One generated request, before it is sent. */
export interface FuzzRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Violation {
  property: 'status5xx' | 'contractShape' | 'partialWrite';
  request: FuzzRequest;
  status: number;
  responseBody: string;
}

export interface FuzzResult {
  requests: number;
  operations: number;
  status5xx: number;
  partialWrites: number;
  contractShapeViolations: number;
  violations: Violation[];
  statuses: Record<string, number>;
}

/** Codes of contract §0 and the resource codes (any `*_NOT_FOUND`), plus the README's documented additions. */
const KNOWN_CODES = new Set([
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'METHOD_NOT_ALLOWED',
  'FILE_TOO_LARGE',
  'MISSING_FILE',
  'INVALID_CSV',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INVALID_CREDENTIALS',
  'INVALID_CURRENT_PASSWORD',
  'EMAIL_TAKEN',
  'RATE_LIMITED',
  'INVALID_PROJECT',
  'TASK_NOT_PENDING',
  'MISSING_FIELDS',
  'INVALID_TYPE',
  'OPTIONS_REQUIRED',
  'INSUFFICIENT_CREDITS',
  'INVALID_TASK',
  'BATCH_TOO_LARGE',
  'INVALID_CURSOR',
  'INVALID_FORMAT',
  'INVALID_RATIOS',
  'INVALID_ANSWER',
  'ALREADY_ANSWERED',
  'NO_ASSIGNMENT',
  'TASK_CLOSED',
  'ANNOTATOR_SUSPENDED',
  'INSUFFICIENT_EARNINGS',
  'PAYOUT_TOO_SMALL',
  'IDEMPOTENCY_KEY_REUSED',
  'PROJECT_HAS_TASKS',
  'INVALID_TOKEN',
  'LIMIT_EXCEEDED',
  'INVALID_SIGNATURE',
  'PAYOUT_NOT_PENDING',
  'HEADERS_TOO_LARGE',
  'BAD_REQUEST',
  'REQUEST_TIMEOUT',
  'INVITATION_INVALID',
  'ALREADY_MEMBER',
  'FOUNDER_STAYS_OWNER',
]);

/**
 * Tables a refused request may legitimately write: the shared rate-limit counters (every request to a
 * sensitive route is counted, refused or not: that is what a rate limit is) and Prisma's migration log.
 */
const UNCHECKED_TABLES = new Set(['rate_limit_counters', '_prisma_migrations']);

const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d',
  '\u202eevil',
  'e\u0301\u0301\u0301',
  '👍🏽',
  '\uFEFF',
  '\uFFFD',
  '%FF',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE tasks; --",
  '=HYPERLINK("http://x")',
  '<script>alert(1)</script>',
  'null',
  'true',
  '0',
  '-1',
  '1e308',
  'NaN',
  'c'.repeat(25),
  'x'.repeat(300),
  'y'.repeat(5_000),
];
const EDGE_NUMBERS = [0, -0, -1, 1, 0.5, 1e308, -1e308, 2 ** 53, 2 ** 31, -(2 ** 31), 86_400_001, 100_001, 10_000_001, 499, 500];

const edgeString = fc.constantFrom(...EDGE_STRINGS);
const anyString = fc.oneof(
  edgeString,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);
const junk: fc.Arbitrary<Json> = fc.oneof(
  anyString,
  fc.constantFrom<Json>(...EDGE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

/** An arbitrary for a JSON schema (the subset zod-to-openapi writes), mostly valid, sometimes not. */
function fromSchema(doc: Schema, schema: Schema | undefined, depth = 0): fc.Arbitrary<Json> {
  if (!schema || depth > 6) return junk;
  const ref = schema.$ref as string | undefined;
  if (ref) return fromSchema(doc, (doc.components as { schemas: Record<string, Schema> }).schemas[ref.split('/').pop() as string], depth + 1);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => fromSchema(doc, v, depth + 1)));
  if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
  if (schema.const !== undefined) return fc.constant(schema.const as Json);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null');
  const valid = ((): fc.Arbitrary<Json> => {
    switch (type) {
      case 'string': {
        const min = (schema.minLength as number | undefined) ?? 0;
        const max = Math.min((schema.maxLength as number | undefined) ?? 60, 200);
        if (schema.format === 'uri') return fc.constantFrom('https://example.com/hook', 'http://127.0.0.1:9/x', 'ftp://x', 'not a url');
        if (schema.format === 'email') return fc.emailAddress();
        return fc.string({ minLength: Math.min(min, max), maxLength: Math.max(min, max) });
      }
      case 'integer':
        return fc.integer({ min: (schema.minimum as number | undefined) ?? -1_000, max: (schema.maximum as number | undefined) ?? 1_000_000 });
      case 'number':
        return fc.double({ min: (schema.minimum as number | undefined) ?? -1e6, max: (schema.maximum as number | undefined) ?? 1e6, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(fromSchema(doc, schema.items as Schema | undefined, depth + 1), {
          minLength: Math.min((schema.minItems as number | undefined) ?? 0, 5),
          maxLength: Math.min((schema.maxItems as number | undefined) ?? 5, 5),
        });
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, Schema>;
        const required = new Set((schema.required ?? []) as string[]);
        const entries = Object.entries(properties).map(([key, value]) => [key, fromSchema(doc, value, depth + 1)] as const);
        if (entries.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), junk, { maxKeys: 3 });
        return fc.record(Object.fromEntries(entries), { requiredKeys: [...required].filter((k) => k in properties) }) as fc.Arbitrary<Json>;
      }
      default:
        return junk;
    }
  })();
  return types.includes('null') ? fc.oneof(valid, fc.constant(null)) : valid;
}

/** Mutations of a valid value: a key dropped, an unknown key, a value replaced by junk, or junk whole. */
function mutated(value: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 4, arbitrary: value },
    {
      weight: 3,
      arbitrary: fc.tuple(value, fc.nat(), junk, fc.constantFrom('drop', 'replace', 'extra')).map(([v, n, j, how]) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return j;
        const keys = Object.keys(v);
        const copy: { [key: string]: Json } = { ...v };
        if (how === 'extra' || keys.length === 0) copy[`unknown${n % 3}`] = j;
        else if (how === 'drop') delete copy[keys[n % keys.length] as string];
        else copy[keys[n % keys.length] as string] = j;
        return copy;
      }),
    },
    { weight: 1, arbitrary: junk },
  );
}

/** Credentials a request may carry; filled once the accounts exist. */
export interface Identities {
  buyer: string;
  otherBuyer: string;
  developerKey: string;
  developerJwt: string;
  admin: string;
}

/** Ids that exist: the caller's own and another tenant's, by the kind of thing they name. */
export interface KnownIds {
  own: string[];
  foreign: string[];
}

function requestArbitrary(doc: Schema, operation: Operation, identities: Identities, ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.params.filter((p) => p.in === 'path');
  const queryParams = operation.params.filter((p) => p.in === 'query');
  const idValue = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids.own) },
    { weight: 2, arbitrary: fc.constantFrom(...ids.foreign) },
    { weight: 2, arbitrary: fc.constantFrom('%FF', '%00', '%E2%80%AE', '%C0%AF', '%25', 'x'.repeat(10_000), 'c000000000000000000000000', '..', '%2F') },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s) || 'x') },
  );
  const path = fc.tuple(...pathParams.map(() => idValue)).map((values) => {
    let result = `/api/v1${operation.path}`;
    pathParams.forEach((param, i) => (result = result.replace(`{${param.name}}`, values[i] as string)));
    return result;
  });
  const query = fc
    .tuple(
      fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof(fromSchema(doc, p.schema).map(String), anyString)])), { requiredKeys: [] }),
      fc.option(fc.tuple(fc.constantFrom('limit', 'cursor', 'unknown', 'status', 'format', 'limit[]'), anyString), { nil: undefined }),
    )
    .map(([values, extra]) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(values)) search.append(key, String(value));
      if (extra) search.append(extra[0], extra[1]);
      const text = search.toString();
      return text ? `?${text}` : '';
    });
  const right = operation.role === 'anonymous' ? undefined : `Bearer ${identities[operation.role]}`;
  const anyCredential = fc.constantFrom<[string, string | undefined]>(
    ['anonymous', undefined],
    ['buyer', `Bearer ${identities.buyer}`],
    ['otherBuyer', `Bearer ${identities.otherBuyer}`],
    ['developerKey', `Bearer ${identities.developerKey}`],
    ['developerJwt', `Bearer ${identities.developerJwt}`],
    ['admin', `Bearer ${identities.admin}`],
    ['garbage', 'Bearer not.a.token'],
    ['malformed', 'Basic Zm9vOmJhcg=='],
  );
  const credential = fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, string | undefined]>([operation.role, right]) },
    { weight: 1, arbitrary: anyCredential },
  );
  const sendsBody = operation.method !== 'get' && operation.method !== 'delete';
  const bodyValue = mutated(fromSchema(doc, operation.body));
  const body: fc.Arbitrary<{ bytes?: Buffer; contentType?: string; encoding?: string }> = sendsBody
    ? fc.oneof(
        { weight: 6, arbitrary: bodyValue.map((v) => ({ bytes: Buffer.from(JSON.stringify(v)), contentType: 'application/json' })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              '{"a":',
              '[1,2',
              'nul',
              '{"a":"\\ud800"}',
              '{"a":"\\u0000"}',
              '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
              '',
            )
            .map((t) => ({ bytes: Buffer.from(t), contentType: 'application/json' })),
        },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: Buffer.from(b), contentType: 'application/json' })) },
        { weight: 1, arbitrary: bodyValue.map((v) => ({ bytes: Buffer.from(JSON.stringify(v)), contentType: 'application/json', encoding: 'gzip' })) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              bodyValue,
              fc.constantFrom(
                'text/plain',
                'application/x-www-form-urlencoded',
                'application/json; charset=latin1',
                'application/xml',
                'multipart/form-data; boundary=x',
                '',
              ),
            )
            .map(([v, type]) => ({ bytes: Buffer.from(JSON.stringify(v)), contentType: type })),
        },
        { weight: 1, arbitrary: fc.constant({}) },
      )
    : fc.oneof(
        { weight: 8, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constant({ bytes: Buffer.from('{"x":1}'), contentType: 'application/json' }) },
      );
  const idempotencyKey = fc.option(fc.oneof(fc.uuid(), fc.constantFrom('k', 'k'.repeat(255), 'k'.repeat(256), '\u00e9t\u00e9')), { nil: undefined, freq: 3 });
  return fc.tuple(path, query, credential, body, idempotencyKey).map(([p, q, [, auth], b, key]) => {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = auth;
    if (b.contentType) headers['content-type'] = b.contentType;
    if (b.encoding) headers['content-encoding'] = b.encoding;
    if (key !== undefined) headers['idempotency-key'] = key;
    return { operation: `${operation.method.toUpperCase()} ${operation.path}`, method: operation.method.toUpperCase(), path: p + q, headers, body: b.bytes };
  });
}

function operationsOf(doc: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content ?? {};
      const [bodyType, media] = Object.entries(content)[0] ?? [];
      const security = ((op.security ?? []) as Array<Record<string, unknown>>).flatMap((entry) => Object.keys(entry));
      const role: Operation['role'] = security.includes('apiKey')
        ? 'developerKey'
        : !security.includes('jwt')
          ? 'anonymous'
          : path.startsWith('/admin')
            ? 'admin'
            : path === '/auth/regenerate-api-key'
              ? 'developerJwt'
              : 'buyer';
      operations.push({ method, path, role, params: (op.parameters ?? []) as Operation['params'], body: media?.schema, bodyType });
    }
  }
  return operations;
}

/** Sends raw requests to an in-process server (the one the service runs: createHttpServer) over one keep-alive agent. */
function sender(app: Express) {
  const server = createHttpServer(app);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ready = new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  return {
    async send(request: FuzzRequest): Promise<{ status: number; type: string; body: string }> {
      const port = await ready;
      return new Promise((resolve, reject) => {
        const headers = { ...request.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}) };
        const req = http.request({ host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent }, (res) => {
          const type = String(res.headers['content-type'] ?? '');
          if (type.startsWith('text/event-stream')) {
            // An accepted GET /events/stream never ends by itself: its status and headers are the answer.
            res.destroy();
            resolve({ status: res.statusCode ?? 0, type, body: '' });
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(request.body);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A checksum of every row of every table (but UNCHECKED_TABLES), in one statement. */
export async function checksummer(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const tables = rows.map((r) => r.tablename).filter((t) => !UNCHECKED_TABLES.has(t));
  const sql = `SELECT md5(string_agg(part, '|' ORDER BY name)) AS sum FROM (${tables
    .map((t) => `SELECT '${t}' AS name, coalesce(md5(string_agg(x::text, ',' ORDER BY x::text)), '') AS part FROM "${t}" x`)
    .join(' UNION ALL ')}) parts`;
  return {
    sum: async () => (await client.query<{ sum: string }>(sql)).rows[0]?.sum ?? '',
    close: () => client.end(),
  };
}

function shapeProblem(type: string, text: string): string | undefined {
  if (!type.startsWith('application/json')) return `error with content-type ${type}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'error body is not JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'error body is not an object';
  const { error, code, details, taskIndex, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `unexpected keys ${Object.keys(rest).join(',')}`;
  if (typeof error !== 'string' || error.length === 0) return 'error is not a string';
  if (typeof code !== 'string' || !(KNOWN_CODES.has(code) || /^[A-Z]+(_[A-Z]+)*_NOT_FOUND$/.test(code) || code === 'NOT_FOUND'))
    return `unknown code ${String(code)}`;
  if (details !== undefined && (typeof details !== 'object' || details === null || Array.isArray(details))) return 'details is not an object';
  if (taskIndex !== undefined && !Number.isInteger(taskIndex)) return 'taskIndex is not an integer';
  return undefined;
}

export interface FuzzOptions {
  app: Express;
  databaseUrl: string;
  runs: number;
  seed: number;
  identities: Identities;
  ids: KnownIds;
  onProgress?: (done: number) => void;
}

export async function fuzz(options: FuzzOptions): Promise<FuzzResult> {
  const http = sender(options.app);
  const checksum = await checksummer(options.databaseUrl);
  try {
    const doc = JSON.parse((await http.send({ operation: 'openapi', method: 'GET', path: '/api/v1/openapi.json', headers: {} })).body) as Schema;
    const operations = operationsOf(doc);
    const arbitrary = fc.oneof(...operations.map((op) => requestArbitrary(doc, op, options.identities, options.ids)));
    const requests = fc.sample(arbitrary, { numRuns: options.runs, seed: options.seed });
    const result: FuzzResult = {
      requests: 0,
      operations: operations.length,
      status5xx: 0,
      partialWrites: 0,
      contractShapeViolations: 0,
      violations: [],
      statuses: {},
    };
    let before = await checksum.sum();
    for (const request of requests) {
      const response = await http.send(request);
      result.requests += 1;
      result.statuses[response.status] = (result.statuses[response.status] ?? 0) + 1;
      const record = (property: Violation['property']) =>
        result.violations.push({ property, request, status: response.status, responseBody: response.body.slice(0, 500) });
      if (response.status >= 500) {
        result.status5xx += 1;
        record('status5xx');
      }
      if (response.status >= 400 && shapeProblem(response.type, response.body)) {
        result.contractShapeViolations += 1;
        record('contractShape');
      }
      const after = await checksum.sum();
      if (response.status >= 400 && after !== before) {
        result.partialWrites += 1;
        record('partialWrite');
      }
      before = after;
      options.onProgress?.(result.requests);
    }
    return result;
  } finally {
    await checksum.close();
    await http.close();
  }
}

export { shapeProblem };
