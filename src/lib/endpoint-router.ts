import { Router, type RequestHandler } from 'express';
import { authenticate } from '../middleware/authenticate.ts';
import { parseInput } from '../middleware/validate.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { EndpointDefinition } from './endpoint.ts';

export interface RouterDeps {
  auth: AuthService;
  sensitiveRateLimit: RequestHandler;
}

/** Mounts each endpoint as: rate limit (sensitive routes) → authenticate(access) → validate → handler. */
export function buildRouter(endpoints: EndpointDefinition[], deps: RouterDeps): Router {
  const router = Router();
  for (const endpoint of endpoints) {
    const chain: RequestHandler[] = [
      (req, res, next) => {
        res.locals.route = `${req.baseUrl}${endpoint.path}`;
        next();
      },
    ];
    if (endpoint.rateLimited) chain.push(deps.sensitiveRateLimit);
    if (endpoint.access !== 'public') chain.push(authenticate(deps.auth, endpoint.access));
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
