import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The dashboard's pure logic is tested beside it (web/src/**/*.test.ts), against the service's own rules.
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    // The browser tests have their own config and command (npm run test:e2e).
    exclude: ['test/e2e/**', '**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Two cores: two workers, each on its own database cloned from a migrated template.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
