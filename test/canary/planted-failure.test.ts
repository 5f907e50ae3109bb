// CI's canary, run only with CONCORD_CANARY=1 (see vitest.config.ts and .ci/run): a test that must fail,
// through the same command, configuration and global setup as the real suite. If the run that contains
// it exits 0, the harness swallows failures and CI stops before trusting it with the real suite.
import { expect, it } from 'vitest';

it('concord-canary: a planted failure', () => {
  expect(1).toBe(2);
});
