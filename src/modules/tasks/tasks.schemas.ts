import { z } from 'zod';
import { CONFIDENCE_DESCRIPTION, cursorSchema, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';
import {
  CSV_OPTIONAL_COLUMNS,
  CSV_REQUIRED_COLUMNS,
  ANSWER_KINDS,
  candidatesSchema,
  LOCALES,
  MAX_BATCH_TASKS,
  TASK_STATUSES,
  TASK_TYPES,
  localeSchema,
  maxCentsSchema,
  choicesSchema,
  optionConfidenceSchema,
  projectIdSchema,
  ratingResultSchema,
  taskInputSchema,
  validationsNeededSchema,
  deadlineSchema,
  prioritySchema,
  MAX_REJECTION_REASON_LENGTH,
  REVIEW_WINDOW_DAYS,
} from '@concord/contract';

export const createTaskBody = taskInputSchema;
export const batchBody = z.strictObject({ tasks: z.array(taskInputSchema).min(1).max(MAX_BATCH_TASKS) }).meta({ id: 'TaskBatch' });
export const csvUpload = z.object({
  file: z.string().meta({
    format: 'binary',
    description:
      `CSV with header ${CSV_REQUIRED_COLUMNS.join(',')}[,${CSV_OPTIONAL_COLUMNS.join(',')}] (optional columns in any order); ` +
      'options separated by |; a pairwise row leaves options empty and gives candidateA and candidateB; a text row leaves options empty and may give maxLength',
  }),
});

const recomputesQuality = "Changing it recomputes the task's maxResponses and targetConfidence from its project (or the defaults), as at creation";
export const updateTaskBody = z.strictObject({
  maxCents: maxCentsSchema.optional(),
  validationsNeeded: validationsNeededSchema.optional().meta({ description: recomputesQuality }),
  locale: localeSchema.optional(),
  projectId: projectIdSchema.nullable().optional().meta({ description: recomputesQuality }),
  deadline: deadlineSchema.nullable().optional().meta({
    description: 'A new deadline (a minute to a year ahead), or null for none; changes an open task (PENDING or VALIDATING), and a text task’s review with it',
  }),
  priority: prioritySchema
    .optional()
    .meta({ description: 'A new priority (−10 … 10); changes an open task (PENDING or VALIDATING), and a text task’s review with it' }),
});
export type TaskUpdate = z.output<typeof updateTaskBody>;

export const listTasksQuery = z.strictObject({
  status: z.enum(TASK_STATUSES).optional(),
  type: z.enum(TASK_TYPES).optional(),
  projectId: z.string().max(64).optional(),
  locale: z.enum(LOCALES).optional(),
  answerKind: z.enum(ANSWER_KINDS).optional().meta({ description: 'Only tasks of this answer kind (single choice: single)' }),
  limit: limitSchema,
  cursor: cursorSchema,
});

export const countTasksQuery = listTasksQuery.pick({ projectId: true, type: true, locale: true, answerKind: true }).extend({
  exported: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'true: only the tasks an export can hold (review tasks left out: their text task carries the result)' }),
});

const statusCount = z.number().int();
export const taskCountsResponse = z
  .object({
    counts: z.object({ PENDING: statusCount, VALIDATING: statusCount, COMPLETED: statusCount, FAILED: statusCount }),
    total: statusCount,
  })
  .meta({ id: 'TaskCounts' });

/** Present (true) only on a task its project's budget cap holds. */
const heldField = z.literal(true).optional().meta({
  description: "Present (true) when the project's budget cap holds the task (capAction hold): PENDING, neither reserved nor served until the cap is set again",
});

const taskFields = {
  id: z.string(),
  type: z.enum(TASK_TYPES),
  answerKind: z
    .enum(ANSWER_KINDS)
    .optional()
    .meta({
      description:
        'What an annotator answers: rating (one of the ordered levels), multi (a set of the options), pairwise (which of two candidates is better) ' +
        'or text (a written answer, chosen by its review task); absent for single choice (one option)',
    }),
  candidates: candidatesSchema.optional(),
  allowTie: z.boolean().optional().meta({ description: 'Pairwise tasks only: whether a tie is an answer and a result' }),
  group: z.string().nullable().optional().meta({ description: 'Pairwise tasks only: the group whose candidates are ranked together in exports, or null' }),
  maxLength: z.number().int().optional().meta({ description: 'Text tasks only: the longest written answer, in characters' }),
  reviewTaskId: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'Text tasks only: the review task that chooses between the written answers, once they are all in; null before' }),
  reviewOf: z.string().optional().meta({
    description: 'A review task only: the text task whose written answers it chooses between (options "Answer 1", "Answer 2", … in the order written)',
  }),
  allowEmpty: z.boolean().optional().meta({ description: 'Multi-select tasks only: whether the empty set is an answer and a result' }),
  choices: choicesSchema.nullable().optional().meta({ description: 'Multi-select tasks only: the result as a list; null while open' }),
  optionConfidence: optionConfidenceSchema
    .nullable()
    .optional()
    .meta({ description: 'Multi-select tasks only: per option, the probability that its decision is right; null while open. confidence is the least of them' }),
  content: z.string(),
  options: z.array(z.string()).meta({ description: "The answers (a pairwise task's are A, B and, with allowTie, tie)" }),
  status: z.enum(TASK_STATUSES),
  result: z
    .string()
    .nullable()
    .meta({
      description:
        'The option chosen (a rating: the level; a multi-select task: the options of the set joined by |, also in choices; ' +
        'a pairwise task: A, B or tie; a text task: the written answer its review chose); null while open',
    }),
  confidence: z
    .number()
    .nullable()
    .meta({ description: `${CONFIDENCE_DESCRIPTION}; null while the task is open` }),
  rating: ratingResultSchema
    .nullable()
    .optional()
    .meta({ description: 'Rating tasks only: the posterior mean and 90 % interval of the decided level; null while the task is open' }),
  locale: z.enum(LOCALES),
  maxCents: z.number().int(),
  costCents: z.number().int(),
  projectId: z.string().nullable(),
  totalResponses: z.number().int(),
  held: heldField,
  deadline: timestamp.nullable().meta({
    description: 'When an open task stops taking answers and ends FAILED with failureReason EXPIRED (not charged); null: no deadline',
  }),
  priority: z.number().int().meta({ description: "Orders the buyer's own tasks in next (−10 … 10; 0 by default)" }),
  revision: z.number().int().meta({ description: '1; 2 once its result was rejected (result review) and the task decided, or being decided, again' }),
  rejection: z
    .object({
      result: z.string().meta({ description: 'The result rejected, as the task showed it' }),
      confidence: z.number().nullable(),
      reason: z.string(),
      rejectedAt: timestamp,
    })
    .nullable()
    .meta({ description: "The buyer's rejection of the task's first result (POST /tasks/{id}/reject); null unless rejected" }),
  createdAt: timestamp,
  validatedAt: timestamp.nullable(),
};

