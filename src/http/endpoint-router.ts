import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticate } from '../middleware/authenticate.ts';
import { jsonBody, multipartOnly, rawBytes } from '../middleware/body.ts';
import { parseInput } from '../middleware/validate.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import { parseIdempotencyKey, requestFingerprint, type IdempotencyService } from '../modules/idempotency/idempotency.service.ts';
import { isAuditAction } from '@concord/contract';
import { actingOrganisation, buyerActor, type ApiKeyPrincipal, type BuyerPrincipal, type EndpointDefinition, type UserPrincipal } from '../lib/endpoint.ts';
import { sendOutcome } from '../modules/idempotency/idempotent-response.ts';
import { sendJson } from './respond.ts';
import { buildRouteTable, candidates, handles, matchSegments, splitPath, type Route } from './route-table.ts';
import { runInOrder } from './series.ts';

export interface RouterDeps {
  auth: AuthService;
  sensitiveRateLimit: RequestHandler;
  idempotency: IdempotencyService;
  /** Resolves once decided tasks' effects committed before the call are applied (see `unsettledReads`). */
  settled: () => Promise<void>;
}

/** The account an idempotency key belongs to: the JWT's account, or the API key's developer. */
// A buyer's Idempotency-Keys are its organisation's, as its tasks' are (TasksService): a member's retry
// replays another's. Account management (sessionOnly: keys with their secrets, members, invitations) keeps
// them the person's own, so no member replays what another was shown.
const keyOwner = (principal: UserPrincipal | ApiKeyPrincipal, personal: boolean) =>
  principal.kind === 'apiKey' ? principal.developerId : personal ? principal.accountId : (actingOrganisation(principal) ?? principal.accountId);

/** What `req.route` holds once a route matched, as Express's router set it (its `path` is the declared one). */
interface MatchedRoute {
  path: string;
}

interface Mounted {
  route: MatchedRoute;
  chain: RequestHandler[];
}

/**
 * Every endpoint as: rate limit (sensitive routes) → authenticate(access) → read the body → validate →
 * handler. Nothing reads a body before the route and the credential are known.
 *
 * One request handler, mounted where Express's router was (`/api/v1`): it finds the endpoint in a table
 * (route-table.ts) and runs its chain itself, as Express's router did with one route per endpoint — the
 * same first-declared-wins order, HEAD by GET routes, OPTIONS answered with the matching routes' methods,
 * `req.params` decoded, `req.route` set, and a request no route takes passed on (404 and 405 stay where they
 * were, after this handler).
 */
export function buildRouter(endpoints: EndpointDefinition[], deps: RouterDeps): RequestHandler {
  const table = buildRouteTable(
    endpoints.map((endpoint) => {
      if (endpoint.params && !endpoint.notFound)
        throw new Error(`${endpoint.method} ${endpoint.path}: a route with path parameters names its 404 code (notFound)`);
      if ((endpoint.access === 'buyer') !== (endpoint.permission !== undefined))
        throw new Error(`${endpoint.method} ${endpoint.path}: a buyer route declares its permission, and only a buyer route does`);
      if (endpoint.access === 'buyer' && endpoint.method !== 'get' && !isAuditAction(endpoint.operationId))
        throw new Error(
          `${endpoint.method} ${endpoint.path}: a buyer route that changes something is audited (add ${endpoint.operationId} to AUDITED_ACTIONS)`,
        );
      return { method: endpoint.method, path: endpoint.path, value: { route: { path: endpoint.path }, chain: endpointChain(endpoint, deps) } };
    }),
  );

  return (req, res, next) => {
    const segments = splitPath(req.path);
    const routes = segments ? candidates(table, segments) : [];
    if (routes.length === 0) return next();
    dispatch(req, res, next, routes, segments as string[]);
  };
}

/**
 * Tries the candidate routes in order from `start`, as Express's router walked its stack: the first whose
 * path matches and that handles the method runs; `next('route')` from its chain goes on with the rest.
 */
