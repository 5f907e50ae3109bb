import { createServer } from 'node:net';

// Each test worker takes its ports from a range of its own, below the kernel's ephemeral range (32768 and
// up on Linux), so that no two workers are ever handed the same port. Ports the OS picked (listen(0)) could
// be: a server spawned by one worker then failed to listen, while its readiness probe was answered by
// another worker's server on another database.
const RANGE_START = 20_000;
const RANGE_SIZE = 200;
const RANGES = 60;
let nextOffset = 0;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on loopback that nothing listens on right now, from this worker's own range. */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? '0') % RANGES;
  for (let attempt = 0; attempt < RANGE_SIZE; attempt++) {
    const port = RANGE_START + worker * RANGE_SIZE + (nextOffset++ % RANGE_SIZE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${RANGE_START + worker * RANGE_SIZE}–${RANGE_START + (worker + 1) * RANGE_SIZE - 1}`);
}
