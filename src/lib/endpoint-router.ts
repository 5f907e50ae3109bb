import { Router, type RequestHandler } from 'express';
import { authenticate } from '../middleware/authenticate.ts';
import { jsonBody, multipartOnly, rawBytes } from '../middleware/body.ts';
import { parseInput } from '../middleware/validate.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { EndpointDefinition } from './endpoint.ts';

export interface RouterDeps {
  auth: AuthService;
  sensitiveRateLimit: RequestHandler;
}

/**
 * Mounts each endpoint as: rate limit (sensitive routes) → authenticate(access) → read the body →
 * validate → handler. Nothing reads a body before the route and the credential are known.
 */
export function buildRouter(endpoints: EndpointDefinition[], deps: RouterDeps): Router {
  const router = Router();
  for (const endpoint of endpoints) {
    if (endpoint.params && !endpoint.notFound) throw new Error(`${endpoint.method} ${endpoint.path}: a route with path parameters names its 404 code (notFound)`);
    const chain: RequestHandler[] = [
      (req, res, next) => {
        res.locals.route = `${req.baseUrl}${endpoint.path}`;
        next();
      },
    ];
    if (endpoint.rateLimited) chain.push(deps.sensitiveRateLimit);
    if (endpoint.access !== 'public') chain.push(authenticate(deps.auth, endpoint.access));
    if (endpoint.bodyBytes) chain.push(rawBytes);
    else if (endpoint.consumes) chain.push(multipartOnly);
    else if (endpoint.method !== 'get') chain.push(jsonBody(endpoint.bodyLimit ?? '1mb'));
    if (endpoint.middleware) chain.push(...endpoint.middleware);
    chain.push(async (req, res) => {
      const input = parseInput(endpoint, req);
      const result = await endpoint.handler({ ...input, principal: res.locals.principal, req, res } as Parameters<EndpointDefinition['handler']>[0]);
      if (res.headersSent) return;
      const status = endpoint.status ?? 200;
      if (status === 204) res.status(204).end();
      else res.status(status).json(result);
    });
    router[endpoint.method](endpoint.path, ...chain);
  }
  return router;
}
