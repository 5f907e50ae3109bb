// The OpenAPI document integrators build on, checked where Redocly's rules
// (`npm run openapi:lint`) cannot look: stable unique operationIds, examples parsed by each endpoint's
// own zod schemas (so an example cannot drift from what the route accepts and returns), the declared
// headers, numbers typed as numbers, and the webhook payloads.
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { offlineOpenApi, type OpenApiDocument } from '../../scripts/lib/openapi-document.ts';
import type { EndpointDefinition } from '../../src/lib/endpoint.ts';
import { TAGS } from '../../src/http/openapi.ts';
import { codesIn, errorExample } from '../../src/http/openapi-errors.ts';
import { errorSchema } from '../../src/lib/schemas.ts';
import { ERROR_STATUS, isErrorCode, LOGGED_EVENT_TYPES } from '@concord/contract';
import { EVENT_ID_PATTERN } from '../../src/lib/ids.ts';
import { EXAMPLE } from '../../src/lib/openapi-examples.ts';
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/webhook-payloads.ts';

interface Json {
  [key: string]: unknown;
}
interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: Array<{ $ref?: string; name?: string; in?: string; schema?: Json }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, { $ref?: string }>; content?: Record<string, Media> }>;
}
interface Media {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

let endpoints: EndpointDefinition[];
let doc: OpenApiDocument;
let operations: Array<{ key: string; operation: Operation; endpoint?: EndpointDefinition }>;
let webhooks: Array<{ key: string; operation: Operation }>;

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

beforeAll(async () => {
  ({ endpoints, document: doc } = await offlineOpenApi());
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation: item[method] as Operation,
      endpoint: endpoints.find((e) => e.method === method && openApiPath(e.path) === path),
    })),
  );
  webhooks = Object.entries((doc.webhooks ?? {}) as Record<string, Record<string, Operation>>).map(([event, item]) => ({
    key: `webhook ${event}`,
    operation: item.post as Operation,
  }));
});

/** Parses with the schema and returns the result, or the zod issues as a readable failure. */
function parsed(schema: z.ZodType, value: unknown, where: string): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${where}: the example does not parse: ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

const jsonMedia = (content: Record<string, Media> | undefined) => Object.entries(content ?? {}).filter(([type]) => type === 'application/json');

