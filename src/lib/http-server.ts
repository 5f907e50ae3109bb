// The HTTP server and its timeouts (contract §10). Without them a client that sends its headers or its
// body a byte at a time holds a connection for as long as it likes.
import http, { type RequestListener, type Server } from 'node:http';

export interface ServerTimeouts {
  /** All request headers must arrive within this (slow-header attacks). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (a 10 MB batch on a slow link fits). */
  requestTimeoutMs: number;
  /**
   * An idle keep-alive connection is closed after this; longer than the 60 s idle timeout of common
   * load balancers, so they never reuse a connection the server has just closed.
   */
  keepAliveTimeoutMs: number;
  /** How often the server looks for connections past the header and request timeouts. */
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 65_000,
  checkIntervalMs: 5_000,
};

export function createHttpServer(app: RequestListener, timeouts: ServerTimeouts = DEFAULT_TIMEOUTS): Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    app,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  return server;
}
