// A seeded, bounded fuzz run over every operation of the OpenAPI document (test/fuzz/fuzz.ts): no 5xx,
// every error in the contract's shape, and no refused request changes a row. `npm run fuzz -- --runs N`
// runs longer; a counterexample it finds becomes a test in fuzz-regressions.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksummer, fuzz, shapeProblem } from '../fuzz/fuzz.ts';
import { seedFuzzData } from '../fuzz/seed.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createIsolatedTestContext();
});
afterAll(() => ctx.close());

describe('fuzzing every operation', () => {
  it('1 500 generated requests: no 5xx, errors in the contract shape, refused requests write nothing', { timeout: 240_000 }, async () => {
    const { identities, ids } = await seedFuzzData(ctx.app, ctx.services);
    const result = await fuzz({ app: ctx.app, databaseUrl: ctx.databaseUrl, runs: 1_500, seed: 20261125, identities, ids });
    expect(result.requests).toBe(1_500);
    expect(result.operations).toBeGreaterThan(50);
    // The run reached past validation: some requests succeeded and many were refused for other reasons.
    expect(Object.keys(result.statuses).length).toBeGreaterThan(5);
    expect(result.violations.slice(0, 5)).toEqual([]);
    expect({ status5xx: result.status5xx, partialWrites: result.partialWrites, contractShapeViolations: result.contractShapeViolations }).toEqual({
      status5xx: 0,
      partialWrites: 0,
      contractShapeViolations: 0,
    });
  });

  it('the properties can fail: a wrong error shape and a changed row are seen', async () => {
    expect(shapeProblem('application/json', '{"error":"x","code":"TASK_NOT_FOUND"}')).toBeUndefined();
    expect(shapeProblem('application/json', '{"error":"x","code":"INTERNAL","stack":"at …"}')).toMatch(/unexpected keys stack/);
    expect(shapeProblem('application/json', '{"error":"x","code":"SOMETHING_ELSE"}')).toMatch(/unknown code/);
    expect(shapeProblem('text/html', '<h1>Error</h1>')).toMatch(/content-type/);
    const checksum = await checksummer(ctx.databaseUrl);
    try {
      const before = await checksum.sum();
      await ctx.prisma.project.updateMany({ data: { description: 'changed behind the fuzzer' } });
      expect(await checksum.sum()).not.toBe(before);
    } finally {
      await checksum.close();
    }
  });
});
