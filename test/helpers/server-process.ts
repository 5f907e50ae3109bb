// The real server as a child process (node + tsx, no npm wrapper, so signals reach it directly).
import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_JWT_SECRET } from './context.ts';
import { freePort } from './ports.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

export async function spawnServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const inherited: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('VITEST')) inherited[key] = value;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    env: {
      ...inherited,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (
      (await fetch(`${url}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return { url, child, exited, output: () => output };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

/** Polls `condition` every 100 ms until it holds or `timeoutMs` passes. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
