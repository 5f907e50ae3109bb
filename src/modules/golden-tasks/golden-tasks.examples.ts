// OpenAPI examples of the golden-task routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

const request = {
  type: 'SENTIMENT_ANALYSIS',
  content: 'Arrived broken and support never answered my three e-mails.',
  options: ['positive', 'negative', 'neutral'],
  goldenAnswer: 'negative',
  locale: 'en',
  projectId: EXAMPLE.projectId,
};

const golden = {
  id: EXAMPLE.goldenTaskId,
  ...request,
  timesServed: 48,
  timesAnswered: 46,
  correctRate: 0.9348,
  createdAt: EXAMPLE.createdAt,
};

export const goldenTaskExamples: Record<string, EndpointExamples> = {
  createGoldenTask: { request, response: { ...golden, timesServed: 0, timesAnswered: 0, correctRate: null } },
  listGoldenTasks: { response: { goldenTasks: [golden], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
};
