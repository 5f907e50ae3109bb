import type { Request } from 'express';
import type { EndpointDefinition } from '../lib/endpoint.ts';

export interface ParsedInput {
  body: unknown;
  query: unknown;
  params: unknown;
}

/**
 * Parses body, query and path parameters with the endpoint's schemas. A ZodError thrown here becomes
 * 400 VALIDATION_ERROR in the error handler. Parts an endpoint declares no schema for are not read.
 */
export function parseInput(endpoint: EndpointDefinition, req: Request): ParsedInput {
  return {
    // A request without a JSON body is treated as an empty object, so "all fields optional" bodies
    // (and their required-field errors) behave the same with or without a content type.
    body: endpoint.body ? endpoint.body.parse(req.body ?? {}) : undefined,
    query: endpoint.query ? endpoint.query.parse({ ...req.query }) : undefined,
    params: endpoint.params ? endpoint.params.parse({ ...req.params }) : undefined,
  };
}
