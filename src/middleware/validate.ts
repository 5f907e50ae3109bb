import type { Request } from 'express';
import type { EndpointDefinition } from '../lib/endpoint.ts';
import { BadRequestError, NotFoundError } from '../lib/errors.ts';
import { screenValue } from '@concord/contract';

export interface ParsedInput {
  body: unknown;
  query: unknown;
  params: unknown;
}

/**
 * Parses body, query and path parameters with the endpoint's schemas. A ZodError thrown here becomes
 * 400 VALIDATION_ERROR in the error handler. Every string of the body and query is screened first,
 * whether or not the endpoint declares a schema for it (some routes validate their body in the
 * service, in a prescribed order of codes), so none reaches the database.
 */
export function parseInput(endpoint: EndpointDefinition, req: Request): ParsedInput {
  if (!Buffer.isBuffer(req.body)) screen(req.body, 'body');
  screen(req.query, 'query');
  return {
    params: parseParams(endpoint, req),
    // A request without a JSON body is treated as an empty object, so "all fields optional" bodies
    // (and their required-field errors) behave the same with or without a content type.
    body: endpoint.body ? endpoint.body.parse(req.body ?? {}) : undefined,
    query: endpoint.query ? endpoint.query.parse({ ...req.query }) : undefined,
  };
}

function screen(value: unknown, root: string): void {
  const issue = screenValue(value, root);
  if (issue) throw new BadRequestError('VALIDATION_ERROR', `Invalid request: ${issue.path}: ${issue.message}`, { issues: [issue] });
}

/** A path id that fails its schema or could not be stored names nothing: the resource's 404. */
function parseParams(endpoint: EndpointDefinition, req: Request): unknown {
  if (!endpoint.params) return undefined;
  const params = { ...req.params };
  const parsed = screenValue(params, 'params') ? undefined : endpoint.params.safeParse(params);
  if (parsed?.success) return parsed.data;
  const code = endpoint.notFound ?? 'NOT_FOUND';
  throw new NotFoundError(code, notFoundMessage(code));
}

/** `GOLDEN_TASK_NOT_FOUND` → `Golden task not found`. */
export function notFoundMessage(code: string): string {
  const resource = code
    .replace(/_?NOT_FOUND$/, '')
    .replaceAll('_', ' ')
    .toLowerCase();
  return resource ? `${resource[0]?.toUpperCase()}${resource.slice(1)} not found` : 'Not found';
}
