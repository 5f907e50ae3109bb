import { Router, type RequestHandler } from 'express';
import { authenticate } from '../middleware/authenticate.ts';
import { jsonBody, multipartOnly, rawBytes } from '../middleware/body.ts';
import { parseInput } from '../middleware/validate.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import { parseIdempotencyKey, requestFingerprint, type IdempotencyService } from '../modules/idempotency/idempotency.service.ts';
import type { ApiKeyPrincipal, EndpointDefinition, UserPrincipal } from '../lib/endpoint.ts';
import { sendOutcome } from '../modules/idempotency/idempotent-response.ts';

export interface RouterDeps {
  auth: AuthService;
  sensitiveRateLimit: RequestHandler;
  idempotency: IdempotencyService;
  /** Resolves once decided tasks' effects committed before the call are applied (see `unsettledReads`). */
  settled: () => Promise<void>;
}

/** The account an idempotency key belongs to: the JWT's account, or the API key's developer. */
const keyOwner = (principal: UserPrincipal | ApiKeyPrincipal) => (principal.kind === 'user' ? principal.accountId : principal.developerId);

/**
 * Mounts each endpoint as: rate limit (sensitive routes) → authenticate(access) → read the body →
 * validate → handler. Nothing reads a body before the route and the credential are known.
 */
export function buildRouter(endpoints: EndpointDefinition[], deps: RouterDeps): Router {
  const router = Router();
  for (const endpoint of endpoints) {
    if (endpoint.params && !endpoint.notFound)
      throw new Error(`${endpoint.method} ${endpoint.path}: a route with path parameters names its 404 code (notFound)`);
    const chain: RequestHandler[] = [
      (req, res, next) => {
        res.locals.route = `${req.baseUrl}${endpoint.path}`;
        next();
      },
    ];
    if (endpoint.rateLimited) chain.push(deps.sensitiveRateLimit);
    if (endpoint.access !== 'public') chain.push(authenticate(deps.auth, endpoint.access, { sessionOnly: endpoint.sessionOnly }));
    if (endpoint.bodyBytes) chain.push(rawBytes);
    else if (endpoint.consumes) chain.push(multipartOnly);
    else if (endpoint.method !== 'get') chain.push(jsonBody(endpoint.bodyLimit ?? '1mb'));
    if (endpoint.middleware) chain.push(...endpoint.middleware);
    chain.push(async (req, res) => {
      const input = parseInput(endpoint, req);
      if (!endpoint.unsettledReads) await deps.settled();
      const run = () => endpoint.handler({ ...input, principal: res.locals.principal, req, res } as Parameters<EndpointDefinition['handler']>[0]);
      const status = endpoint.status ?? 200;
      const key = endpoint.idempotent === 'router' ? parseIdempotencyKey(req.headers['idempotency-key']) : undefined;
      if (key !== undefined) {
        // The path names the target (a buyer to credit, an annotator to pay), so it is part of the request.
        const fingerprint = requestFingerprint(`${endpoint.method.toUpperCase()} ${req.baseUrl}${req.path}`, input.body ?? req.body);
        await sendOutcome(res, await deps.idempotency.runAmbient(keyOwner(res.locals.principal), key, fingerprint, status, run));
        return;
      }
      const result = await run();
      if (res.headersSent) return;
      if (status === 204) res.status(204).end();
      else res.status(status).json(result);
    });
    router[endpoint.method](endpoint.path, ...chain);
  }
  return router;
}
