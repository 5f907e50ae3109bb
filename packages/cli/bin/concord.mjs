#!/usr/bin/env node
// The `concord` executable. Installed, it runs the build (dist/esm/bin.js). In a checkout of the repository
// where the packages are not built, it runs the TypeScript sources (src/bin.ts) with tsx, reading
// @concord/sdk and @concord/contract from theirs too (the "source" export condition), so `npx concord`
// works right after `npm install`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/esm/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', source, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches both processes (one process group); a SIGTERM sent to this one is passed on.
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => undefined);
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1)));
}
