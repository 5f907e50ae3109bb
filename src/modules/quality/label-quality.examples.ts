// OpenAPI examples of the label-quality routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';

const report = {
  completed: 861,
  failed: 39,
  open: 100,
  completedShare: 0.9567,
  failedShare: 0.0433,
  rejected: 2,
  delivered: 452,
  rejectedShare: 0.0044,
  expectedAccuracy: 0.9612,
  expectedAccuracyInterval: { low: 0.9481, high: 0.9743 },
  meanAnswersPerCompleted: 4.37,
  costPerCompletedCents: 20,
  golden: { tasks: 45, answers: 412, correct: 338, shareCorrect: 0.8204, interval: { low: 0.7806, high: 0.8543 } },
  calibration: {
    goldenTasks: 45,
    refittedAt: EXAMPLE.createdAt,
    reliability: [
      { confidence: 0.7112, accuracy: 0.7, samples: 40 },
      { confidence: 0.8431, accuracy: 0.85, samples: 60 },
      { confidence: 0.9377, accuracy: 0.9412, samples: 102 },
      { confidence: 0.9811, accuracy: 0.9817, samples: 164 },
    ],
  },
  warnings: [],
};

export const labelQualityExamples = {
  getProjectQuality: { response: report },
  getOptionSetsQuality: {
    response: {
      optionSets: [
        {
          ...report,
          options: ['negative', 'neutral', 'positive'],
          golden: { tasks: 2, answers: 9, correct: 7, shareCorrect: 0.7778, interval: { low: 0.453, high: 0.9368 } },
          calibration: { goldenTasks: 2, refittedAt: EXAMPLE.createdAt, reliability: [] },
          warnings: [
            {
              code: 'THIN_GOLDEN_EVIDENCE',
              message:
                "Only 9 golden answers so far (100 are needed to check the confidence): take the expected accuracy as the model's estimate, not a measurement.",
            },
          ],
        },
      ],
    },
  },
} satisfies Record<string, EndpointExamples>;