describe('operationIds', () => {
  it('every operation has one: unique, camelCase, verb first, and declared once beside its route', () => {
    expect(operations.length).toBe(endpoints.length);
    const ids = [...operations, ...webhooks].map(({ key, operation }) => {
      expect(operation.operationId, key).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    const verbs =
      /^(get|list|count|create|update|delete|revoke|register|login|change|regenerate|setup|adjust|approve|reject|reinstate|complete|request|receive|redeliver|rotate|send|switch|accept|export|import|set)[A-Z]/;
    for (const { key, operation, endpoint } of operations) {
      expect(operation.operationId, key).toMatch(verbs);
      expect(operation.operationId, key).toBe(endpoint?.operationId);
    }
  });

  it('names the operations integrators call most as the SDK does', () => {
    const byRoute = Object.fromEntries(operations.map(({ key, operation }) => [key, operation.operationId]));
    expect(byRoute).toMatchObject({
      'POST /tasks': 'createTask',
      'GET /tasks': 'listTasks',
      'GET /tasks/{id}': 'getTask',
      'POST /tasks/batch': 'createTaskBatch',
      'GET /sdk/tasks/next': 'getNextSdkTask',
      'POST /sdk/tasks/{id}/complete': 'completeSdkTask',
      'GET /exports': 'exportDataset',
    });
  });
});

describe('examples', () => {
  it('every JSON request body, success body and error body in the document has an example', () => {
    const missing: string[] = [];
    for (const { key, operation } of [...operations, ...webhooks]) {
      for (const [type, media] of jsonMedia(operation.requestBody?.content)) {
        if (media.example === undefined && !media.examples) missing.push(`${key} request ${type}`);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of jsonMedia(response.content)) {
          if (media.example === undefined && Object.keys(media.examples ?? {}).length === 0) missing.push(`${key} ${status} ${type}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("every request example parses with the endpoint's own body schema", () => {
    for (const endpoint of endpoints) {
      const schema = endpoint.rawBody ?? endpoint.body;
      if (!schema || endpoint.consumes || endpoint.method === 'get') continue;
      expect(endpoint.examples?.request, endpoint.operationId).toBeDefined();
      parsed(schema, endpoint.examples?.request, `${endpoint.operationId} request`);
    }
  });

  it("every response example is exactly a value of the endpoint's own response schema (nothing stripped, nothing defaulted)", () => {
    for (const endpoint of endpoints) {
      if (endpoint.response) {
        expect(endpoint.examples?.response, endpoint.operationId).toBeDefined();
        expect(parsed(endpoint.response, endpoint.examples?.response, `${endpoint.operationId} response`), endpoint.operationId).toEqual(
          endpoint.examples?.response,
        );
      }
      for (const [type, produced] of Object.entries(endpoint.produces ?? {})) {
        if (typeof produced === 'string') continue;
        const example = endpoint.examples?.content?.[type];
        expect(example, `${endpoint.operationId} ${type}`).toBeDefined();
        expect(parsed(produced.schema, example, `${endpoint.operationId} ${type}`)).toEqual(example);
      }
    }
  });

  it('every error example is an Error body, for every code each status names', () => {
    let count = 0;
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const media = response.content?.['application/json'];
        expect(media?.schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        for (const [code, { value }] of Object.entries(media?.examples ?? {})) {
          expect(parsed(errorSchema, value, `${key} ${status} ${code}`)).toEqual(value);
          expect((value as { code: string }).code).toBe(code);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThan(operations.length * 4);
  });

  it('every code a route documents has an example body written for it', () => {
    const codes = endpoints.flatMap((endpoint) => [...Object.values(endpoint.errors ?? {}).flatMap(codesIn), endpoint.notFound ?? 'NOT_FOUND']);
    expect(codes.filter((code) => !errorExample(code))).toEqual([]);
    expect(codesIn('INVALID_FORMAT, INVALID_RATIOS or VALIDATION_ERROR (over 5 MB)')).toEqual(['INVALID_FORMAT', 'INVALID_RATIOS', 'VALIDATION_ERROR']);
  });

  it('every code a route documents is one of the contract’s, under the status the contract gives it', () => {
    const documented = endpoints.flatMap((endpoint) => [
      ...Object.entries(endpoint.errors ?? {}).flatMap(([status, description]) => codesIn(description).map((code) => ({ code, status: Number(status) }))),
      { code: endpoint.notFound ?? 'NOT_FOUND', status: 404 },
    ]);
    const wrong = documented.filter(({ code, status }) => !isErrorCode(code) || ERROR_STATUS[code] !== status);
    expect(wrong).toEqual([]);
  });

  it('the examples tell one story: a task id in a list, a response and a webhook is the same task', () => {
    const taskExample = endpoints.find((e) => e.operationId === 'getTask')?.examples?.response as { id: string };
    expect((WEBHOOK_EVENTS['task.completed'].example as { taskId: string }).taskId).toBe(taskExample.id);
  });
});

describe('headers', () => {
  const refs = (operation: Operation) => (operation.parameters ?? []).flatMap((parameter) => (parameter.$ref ? [parameter.$ref] : []));

  it('x-request-id: every operation takes one and every response carries one', () => {
    for (const { key, operation } of operations) {
      expect(refs(operation), key).toContain('#/components/parameters/RequestId');
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.headers?.['x-request-id'], `${key} ${status}`).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
    }
  });

  it('Idempotency-Key on exactly the routes that honour it, with Idempotent-Replayed on their success', () => {
    for (const { key, operation, endpoint } of operations) {
      const declared = refs(operation).includes('#/components/parameters/IdempotencyKey');
      expect(declared, key).toBe(Boolean(endpoint?.idempotent));
      const success = Object.entries(operation.responses).find(([status]) => Number(status) < 300)?.[1];
      expect(Boolean(success?.headers?.['Idempotent-Replayed']), key).toBe(declared);
    }
    const parameter = (doc.components?.parameters as Record<string, unknown> | undefined)?.IdempotencyKey;
    expect(parameter).toMatchObject({ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', minLength: 1, maxLength: 255 } });
  });

  it('RateLimit and RateLimit-Policy on every response of the rate-limited routes, Retry-After on their 429, none elsewhere', () => {
    const limited: string[] = [];
    for (const { key, operation, endpoint } of operations) {
      if (endpoint?.rateLimited) limited.push(key);
      for (const [status, response] of Object.entries(operation.responses)) {
        const names = Object.keys(response.headers ?? {});
        if (endpoint?.rateLimited) expect(names, `${key} ${status}`).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
        else
          expect(
            names.filter((name) => name.startsWith('RateLimit')),
            `${key} ${status}`,
          ).toEqual([]);
        expect(names.includes('Retry-After'), `${key} ${status}`).toBe(status === '429' && Boolean(endpoint?.rateLimited));
      }
    }
    // contract §1: the sensitive routes.
    expect(limited.sort()).toEqual([
      'POST /admin/login',
      'POST /auth/change-password',
      'POST /auth/login',
      'POST /auth/regenerate-api-key',
      'POST /auth/register',
      'POST /dev/login',
      'POST /dev/setup-password',
      // An invitation's link is a credential, like setup-password's token.
      'POST /invitations/accept',
    ]);
    expect(Object.keys(doc.components?.headers ?? {}).sort()).toEqual(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id']);
  });
});

describe('numbers are typed as numbers, as the API reads them', () => {
  const parameter = (key: string, name: string) => operations.find((o) => o.key === key)?.operation.parameters?.find((p) => p.name === name)?.schema;

  it('limit is an integer on every list (the wire still takes its digits as text, unchanged)', () => {
    const lists = operations.filter(({ operation }) => operation.parameters?.some((p) => p.name === 'limit'));
    expect(lists.length).toBeGreaterThanOrEqual(15);
    for (const { key } of lists) expect(parameter(key, 'limit'), key).toMatchObject({ type: 'integer', minimum: 1, default: 20 });
    expect(parameter('GET /billing/spend', 'days')).toMatchObject({ type: 'integer', minimum: 1, maximum: 366 });
    const listTasks = endpoints.find((e) => e.operationId === 'listTasks');
    expect(listTasks?.query?.safeParse({ limit: '250' }).data).toMatchObject({ limit: 100 });
    expect(listTasks?.query?.safeParse({ limit: '1e2' }).success).toBe(false);
  });

  it('the export split ratios are numbers from 0 to 1, and the formats their list', () => {
    for (const name of ['trainRatio', 'valRatio', 'testRatio'])
      expect(parameter('GET /exports', name), name).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    expect(parameter('GET /exports', 'format')).toMatchObject({
      type: 'string',
      enum: ['json', 'jsonl', 'csv', 'openai', 'huggingface', 'alpaca', 'preference'],
    });
    // Still read as text by the service, which answers INVALID_RATIOS / INVALID_FORMAT itself.
    const exportDataset = endpoints.find((e) => e.operationId === 'exportDataset');
    expect(exportDataset?.query?.safeParse({ trainRatio: 'abc', format: 'xml' }).success).toBe(true);
  });
});

describe('webhooks', () => {
  const HEADER_PARAMETERS = [
    'WebhookSignature',
    'WebhookEvent',
    'WebhookDelivery',
    'StandardWebhookId',
    'StandardWebhookTimestamp',
    'StandardWebhookSignature',
  ];

  it('documents every event a URL can receive (the ping of a test send too), with its signed headers and an example the payload schema accepts', () => {
    expect(webhooks.map(({ key }) => key.replace('webhook ', '')).sort()).toEqual([...LOGGED_EVENT_TYPES].sort());
    for (const { key, operation } of webhooks) {
      const event = key.replace('webhook ', '') as (typeof LOGGED_EVENT_TYPES)[number];
      expect(operation.parameters?.map((p) => p.$ref)).toEqual(HEADER_PARAMETERS.map((name) => `#/components/parameters/${name}`));
      const example = operation.requestBody?.content['application/json']?.example;
      expect(parsed(WEBHOOK_EVENTS[event].schema, example, key)).toEqual(example);
      expect((example as { event: string }).event).toBe(event);
      expect(Object.keys(operation.responses).sort()).toEqual(['2XX', '4XX', '5XX']);
    }
    const ping = webhooks.find(({ key }) => key === 'webhook ping')?.operation as Operation & { description?: string; operationId?: string };
    expect(ping.operationId).toBe('pingWebhook');
    expect(ping.description).toContain('POST /webhooks/configs/{id}/test');
    expect(ping.description).toContain('never retried');
  });

  it('declares the Standard Webhooks headers, optional and said to come only with whsec_ secrets, with examples their patterns accept', () => {
    const parameters = doc.components?.parameters as Record<
      string,
      { name: string; in: string; required: boolean; description: string; schema: { pattern: string }; example: string }
    >;
    const standard = ['StandardWebhookId', 'StandardWebhookTimestamp', 'StandardWebhookSignature'].map((name) => parameters[name]);
    expect(standard.map((parameter) => parameter?.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    for (const parameter of standard) {
      expect(parameter).toMatchObject({ in: 'header', required: false });
      expect(parameter?.description).toContain("only when the configuration's secret is a Standard Webhooks secret, `whsec_`");
      expect(parameter?.example, parameter?.name).toMatch(new RegExp(parameter?.schema.pattern ?? '^$'));
    }
    expect(parameters.WebhookEvent?.schema).toMatchObject({ enum: [...LOGGED_EVENT_TYPES] });
    // Two entries during a rotation, none of another shape.
    const signature = new RegExp(parameters.StandardWebhookSignature?.schema.pattern ?? '^$');
    const entry = `v1,${Buffer.alloc(32, 7).toString('base64')}`;
    expect(`${entry} ${entry}`).toMatch(signature);
    expect(`${entry} ${entry} ${entry}`).not.toMatch(signature);
    expect('sha256=00').not.toMatch(signature);
  });

  it('the example event id is an evt_ id, as events are given', () => {
    expect(EXAMPLE.eventId).toMatch(EVENT_ID_PATTERN);
    const getEvent = endpoints.find((e) => e.operationId === 'getEvent')?.examples?.response as { id: string };
    expect(getEvent.id).toBe(EXAMPLE.eventId);
  });
});

describe('the document itself', () => {
  it('is OpenAPI 3.1 with a server relative to where it is served, a licence and every tag described', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api/v1', description: 'This service' }]);
    expect(doc.info.license?.identifier).toBe('LicenseRef-Proprietary');
    const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    for (const tag of used) expect(TAGS[tag], tag).toBeTruthy();
    expect(doc.tags?.map((tag) => tag.name).sort()).toEqual([...used].sort());
  });
});
