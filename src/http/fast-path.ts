// The API's requests (nearly all of a deployment's) without Express's application router. Express runs
// every request through its router: a layer object per middleware and route, a path match per layer, a
// mount point rewriting `req.url` and `req.baseUrl`, a final handler built per request. The API's requests
// only ever pass two layers before an endpoint answers them: what every request passes (the prelude:
// request log, metrics, security headers) and the endpoint router mounted at /api/v1. So for a URL under
// /api/v1/, `app.handle` does what Express would do up to there — the same request and response
// prototypes, `res.locals`, `req.originalUrl`, `req.baseUrl` and `req.url` as the mount point sets them —
// and calls those two itself.
//
// Anything they do not answer (a path no endpoint serves, an error) goes on through Express's own
// router from the top, where the two layers now step aside (or pass the error on from where it arose):
// 404, 405, the error handler and the routes after /api/v1 answer as they always did.
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';

const passed = Symbol('fastPath');

interface Passed {
  /** Where the request left the fast path, and with what error. */
  stage: 'prelude' | 'api';
  error: unknown;
}

type WithPassed = Request & { [passed]?: Passed };

export interface FastPath {
  /** The prelude as Express's first layer: runs unless the fast path ran it. */
  prelude: RequestHandler;
  /** The API as Express's layer at the mount path: runs unless the fast path ran it. */
  api: RequestHandler;
}

/**
 * Installs the fast path on `app` for URLs that begin with `mountPath` + `/`, and returns the two handlers
 * to mount in Express in their places (`app.use(prelude)` first, then `app.use(mountPath, api)`), which
 * serve every other request, and these when they come back.
 */
export function installFastPath(app: Express, mountPath: string, prelude: RequestHandler, api: RequestHandler): FastPath {
  const prefix = `${mountPath}/`;
  // app.handle is Express's entry for every request (`app(req, res)` calls it); it is not in its types.
  const application = app as unknown as { handle: (req: Request, res: Response, callback?: NextFunction) => void };
  const expressHandle = application.handle.bind(app);

  const handle = (req: Request, res: Response, callback?: NextFunction): void => {
    const url = req.url;
    // Only the plain form: a path that starts with the mount point as written, and one more segment.
    // Anything else (another case, `//`, an absolute URL, a sub-application's call) takes Express's way.
    if (callback || !url.startsWith(prefix) || url.charCodeAt(prefix.length) === 47 /* / */ || url.length === prefix.length) {
      expressHandle(req, res, callback);
      return;
    }
    // What app.handle and its router set before the first layer.
    req.res = res;
    res.req = req;
    // (createHttpServer makes them with these prototypes already: see messageClasses there.)
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    req.baseUrl = '';
    req.originalUrl = req.originalUrl || req.url;
    const leave = (stage: Passed['stage'], error: unknown) => {
      (req as WithPassed)[passed] = { stage, error };
      expressHandle(req, res);
    };
    prelude(req, res, (error?: unknown) => {
      if (error) return leave('prelude', error);
      // What the mount point does: the mount path moves from `url` to `baseUrl` (and back on the way out).
      // (req.url as the prelude left it: a broken percent-encoding is repaired there; the mount path,
      // which has none, is unchanged.)
      const parentParams = req.params;
      req.url = req.url.slice(mountPath.length);
      req.baseUrl = mountPath;
      req.params = {};
      api(req, res, (apiError?: unknown) => {
        req.url = mountPath + req.url;
        req.baseUrl = '';
        req.params = parentParams;
        leave('api', apiError);
      });
    });
  };
  application.handle = handle;

  return {
    prelude: (req, res, next) => {
      const left = (req as WithPassed)[passed];
      if (!left) return prelude(req, res, next);
      next(left.stage === 'prelude' ? left.error : undefined);
    },
    api: (req, res, next) => {
      const left = (req as WithPassed)[passed];
      if (!left) return api(req, res, next);
      next(left.stage === 'api' ? left.error : undefined);
    },
  };
}
