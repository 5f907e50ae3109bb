// The dashboard's end-to-end tests: a real server process, Debian's Chromium driven by playwright-core.
// `npm run test:e2e` (CI runs it after `npm test`; it needs /usr/bin/chromium — `.ci/run` installs it).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'test/e2e/support/build-dashboard.ts'],
    // One browser at a time on two cores; each file starts its own server on its own database.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
