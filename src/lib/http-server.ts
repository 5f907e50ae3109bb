// The HTTP server and its timeouts (contract §10). Without them a client that sends its headers or its
// body a byte at a time holds a connection for as long as it likes.
import { randomUUID } from 'node:crypto';
import { ERROR_STATUS } from '@concord/contract';
import http, { type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
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
      ...messageClasses(app),
    },
    app,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
  trackRequests(server);
  return server;
}

type MessageClasses = Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

/**
 * For an application that gives its requests and responses prototypes of its own (Express's `app.request`
 * and `app.response`, which derive from Node's): requests and responses made with those prototypes from
 * the start. The application's own switch of prototype (Object.setPrototypeOf on every request and
 * response) then changes nothing, where it otherwise costs V8 a new object shape for each.
 */
function messageClasses(app: RequestListener): MessageClasses {
  const { request, response } = app as unknown as { request?: unknown; response?: unknown };
  const derives = (prototype: unknown, base: object) =>
    typeof prototype === 'object' && prototype !== null && Object.prototype.isPrototypeOf.call(base, prototype);
  if (!derives(request, http.IncomingMessage.prototype) || !derives(response, http.ServerResponse.prototype)) return {};
  // Node's message classes are plain constructor functions: called on an object of the application's
  // prototype, they set it up as `new` would.
  function Request(this: http.IncomingMessage, socket: Socket) {
    http.IncomingMessage.call(this, socket);
  }
  Request.prototype = request;
  function Response(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  Response.prototype = response;
  return { IncomingMessage: Request as unknown as typeof http.IncomingMessage, ServerResponse: Response as unknown as typeof http.ServerResponse };
}

/** Each connection's requests in flight, and whether the server is closing (closeGracefully). */
const inFlight = new WeakMap<Server, { sockets: Map<Socket, number>; closing: boolean }>();

function trackRequests(server: Server): void {
  const state = { sockets: new Map<Socket, number>(), closing: false };
  inFlight.set(server, state);
  server.on('connection', (socket: Socket) => {
    state.sockets.set(socket, 0);
    socket.once('close', () => state.sockets.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    state.sockets.set(socket, (state.sockets.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (state.sockets.get(socket) ?? 1) - 1;
      state.sockets.set(socket, left);
      // Closing: a connection whose last response is out is ended (after what it still has to send).
      if (state.closing && left === 0) socket.end();
    });
  });
}

/**
 * Stops accepting and resolves once every connection is gone: requests in flight finish (their
 * connections end after their last response), and every connection without one is closed now — idle
 * keep-alive ones, and those that have not sent a request yet. Node's own close() leaves the latter
 * open (a client may open a connection before it needs one, as HTTP clients do after a stream they
 * dropped), and it stops the header-timeout checks that would have ended them, so one such connection
 * held the shutdown for its whole grace period.
 */
export function closeGracefully(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const state = inFlight.get(server);
  if (state) {
    state.closing = true;
    for (const [socket, requests] of state.sockets) if (requests === 0) socket.destroy();
  }
  return closed;
}

/**
 * What Node's HTTP parser refuses before Express sees a request (headers over 16 KB, a malformed request
 * line, a request past its timeout) still gets an error body of the contract's shape, instead of Node's
 * bare status line, and an `x-request-id` like every response (contract §0): a fresh one, since the
 * request's own headers could not be read. HEADERS_TOO_LARGE (431), BAD_REQUEST (400) and REQUEST_TIMEOUT
 * (408) are our additions to the contract's codes (listed with the others in @concord/contract).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? (['HEADERS_TOO_LARGE', 'The request headers are larger than 16 KB'] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? (['REQUEST_TIMEOUT', 'The request did not arrive in time'] as const)
        : (['BAD_REQUEST', 'The request is not valid HTTP'] as const);
  const status = ERROR_STATUS[code];
  const body = JSON.stringify({ error: message, code });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