export const taskListItemSchema = z.object(taskFields).meta({ id: 'TaskListItem' });
export const taskSchema = z
  .object({
    ...taskFields,
    validationsNeeded: z.number().int(),
    maxResponses: z
      .number()
      .int()
      .meta({
        description:
          "The most answers the task collects before it fails with NO_CONSENSUS: its project's maxResponses when the task was created, " +
          'else max(10, 2 × validationsNeeded); never below validationsNeeded',
      }),
    targetConfidence: z.number().meta({
      description:
        "The confidence at which the task completes (0.5–0.999): its project's targetConfidence when the task was created, " +
        "else the service's CONSENSUS_THRESHOLD (0.95 by default)",
    }),
    failureReason: z.string().nullable().meta({
      description: 'Why a FAILED task failed: NO_CONSENSUS (maxResponses answers without reaching targetConfidence) or EXPIRED (its deadline passed)',
    }),
    responses: z.array(
      z.object({
        answer: z.string().meta({
          description: 'One option (a multi-select answer: its options joined by |; a pairwise answer: A, B or tie, mapped back from the order shown)',
        }),
        timeSpentMs: z.number().int(),
        shownOrder: z
          .enum(['AB', 'BA'])
          .optional()
          .meta({ description: 'Pairwise tasks only: the order the annotator saw the candidates in (BA: B shown first)' }),
      }),
    ),
  })
  .meta({ id: 'Task' });

const createdCost = z
  .number()
  .int()
  .meta({ description: 'What the task costs once decided: the price; for a text task twice the price, its writing and its review task' });
export const createTaskResponse = z.object({
  taskId: z.string(),
  status: z.literal('PENDING'),
  type: z.enum(TASK_TYPES),
  costCents: createdCost,
  estimatedCompletionMs: z.number().int(),
  held: heldField,
});

const createdItem = z.object({ taskId: z.string(), type: z.enum(TASK_TYPES), status: z.literal('PENDING'), costCents: createdCost, held: heldField });
export const batchResponse = z.object({ created: z.number().int(), tasks: z.array(createdItem), totalCostCents: z.number().int() });
export const csvResponse = z.object({
  created: z.number().int(),
  tasks: z.array(createdItem.omit({ costCents: true })),
  errors: z.array(z.object({ row: z.number().int().meta({ description: '1-based data record' }), error: z.string(), code: z.string() })),
  totalCostCents: z.number().int(),
});
export const listTasksResponse = z.object({ tasks: z.array(taskListItemSchema), ...pageInfo });

export const rejectBody = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(MAX_REJECTION_REASON_LENGTH)
      .meta({ description: `Why the result is wrong (1–${MAX_REJECTION_REASON_LENGTH} characters), kept on the task and sent in task.rejected` }),
  })
  .meta({
    description:
      `A COMPLETED task's result, rejected within ${REVIEW_WINDOW_DAYS} days of its decision, once per task: the task goes back to VALIDATING ` +
      'with its target raised halfway to 1 and validationsNeeded more answers allowed; its charge is refunded and its budget reserved again; ' +
      'the earnings of the answerers who gave the rejected result are taken back. Its next decision charges as any decision does: the same ' +
      'result again (the crowd confirmed it) or a new one. A text task reopens with its review task.',
  });

export const atRiskQuery = z.strictObject({
  projectId: z.string().max(64).optional().meta({ description: 'Only this project’s tasks' }),
  limit: limitSchema,
  cursor: cursorSchema,
});
export const atRiskResponse = z
  .object({
    tasks: z.array(
      taskListItemSchema.extend({
        medianCompletionMs: z.number().int().meta({
          description:
            'The median creation-to-completion time of its project’s latest completed tasks (tasks without a project: of the buyer’s without one), which its deadline is nearer than',
        }),
        medianKnown: z.boolean().meta({
          description: 'false when the project has no completed task yet: the deadline was compared with 300 000 ms (estimatedCompletionMs’s default)',
        }),
      }),
    ),
    ...pageInfo,
  })
  .meta({ id: 'TasksAtRisk' });
