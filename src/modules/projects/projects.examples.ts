// OpenAPI examples of the project routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

const project = {
  id: EXAMPLE.projectId,
  name: 'Product reviews Q1',
  description: 'Sentiment of customer reviews from the web shop, for the Q1 retraining',
  targetConfidence: 0.97,
  maxResponses: 12,
  defaultAnswerKind: null,
  defaultDeadlineHours: null,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
};

const bucket = (index: number, count: number) => ({ from: index / 10, to: (index + 1) / 10, count });

export const projectExamples: Record<string, EndpointExamples> = {
  createProject: {
    request: { name: project.name, description: project.description, targetConfidence: 0.97, maxResponses: 12 },
    response: project,
  },
  listProjects: { response: { projects: [project], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  getProject: {
    response: { ...project, stats: { tasks: { PENDING: 120, VALIDATING: 14, COMPLETED: 861, FAILED: 5 }, spentCents: 17220 } },
  },
  getProjectDistribution: {
    response: {
      labels: [
        { label: 'positive', count: 512 },
        { label: 'negative', count: 261 },
        { label: 'neutral', count: 88 },
      ],
      confidence: [0, 0, 0, 0, 0, 2, 9, 31, 140, 679].map((count, index) => bucket(index, count)),
      completed: 861,
      kinds: { single: 861, rating: 0, multi: 0, pairwise: 0, text: 0 },
      ratingScales: [],
      multiOptions: [],
    },
  },
  getProjectPairwise: {
    response: {
      groups: [
        {
          group: 'mutex-explanations',
          pairs: 3,
          ranking: [
            { candidate: 'A mutex is a lock only one thread can hold at a time.', score: 0.9512, rank: 1 },
            { candidate: 'A mutex stops two threads changing shared data at once.', score: 0.1023, rank: 2 },
            { candidate: 'A mutex is a synchronization primitive.', score: -1.0535, rank: 3 },
          ],
          winRate: [
            [null, 1, 1],
            [0, null, 1],
            [0, 0, null],
          ],
        },
      ],
      annotators: [
        { answers: 42, reliability: 0.8931, positionBias: 0.0214 },
        { answers: 17, reliability: 0.6102, positionBias: 0.6875 },
        { answers: 3, reliability: 0.7012, positionBias: null },
      ],
    },
  },
  updateProject: {
    request: { name: 'Product reviews Q1 (EU)', targetConfidence: null },
    response: { ...project, name: 'Product reviews Q1 (EU)', targetConfidence: null, updatedAt: EXAMPLE.updatedAt },
  },
};
