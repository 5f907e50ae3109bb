// The dashboard's end-to-end tests: a real server process, Debian's Chromium driven by playwright-core.
// `npm run test:e2e` (CI runs it after `npm test`; it needs /usr/bin/chromium — `.ci/run` installs it).
// CONCORD_CANARY=1 runs only the planted failure in test/canary/, as vitest.config.ts does.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: process.env.CONCORD_CANARY === '1' ? ['test/canary/*.test.ts'] : ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'test/e2e/support/build-dashboard.ts'],
    // One browser at a time on two cores; each file starts its own server on its own database.
    maxWorkers: 1,
    fileParallelism: false,
    // A UI update after an API round trip, with Chromium on two cores: more than expect.poll's 1 s default.
    expect: { poll: { timeout: 15_000 } },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
