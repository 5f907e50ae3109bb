import { CAP_ACTIONS, capCentsSchema, MAX_LISTED_CAPS } from '@concord/contract';
import { z } from 'zod';

export const setCapBody = z.strictObject({
  capCents: capCentsSchema.meta({ description: 'The cap in cents (0 to 10 000 000 000); null removes it' }),
});

export const setProjectCapBody = z.strictObject({
  capCents: capCentsSchema.meta({ description: 'The cap in cents (0 to 10 000 000 000); null removes it' }),
  capAction: z.enum(CAP_ACTIONS).optional().meta({
    description:
      "What a task past the cap meets: `refuse` (402 BUDGET_CAP_REACHED; a new project's) or `hold` (created PENDING and held, neither reserved nor served, until the cap is set again). Omitted: the project's stays",
  }),
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
    capAction: z.enum(CAP_ACTIONS),
    committedCents: z.number().int().meta({ description: "What the project's tasks commit now, over its whole life (held tasks commit nothing)" }),
    heldTasks: z.number().int().meta({ description: 'Tasks held by the cap, waiting for it to be set again' }),
  })
  .meta({ id: 'ProjectCap' });

export const capsResponse = z.object({
  monthly: monthlyCapSchema,
  projects: z
    .array(projectCapSchema)
    .max(MAX_LISTED_CAPS)
    .meta({ description: `The projects with a budget cap, by name (the first ${MAX_LISTED_CAPS})` }),
});
