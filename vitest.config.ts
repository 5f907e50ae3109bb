import { defineConfig } from 'vitest/config';

// CONCORD_CANARY=1 runs only the planted failure in test/canary/, under this same configuration and global
// setup: .ci/run checks that it fails the run before it trusts the run with the real suite.
const canary = process.env.CONCORD_CANARY === '1';

export default defineConfig({
  // @concord/contract from its TypeScript source (its "source" export), as the server runs it from npm start.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    // The dashboard's pure logic is tested beside it (web/src/**/*.test.ts), against the service's own rules.
    include: canary ? ['test/canary/*.test.ts'] : ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    // The browser tests have their own config and command (npm run test:e2e).
    exclude: ['test/e2e/**', '**/node_modules/**', ...(canary ? [] : ['test/canary/**'])],
    globalSetup: ['test/global-setup.ts'],
    // Two cores: two workers, each on its own database cloned from a migrated template.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
