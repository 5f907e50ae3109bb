import { z } from 'zod';
import { timestamp } from '../../lib/schemas.ts';

const name = z.string().trim().min(1).max(200);
const description = z.string().trim().max(5000);

export const createProjectBody = z.strictObject({ name, description: description.nullish() });
export const updateProjectBody = z.strictObject({ name: name.optional(), description: description.nullable().optional() });

export const projectSchema = z
  .object({ id: z.string(), name: z.string(), description: z.string().nullable(), createdAt: timestamp, updatedAt: timestamp })
  .meta({ id: 'Project' });

const count = z.number().int();
export const projectWithStatsSchema = projectSchema
  .extend({
    stats: z.object({
      tasks: z.object({ PENDING: count, VALIDATING: count, COMPLETED: count, FAILED: count }),
      spentCents: count,
    }),
  })
  .meta({ id: 'ProjectWithStats' });
