import type { TasksService } from './tasks.service.ts';
import type { DeadlinesService } from './deadlines.service.ts';
import type { ResultReviewService } from './result-review.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { sendOutcome } from '../idempotency/idempotent-response.ts';
import { idParams } from '../../lib/schemas.ts';
import { singleFileUpload } from '../../middleware/upload.ts';
import { parseIdempotencyKey } from '../idempotency/idempotency.service.ts';
import { toTask, toTaskListItem } from './tasks.presenters.ts';
import {
  atRiskQuery,
  atRiskResponse,
  batchBody,
  batchResponse,
  countTasksQuery,
  createTaskBody,
  createTaskResponse,
  rejectBody,
  csvResponse,
  csvUpload,
  listTasksQuery,
  listTasksResponse,
  taskCountsResponse,
  taskSchema,
  updateTaskBody,
} from './tasks.schemas.ts';
import { taskExamples } from './tasks.examples.ts';

const creationErrors = {
  402:
    'INSUFFICIENT_CREDITS: the available balance does not cover the budgets (details.requiredCents, details.availableCents); ' +
    'BUDGET_CAP_REACHED: a project budget cap or the monthly cap would be passed (details.scope, projectId, capCents, committedCents, requiredCents)',
};

export function taskEndpoints({ tasks, deadlines, resultReview }: { tasks: TasksService; deadlines: DeadlinesService; resultReview: ResultReviewService }) {
  return [
    defineEndpoint({
      method: 'post',
      path: '/tasks',
      operationId: 'createTask',
      examples: taskExamples.createTask,
      tag: 'Tasks',
      summary: 'Create a task (reserves its maxCents)',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      idempotent: 'handler',
      rawBody: createTaskBody,
      status: 201,
      response: createTaskResponse,
      errors: { ...creationErrors, 400: 'MISSING_FIELDS, INVALID_TYPE, OPTIONS_REQUIRED (checked in that order, before any other rule), then INVALID_PROJECT' },
      handler: async ({ principal, actor, req, res }) =>
        await sendOutcome(res, await tasks.create(actor, req.body, parseIdempotencyKey(req.headers['idempotency-key']), principal.projectIds)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/tasks/batch',
      operationId: 'createTaskBatch',
      examples: taskExamples.createTaskBatch,
      tag: 'Tasks',
      summary: 'Create up to 1 000 tasks, all or nothing',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      bodyLimit: '10mb',
      idempotent: 'handler',
      rawBody: batchBody,
      status: 201,
      response: batchResponse,
      errors: {
        ...creationErrors,
        400: 'INVALID_TASK (taskIndex: the first invalid task, zero-based; details.code: its own code) or BATCH_TOO_LARGE (none, or more than 1 000)',
      },
      handler: async ({ principal, actor, req, res }) =>
        await sendOutcome(res, await tasks.createBatch(actor, req.body, parseIdempotencyKey(req.headers['idempotency-key']), principal.projectIds)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/tasks/batch/csv',
      operationId: 'importTasksCsv',
      examples: taskExamples.importTasksCsv,
      tag: 'Tasks',
      summary: 'Import tasks from a CSV file (partial import)',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      idempotent: 'handler',
      consumes: { 'multipart/form-data': csvUpload },
      middleware: [singleFileUpload()],
      status: 201,
      response: csvResponse,
      errors: {
        ...creationErrors,
        400: 'MISSING_FILE or INVALID_CSV: nothing is created (invalid rows are listed in the 201 body instead)',
        413: 'FILE_TOO_LARGE: the file is over 5 MB',
      },
      handler: async ({ principal, actor, req, res }) => {
        const file = req.file?.buffer ?? Buffer.alloc(0);
        await sendOutcome(res, await tasks.importCsv(actor, file, parseIdempotencyKey(req.headers['idempotency-key']), principal.projectIds));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/tasks',
      operationId: 'listTasks',
      examples: taskExamples.listTasks,
      tag: 'Tasks',
      summary: "List the buyer's tasks, newest first",
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      query: listTasksQuery,
      response: listTasksResponse,
      handler: async ({ principal, query }) => {
        const { limit, cursor, ...filters } = query;
        const page = await tasks.list(principal.buyerId, filters, limit, cursor, principal.projectIds);
        return { ...page, tasks: page.tasks.map(toTaskListItem) };
      },
    }),
    // Before GET /tasks/:id, which would otherwise take `at-risk` for a task id.
    defineEndpoint({
      method: 'get',
      path: '/tasks/at-risk',
      operationId: 'listTasksAtRisk',
      examples: taskExamples.listTasksAtRisk,
      tag: 'Tasks',
      summary: 'Open tasks whose deadline is nearer than their project’s median completion time, soonest deadline first',
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      query: atRiskQuery,
      response: atRiskResponse,
      handler: async ({ principal, query }) => {
        const page = await deadlines.atRisk(principal.buyerId, query, principal.projectIds);
        return {
          ...page,
          tasks: page.tasks.map((task) => ({ ...toTaskListItem(task), medianCompletionMs: task.medianCompletionMs, medianKnown: task.medianKnown })),
        };
      },
    }),
    // Before GET /tasks/:id, which would otherwise take `counts` for a task id.
    defineEndpoint({
      method: 'get',
      path: '/tasks/counts',
      operationId: 'countTasks',
      examples: taskExamples.countTasks,
      tag: 'Tasks',
      summary: "The buyer's tasks by status (golden tasks never count)",
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      query: countTasksQuery,
      response: taskCountsResponse,
      handler: ({ principal, query }) => tasks.counts(principal.buyerId, query, principal.projectIds),
    }),
    defineEndpoint({
      method: 'get',
      path: '/tasks/:id',
      operationId: 'getTask',
      examples: taskExamples.getTask,
      notFound: 'TASK_NOT_FOUND',
      tag: 'Tasks',
      summary: 'A task with its answers',
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      params: idParams,
      response: taskSchema,
      handler: async ({ principal, params }) => toTask(await tasks.get(principal.buyerId, params.id, principal.projectIds)),
    }),
    defineEndpoint({
      method: 'patch',
      path: '/tasks/:id',
      operationId: 'updateTask',
      examples: taskExamples.updateTask,
      notFound: 'TASK_NOT_FOUND',
      tag: 'Tasks',
      summary: 'Change a PENDING task',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      params: idParams,
      body: updateTaskBody,
      response: taskSchema,
      errors: {
        400: 'TASK_NOT_PENDING or INVALID_PROJECT',
        402: creationErrors[402],
        409: 'TASK_IS_REVIEW: a text task’s review is decided with it; TASK_HELD: a task its project’s budget cap holds cannot be changed',
      },
      handler: async ({ principal, actor, params, body }) => toTask(await tasks.update(actor, params.id, body, principal.projectIds)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/tasks/:id/reject',
      operationId: 'rejectTaskResult',
      examples: taskExamples.rejectTaskResult,
      notFound: 'TASK_NOT_FOUND',
      tag: 'Tasks',
      summary: 'Reject a completed result: the task reopens at a higher target, its charge refunded',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      params: idParams,
      body: rejectBody,
      response: taskSchema,
      errors: {
        402: 'INSUFFICIENT_CREDITS: the balance after the refund does not cover the budget reserved again; BUDGET_CAP_REACHED: the reopened budget would pass a cap',
        409:
          'TASK_NOT_COMPLETED: the task is not COMPLETED; REVIEW_WINDOW_CLOSED: decided more than 7 days ago; ALREADY_REJECTED: rejected once already; ' +
          'TASK_IS_REVIEW: a text task’s review task (reject the text task)',
      },
      handler: async ({ principal, actor, params, body }) => toTask(await resultReview.reject(actor, params.id, body.reason, principal.projectIds)),
    }),
    defineEndpoint({
      method: 'delete',
      path: '/tasks/:id',
      operationId: 'deleteTask',
      errors: { 400: 'TASK_NOT_PENDING: only a PENDING task can be deleted', 409: 'TASK_IS_REVIEW: a text task’s review is decided with it' },
      notFound: 'TASK_NOT_FOUND',
      tag: 'Tasks',
      summary: 'Delete a PENDING task and release its reservation',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      params: idParams,
      status: 204,
      handler: ({ principal, actor, params }) => tasks.delete(actor, params.id, principal.projectIds),
    }),
  ];
}
