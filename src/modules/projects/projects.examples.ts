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
    },
  },
  updateProject: {
    request: { name: 'Product reviews Q1 (EU)', targetConfidence: null },
    response: { ...project, name: 'Product reviews Q1 (EU)', targetConfidence: null, updatedAt: EXAMPLE.updatedAt },
  },
};
