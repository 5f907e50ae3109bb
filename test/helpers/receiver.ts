// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (raw body included) and
// answers with whatever the test scripts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  path: string;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Answers for the next requests, in order; afterwards 200. `delayMs` holds the answer back. */
  script(...responses: Array<{ status: number; delayMs?: number }>): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const queue: Array<{ status: number; delayMs?: number }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const next = queue.shift() ?? { status: 200 };
      const reply = () => {
        if (!res.destroyed) res.writeHead(next.status).end('ok');
      };
      if (next.delayMs) setTimeout(reply, next.delayMs).unref();
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    script: (...responses) => queue.push(...responses),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
