// OpenAPI examples of the task routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

const review = 'The battery lasts two full days and the charger is tiny. Best purchase this year.';
const sentimentOptions = ['positive', 'negative', 'neutral'];

/** A completed task as GET /tasks lists it. */
export const taskListItemExample = {
  id: EXAMPLE.taskId,
  type: 'SENTIMENT_ANALYSIS',
  content: review,
  options: sentimentOptions,
  status: 'COMPLETED',
  result: 'positive',
  confidence: 0.9807,
  locale: 'en',
  maxCents: 40,
  costCents: 20,
  projectId: EXAMPLE.projectId,
  totalResponses: 3,
  deadline: null,
  priority: 0,
  revision: 1,
  rejection: null,
  createdAt: EXAMPLE.createdAt,
  validatedAt: EXAMPLE.later,
};

const taskExample = {
  ...taskListItemExample,
  validationsNeeded: 3,
  maxResponses: 10,
  targetConfidence: 0.95,
  failureReason: null,
  responses: [
    { answer: 'positive', timeSpentMs: 4210 },
    { answer: 'positive', timeSpentMs: 3875 },
    { answer: 'positive', timeSpentMs: 6120 },
  ],
};

const pendingTaskExample = {
  ...taskExample,
  id: EXAMPLE.pendingTaskId,
  status: 'PENDING',
  result: null,
  confidence: null,
  maxCents: 60,
  totalResponses: 0,
  validatedAt: null,
  validationsNeeded: 5,
  responses: [],
};

/** A rating task as GET /tasks lists it: the result is the decided level, `rating` the posterior around it. */
const ratingListItemExample = {
  ...taskListItemExample,
  id: EXAMPLE.ratingTaskId,
  type: 'AI_RESPONSE_RATING',
  answerKind: 'rating',
  content: 'Q: How do I undo my last git commit?\nA: Run `git reset --soft HEAD~1`: the commit goes, its changes stay staged.',
  options: ['1', '2', '3', '4', '5'],
  result: '4',
  confidence: 0.9512,
  rating: { mean: 3.0921, interval: [3, 4] },
  totalResponses: 4,
};

/** A multi-select task as GET /tasks lists it: the result is the set, each option decided apart. */
const multiListItemExample = {
  ...taskListItemExample,
  id: EXAMPLE.multiTaskId,
  type: 'IMAGE_CLASSIFICATION',
  answerKind: 'multi',
  allowEmpty: false,
  content: 'https://cdn.acme-robotics.com/frames/warehouse-0415.jpg',
  options: ['forklift', 'pallet jack', 'person', 'empty aisle'],
  result: 'forklift|person',
  choices: ['forklift', 'person'],
  confidence: 0.9613,
  optionConfidence: { forklift: 0.9902, 'pallet jack': 0.9613, person: 0.9755, 'empty aisle': 0.9987 },
  totalResponses: 4,
};

const batchTasks = [
  { type: 'SENTIMENT_ANALYSIS', content: review, options: sentimentOptions, projectId: EXAMPLE.projectId },
  {
    type: 'IMAGE_CLASSIFICATION',
    content: 'https://cdn.acme-robotics.com/frames/warehouse-0412.jpg',
    options: ['forklift', 'pallet jack', 'person', 'empty aisle'],
    locale: 'en',
    maxCents: 40,
    validationsNeeded: 5,
  },
  { type: 'AI_RESPONSE_RATING', answerKind: 'rating', content: ratingListItemExample.content, options: ratingListItemExample.options },
];

export const taskExamples: Record<string, EndpointExamples> = {
  createTask: {
    request: {
      type: 'SENTIMENT_ANALYSIS',
      content: review,
      options: sentimentOptions,
      locale: 'en',
      maxCents: 40,
      projectId: EXAMPLE.projectId,
      validationsNeeded: 3,
    },
    response: { taskId: EXAMPLE.taskId, status: 'PENDING', type: 'SENTIMENT_ANALYSIS', costCents: 20, estimatedCompletionMs: 184000 },
  },
  createTaskBatch: {
    request: { tasks: batchTasks },
    response: {
      created: 3,
      tasks: [
        { taskId: EXAMPLE.taskId, type: 'SENTIMENT_ANALYSIS', status: 'PENDING', costCents: 20 },
        { taskId: EXAMPLE.pendingTaskId, type: 'IMAGE_CLASSIFICATION', status: 'PENDING', costCents: 20 },
        { taskId: EXAMPLE.ratingTaskId, type: 'AI_RESPONSE_RATING', status: 'PENDING', costCents: 20 },
      ],
      totalCostCents: 60,
    },
  },
  importTasksCsv: {
    response: {
      created: 2,
      tasks: [
        { taskId: EXAMPLE.taskId, type: 'SENTIMENT_ANALYSIS', status: 'PENDING' },
        { taskId: EXAMPLE.pendingTaskId, type: 'BINARY_CHOICE', status: 'PENDING' },
      ],
      errors: [{ row: 3, error: 'A task needs at least 2 options', code: 'OPTIONS_REQUIRED' }],
      totalCostCents: 40,
    },
  },
  listTasks: {
    response: { tasks: [multiListItemExample, ratingListItemExample, taskListItemExample], nextCursor: EXAMPLE_CURSOR, hasMore: true },
  },
  countTasks: {
    response: { counts: { PENDING: 120, VALIDATING: 14, COMPLETED: 861, FAILED: 5 }, total: 1000 },
  },
  getTask: { response: taskExample },
  updateTask: {
    request: { maxCents: 60, validationsNeeded: 5 },
    response: pendingTaskExample,
  },
  rejectTaskResult: {
    request: { reason: 'Sarcasm: the review is negative' },
    response: {
      ...taskExample,
      status: 'VALIDATING',
      result: null,
      confidence: null,
      validatedAt: null,
      targetConfidence: 0.975,
      maxResponses: 13,
      revision: 2,
      rejection: { result: 'positive', confidence: 0.9807, reason: 'Sarcasm: the review is negative', rejectedAt: EXAMPLE.later },
    },
  },
  listTasksAtRisk: {
    response: {
      tasks: [
        {
          ...taskListItemExample,
          id: EXAMPLE.pendingTaskId,
          status: 'VALIDATING',
          result: null,
          confidence: null,
          totalResponses: 2,
          deadline: '2026-03-14T09:30:00.000Z',
          priority: 5,
          validatedAt: null,
          medianCompletionMs: 412_000,
          medianKnown: true,
        },
      ],
      nextCursor: null,
      hasMore: false,
    },
  },
};
