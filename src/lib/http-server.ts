// The HTTP server and its timeouts (contract §10). Without them a client that sends its headers or its
// body a byte at a time holds a connection for as long as it likes.
import { randomUUID } from 'node:crypto';
import http, { type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

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
  server.on('clientError', answerClientError);
  return server;
}

/**
 * What Node's HTTP parser refuses before Express sees a request (headers over 16 KB, a malformed request
 * line, a request past its timeout) still gets an error body of the contract's shape, instead of Node's
 * bare status line, and an `x-request-id` like every response (contract §0): a fresh one, since the
 * request's own headers could not be read. HEADERS_TOO_LARGE (431), BAD_REQUEST (400) and REQUEST_TIMEOUT
 * (408) are our additions to the contract's codes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'The request headers are larger than 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time']
        : [400, 'BAD_REQUEST', 'The request is not valid HTTP'];
  const body = JSON.stringify({ error: message, code });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
