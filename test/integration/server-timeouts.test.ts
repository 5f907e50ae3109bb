// contract §10: header, request and keep-alive timeouts are set, so a slow client cannot hold a
// connection.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, createHttpServer } from '../../src/lib/http-server.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

/** Opens a connection, writes `first` (never finishing the request) and resolves with what the server sent before it closed. */
function slowClient(port: number, first: string): Promise<{ reply: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(first));
    let reply = '';
    socket.on('data', (data) => {
      reply += data.toString();
    });
    socket.on('close', () => resolve({ reply, closed: true }));
    socket.on('error', () => undefined);
  });
}

async function listening(timeouts: typeof DEFAULT_TIMEOUTS) {
  const server = createHttpServer(ctx.app, timeouts);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('server timeouts', () => {
  it('sets the documented defaults', () => {
    const server = createHttpServer(ctx.app);
    expect(server.headersTimeout).toBe(DEFAULT_TIMEOUTS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(DEFAULT_TIMEOUTS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(DEFAULT_TIMEOUTS.keepAliveTimeoutMs);
  });

  it('answers 408 and closes a connection whose headers never finish', async () => {
    const { server, port } = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, checkIntervalMs: 100 });
    try {
      const { reply, closed } = await slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      expect(closed).toBe(true);
      expect(reply).toMatch(/^HTTP\/1\.1 408/);
      expect(reply).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
      expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ error: expect.any(String), code: 'REQUEST_TIMEOUT' });
    } finally {
      server.close();
    }
  });

  it('closes a connection whose body never finishes', async () => {
    const { server, port } = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, checkIntervalMs: 100 });
    try {
      const head = 'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":';
      const { closed } = await slowClient(port, head);
      expect(closed).toBe(true);
    } finally {
      server.close();
    }
  });

  it.each([
    // Found by the fuzzer (seed 14): a 10 000-character path plus a long query overflowed Node's 16 KB
    // header limit and got Node's bare 431 without a body.
    ['headers over 16 KB', `GET /api/v1/tasks/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400, 'BAD_REQUEST'],
  ])('answers %s with an error body of the contract shape', async (_name, raw, status, code) => {
    const { server, port } = await listening(DEFAULT_TIMEOUTS);
    try {
      const { reply } = await slowClient(port, raw);
      expect(reply).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(reply).toMatch(/content-type: application\/json/i);
      // Every response carries a request id (contract §0), these included.
      expect(reply).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
      expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ error: expect.any(String), code });
    } finally {
      server.close();
    }
  });
});
