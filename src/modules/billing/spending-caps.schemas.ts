import { capCentsSchema } from '@concord/contract';
import { z } from 'zod';

export const setCapBody = z.strictObject({
  capCents: capCentsSchema.meta({ description: 'The cap in cents (0 to 10 000 000 000); null removes it' }),
});

export const monthlyCapSchema = z
  .object({
    capCents: z.number().int().nullable().meta({ description: 'Null: no monthly cap' }),
    committedCents: z
      .number()
      .int()
      .meta({ description: 'What the tasks created this month (UTC) commit now: budgets reserved for the open ones plus what the decided ones were charged' }),
    month: z.string().meta({ description: 'The calendar month (UTC), YYYY-MM' }),
  })
  .meta({ id: 'MonthlyCap' });

export const projectCapSchema = z
  .object({
    projectId: z.string(),
    name: z.string(),
    capCents: z.number().int().nullable().meta({ description: 'Null: no cap' }),
    committedCents: z.number().int().meta({ description: "What the project's tasks commit now, over its whole life" }),
  })
  .meta({ id: 'ProjectCap' });

export const capsResponse = z.object({
  monthly: monthlyCapSchema,
  projects: z.array(projectCapSchema).meta({ description: 'The projects with a budget cap, by name' }),
});
