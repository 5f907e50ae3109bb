import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

type HeaderStep = { set: string; value: string | number | readonly string[] } | { remove: string };

/**
 * helmet()'s headers, worked out once: with its defaults (no per-request directive), helmet sets the same
 * headers to the same values on every response, through a dozen middlewares in a row. They are recorded
 * from one run at start-up and set in the same order on each response. A helmet that asks anything of the
 * request or does not finish at once (options with per-request values) is refused here: use helmet itself.
 */
export function securityHeaders(options?: Parameters<typeof helmet>[0]): RequestHandler {
  const steps: HeaderStep[] = [];
  let finished = false;
  const probe = {
    setHeader: (name: string, value: string | number | readonly string[]) => steps.push({ set: name, value }),
    removeHeader: (name: string) => steps.push({ remove: name }),
  };
  const noRequest = new Proxy({} as Request, {
    get: (_target, key) => {
      throw new Error(`helmet read req.${String(key)}: its headers depend on the request`);
    },
  });
  helmet(options)(noRequest, probe as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish at once: its headers cannot be worked out in advance');
  return (_req, res, next) => {
    for (const step of steps) {
      if ('set' in step) res.setHeader(step.set, step.value);
      else if (res.getHeader(step.remove) !== undefined) res.removeHeader(step.remove);
    }
    next();
  };
}
