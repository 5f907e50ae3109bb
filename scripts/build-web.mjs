// Builds the dashboard (web/ → web/dist) when it is missing or older than its sources, so that
// `npm install && npm start` serves it with no extra step and a second start costs nothing.
// `--force` always builds. Built files are never committed (.gitignore).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'web/dist/index.html');
const sources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'sdk/src/generated/openapi.ts', 'package-lock.json'];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

const force = process.argv.includes('--force');
const stale = !existsSync(built) || sources.some((source) => newestMtime(path.join(root, source)) > statSync(built).mtimeMs);
if (force || stale) {
  console.log('Building the dashboard (web/dist)…');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) {
    console.error('The dashboard build failed; the API still works, and / says the dashboard is not built.');
    process.exit(process.argv.includes('--strict') ? 1 : 0);
  }
}
