import { z } from 'zod';
import { timestamp } from '../../lib/schemas.ts';
import { CONFIDENCE_BUCKETS } from '../tasks/task-stats.repository.ts';
import { MAX_OPTIONS } from '../tasks/task-rules.ts';

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

export const distributionSchema = z
  .object({
    labels: z
      .array(z.object({ label: z.string(), count }))
      .max(MAX_OPTIONS)
      .meta({ description: 'Results of the completed tasks, most frequent first: the 50 most frequent (a task has at most 50 options)' }),
    confidence: z
      .array(z.object({ from: z.number(), to: z.number(), count }))
      .min(CONFIDENCE_BUCKETS)
      .max(CONFIDENCE_BUCKETS)
      .meta({ description: 'Ten buckets from 0.0–0.1 to 0.9–1.0; each holds from ≤ confidence < to, the last also 1.0' }),
    completed: count.meta({ description: 'COMPLETED tasks of the project' }),
  })
  .meta({ id: 'ProjectDistribution' });
