// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (raw body included) and
// answers with whatever the test scripts.
import http from 'node:http';
import type { TestContext } from './context.ts';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  path: string;
}

/** One scripted answer: its status, a delay before it, and optionally its body and headers. */
export interface ScriptedResponse {
  status: number;
  delayMs?: number;
  /** The response body; 'ok' unless set. */
  body?: string;
  headers?: Record<string, string>;
  /** The answer waits for this (then delayMs): a test holds it until it has done what must come first. */
  until?: Promise<unknown>;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Answers for the next requests, in order; afterwards the fallback (200 unless changed). */
  script(...responses: ScriptedResponse[]): void;
  /** What requests beyond the script get. */
  fallback(response: ScriptedResponse): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const queue: ScriptedResponse[] = [];
  let otherwise: ScriptedResponse = { status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const next = queue.shift() ?? otherwise;
      const reply = () => {
        if (!res.destroyed) res.writeHead(next.status, next.headers).end(next.body ?? 'ok');
      };
      const delayed = () => {
        if (next.delayMs) setTimeout(reply, next.delayMs).unref();
        else reply();
      };
      if (next.until) void next.until.then(delayed);
      else delayed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    script: (...responses) => queue.push(...responses),
    fallback: (response) => {
      otherwise = response;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Fails every delivery an earlier test left pending, once the decisions it made are settled (a charge
 * applied late can still record a budget.low): each would go to its receiver's URL, and the OS may hand
 * that port to this test's receiver. A test then counts only the deliveries it causes.
 */
export async function dropPendingDeliveries(ctx: TestContext): Promise<void> {
  await ctx.services.settlementEffects.settled();
  await ctx.prisma.webhookDelivery.updateMany({ where: { status: 'PENDING' }, data: { status: 'FAILED' } });
}
