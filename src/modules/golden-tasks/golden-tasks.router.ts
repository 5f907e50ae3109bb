import { round4 } from '../../consensus/stop-rule.ts';
import { z } from 'zod';
import type { GoldenTasksService } from './golden-tasks.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { idParams, timestamp, cursorSchema, limitSchema, pageInfo } from '../../lib/schemas.ts';
import {
  allowsTie,
  ANSWER_KINDS,
  candidatesSchema,
  choicesSchema,
  goldenTaskInputSchema,
  LOCALES,
  shownAnswer,
  storedChoices,
  TASK_TYPES,
} from '@concord/contract';
import type { GoldenTaskRecord } from './golden-tasks.repository.ts';
import { goldenTaskExamples } from './golden-tasks.examples.ts';

const goldenTaskSchema = z
  .object({
    id: z.string(),
    type: z.enum(TASK_TYPES),
    answerKind: z.enum(ANSWER_KINDS).optional().meta({ description: 'rating, multi or pairwise for a golden task of that kind; absent for single choice' }),
    allowEmpty: z.boolean().optional().meta({ description: 'Multi-select golden tasks only: whether the empty set is an answer' }),
    candidates: candidatesSchema.optional(),
    allowTie: z.boolean().optional().meta({ description: 'Pairwise golden tasks only: whether a tie is an answer' }),
    content: z.string(),
    options: z.array(z.string()),
    goldenAnswer: z
      .string()
      .meta({ description: 'The known answer: one option; for a multi-select golden task the options of the set joined by |; for a pairwise one A, B or tie' }),
    goldenChoices: choicesSchema.optional().meta({ description: 'Multi-select golden tasks only: the known set as a list' }),
    locale: z.enum(LOCALES),
    projectId: z.string().nullable(),
    timesServed: z.number().int(),
    timesAnswered: z.number().int(),
    correctRate: z.number().nullable().meta({ description: 'Share of answers equal to goldenAnswer; null before the first answer' }),
    createdAt: timestamp,
  })
  .meta({ id: 'GoldenTask' });

const toGoldenTask = (golden: GoldenTaskRecord) => ({
  id: golden.id,
  type: golden.type,
  ...(golden.answerKind === 'single' ? {} : { answerKind: golden.answerKind }),
  ...(golden.answerKind === 'multi' ? { allowEmpty: golden.allowEmpty } : {}),
  ...(golden.answerKind === 'pairwise' && golden.candidates ? { candidates: golden.candidates, allowTie: allowsTie(golden.options) } : {}),
  content: golden.content,
  options: golden.options,
  goldenAnswer: shownAnswer(golden.answerKind, golden.goldenAnswer),
  ...(golden.answerKind === 'multi' ? { goldenChoices: storedChoices(golden.goldenAnswer) } : {}),
  locale: golden.locale,
  projectId: golden.projectId,
  timesServed: golden.timesServed,
  timesAnswered: golden.timesAnswered,
  correctRate: golden.timesAnswered > 0 ? round4(golden.timesCorrect / golden.timesAnswered) : null,
  createdAt: golden.createdAt.toISOString(),
});

export function goldenTaskEndpoints({ goldenTasks }: { goldenTasks: GoldenTasksService }) {
  return [
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/golden-tasks',
      operationId: 'createGoldenTask',
      examples: goldenTaskExamples.createGoldenTask,
      errors: { 400: 'INVALID_PROJECT: projectId is not one of your projects' },
      tag: 'Golden tasks',
      summary: 'Create a golden task (free, served blind to measure annotators)',
      access: 'buyer',
      permission: 'tasks:write',
      rawBody: goldenTaskInputSchema,
      status: 201,
      response: goldenTaskSchema,
      handler: async ({ actor, req }) => toGoldenTask(await goldenTasks.create(actor, req.body)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/golden-tasks',
      operationId: 'listGoldenTasks',
      examples: goldenTaskExamples.listGoldenTasks,
      tag: 'Golden tasks',
      summary: "The buyer's golden tasks with their scores",
      access: 'buyer',
      permission: 'tasks:read',
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ goldenTasks: z.array(goldenTaskSchema), ...pageInfo }),
      handler: async ({ principal, query }) => {
        const page = await goldenTasks.list(principal.buyerId, query.limit, query.cursor);
        return { ...page, goldenTasks: page.goldenTasks.map(toGoldenTask) };
      },
    }),
    defineEndpoint({
      method: 'delete',
      path: '/golden-tasks/:id',
      operationId: 'deleteGoldenTask',
      notFound: 'GOLDEN_TASK_NOT_FOUND',
      tag: 'Golden tasks',
      summary: 'Delete a golden task',
      access: 'buyer',
      permission: 'tasks:write',
      params: idParams,
      status: 204,
      handler: ({ actor, params }) => goldenTasks.delete(actor, params.id),
    }),
  ];
}