function dispatch(req: Request, res: Response, next: NextFunction, routes: readonly Route<Mounted>[], segments: string[]): void {
  const parentParams = req.params;
  const method = req.method;
  const allow: string[] | undefined = method === 'OPTIONS' ? [] : undefined;
  let index = 0;
  const leave = (error?: unknown) => {
    req.params = parentParams;
    if (allow && allow.length > 0 && !error) {
      try {
        sendOptions(res, allow);
      } catch (sendError) {
        next(sendError);
      }
      return;
    }
    next(error);
  };
  const scan = (): void => {
    while (index < routes.length) {
      const route = routes[index++] as Route<Mounted>;
      const raw = matchSegments(route, segments);
      if (!raw) continue;
      let params: Record<string, string>;
      try {
        params = decodeParams(raw);
      } catch (error) {
        return leave(error);
      }
      if (!handles(route.method, method)) {
        if (allow) {
          allow.push(route.method);
          if (route.method === 'GET') allow.push('HEAD');
        }
        // Express's router enters a matching route of another method with HEAD (which then runs nothing).
        if (method === 'HEAD') {
          req.route = route.value.route;
          req.params = params;
        }
        continue;
      }
      req.route = route.value.route;
      req.params = params;
      return runInOrder(route.value.chain, req, res, (error) => {
        if (error === 'route') return scan();
        if (error === 'router') return leave();
        if (error) return leave(error);
        scan();
      });
    }
    leave();
  };
  scan();
}

function decodeParams(raw: Record<string, string>): Record<string, string> {
  for (const key in raw) {
    const value = raw[key] as string;
    if (value.includes('%')) {
      try {
        raw[key] = decodeURIComponent(value);
      } catch (error) {
        if (error instanceof URIError) Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
        throw error;
      }
    }
  }
  return raw;
}

/** Express's automatic OPTIONS answer: the methods, sorted, as `Allow` and as the body. */
function sendOptions(res: Response, methods: string[]): void {
  const allow = [...new Set(methods)].sort().join(', ');
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allow);
}

function endpointChain(endpoint: EndpointDefinition, deps: RouterDeps): RequestHandler[] {
  const chain: RequestHandler[] = [
    (req, res, next) => {
      res.locals.route = `${req.baseUrl}${endpoint.path}`;
      next();
    },
  ];
  if (endpoint.rateLimited) chain.push(deps.sensitiveRateLimit);
  if (endpoint.access !== 'public')
    chain.push(
      authenticate(deps.auth, endpoint.access, {
        sessionOnly: endpoint.sessionOnly,
        permission: endpoint.permission,
        projectScoped: endpoint.projectScoped,
        personal: endpoint.personal,
      }),
    );
  if (endpoint.bodyBytes) chain.push(rawBytes);
  else if (endpoint.consumes) chain.push(multipartOnly);
  else if (endpoint.method !== 'get') chain.push(jsonBody(endpoint.bodyLimit ?? '1mb'));
  if (endpoint.middleware) chain.push(...endpoint.middleware);
  const status = endpoint.status ?? 200;
  const action = endpoint.access === 'buyer' && isAuditAction(endpoint.operationId) ? endpoint.operationId : undefined;
  chain.push(async (req, res) => {
    const input = parseInput(endpoint, req);
    if (!endpoint.unsettledReads) await deps.settled();
    const principal = res.locals.principal as UserPrincipal | ApiKeyPrincipal | undefined;
    const actor = action && principal ? buyerActor(principal as BuyerPrincipal, req.ip, action) : undefined;
    const run = () => endpoint.handler({ ...input, principal, actor, req, res } as Parameters<EndpointDefinition['handler']>[0]);
    const key = endpoint.idempotent === 'router' ? parseIdempotencyKey(req.headers['idempotency-key']) : undefined;
    if (key !== undefined) {
      // The path names the target (a buyer to credit, an annotator to pay), so it is part of the request.
      const fingerprint = requestFingerprint(`${endpoint.method.toUpperCase()} ${req.baseUrl}${req.path}`, input.body ?? req.body);
      await sendOutcome(
        res,
        await deps.idempotency.runAmbient(keyOwner(principal as UserPrincipal | ApiKeyPrincipal, endpoint.sessionOnly === true), key, fingerprint, status, run),
      );
      return;
    }
    const result = await run();
    if (res.headersSent) return;
    if (status === 204) res.status(204).end();
    else sendJson(req, res, status, result);
  });
  return chain;
}
