// The setting of a test file that hands out SDK work: the work queue is global (next serves the oldest
// open task of any buyer), so such a file gets a database of its own, an admin and a developer app, and
// every test starts with no task open.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createIsolatedTestContext, type TestContext, type TestContextOptions } from './context.ts';
import { createAdmin, createDeveloper, type TestDeveloper } from './factories.ts';

export interface AnnotationWorld {
  ctx: TestContext;
  adminToken: string;
  developer: TestDeveloper;
}

/** Registers the file's hooks; the returned world is filled in before its first test runs. */
export function useAnnotationWorld(options: TestContextOptions): AnnotationWorld {
  const world = {} as AnnotationWorld;
  beforeAll(async () => {
    world.ctx = await createIsolatedTestContext(options);
    world.adminToken = (await createAdmin(world.ctx)).token;
    world.developer = await createDeveloper(world.ctx, world.adminToken);
  });
  afterAll(() => world.ctx.close());
  beforeEach(async () => {
    await world.ctx.prisma.task.updateMany({ where: { status: { in: ['PENDING', 'VALIDATING'] } }, data: { status: 'FAILED', heldAt: null } });
  });
  return world;
}
