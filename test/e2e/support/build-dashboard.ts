// Builds web/dist when it is missing or stale, so the browser tests run against the current sources.
import { spawnSync } from 'node:child_process';

export default function setup() {
  const result = spawnSync(process.execPath, ['scripts/build-web.mjs', '--strict'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the dashboard build failed');
}
