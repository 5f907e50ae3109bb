// OpenAPI examples of GET /exports: two completed tasks written by the real format writers
// (export-formats.ts), so each example is exactly what the format produces.
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';
import type { ExportFormat } from '@concord/contract';
import { FORMATS, type ExportRecord } from './export-formats.ts';

const records: ExportRecord[] = [
  {
    id: EXAMPLE.taskId,
    type: 'SENTIMENT_ANALYSIS',
    content: 'The battery lasts two full days and the charger is tiny. Best purchase this year.',
    options: ['positive', 'negative', 'neutral'],
    label: 'positive',
    confidence: 0.9807,
    locale: 'en',
    validatedAt: EXAMPLE.later,
    answerKind: 'single',
    rating: null,
    optionConfidence: null,
    candidates: null,
    group: null,
    groupRanking: null,
  },
  {
    id: EXAMPLE.pendingTaskId,
    type: 'SENTIMENT_ANALYSIS',
    content: 'Stopped charging after a week, replacement on its way.',
    options: ['positive', 'negative', 'neutral'],
    label: 'negative',
    confidence: 0.9633,
    locale: 'en',
    validatedAt: EXAMPLE.updatedAt,
    answerKind: 'single',
    rating: null,
    optionConfidence: null,
    candidates: null,
    group: null,
    groupRanking: null,
  },
  {
    id: EXAMPLE.ratingTaskId,
    type: 'AI_RESPONSE_RATING',
    content: 'Q: How do I undo my last git commit?\nA: Run `git reset --soft HEAD~1`: the commit goes, its changes stay staged.',
    options: ['1', '2', '3', '4', '5'],
    label: '4',
    confidence: 0.9512,
    locale: 'en',
    validatedAt: EXAMPLE.later,
    answerKind: 'rating',
    rating: { mean: 3.0921, interval: [3, 4] },
    optionConfidence: null,
    candidates: null,
    group: null,
    groupRanking: null,
  },
  {
    id: EXAMPLE.multiTaskId,
    type: 'IMAGE_CLASSIFICATION',
    content: 'https://cdn.acme-robotics.com/frames/warehouse-0415.jpg',
    options: ['forklift', 'pallet jack', 'person', 'empty aisle'],
    label: '["forklift","person"]',
    confidence: 0.9613,
    locale: 'en',
    validatedAt: EXAMPLE.later,
    answerKind: 'multi',
    rating: null,
    optionConfidence: { 'empty aisle': 0.9987, forklift: 0.9902, 'pallet jack': 0.9613, person: 0.9755 },
    candidates: null,
    group: null,
    groupRanking: null,
  },
  {
    id: EXAMPLE.pairTaskId,
    type: 'AI_RESPONSE_RATING',
    content: 'Explain what a mutex is to a new programmer, in two sentences.',
    options: ['A', 'B'],
    label: 'B',
    confidence: 0.9688,
    locale: 'en',
    validatedAt: EXAMPLE.later,
    answerKind: 'pairwise',
    rating: null,
    optionConfidence: null,
    candidates: {
      A: 'A mutex is a synchronization primitive providing mutual exclusion.',
      B: 'A mutex is a lock that only one thread can hold at a time. Code that touches shared data takes the lock first, so two threads never change it at once.',
    },
    group: 'mutex-explanations',
    groupRanking: [
      {
        candidate:
          'A mutex is a lock that only one thread can hold at a time. Code that touches shared data takes the lock first, so two threads never change it at once.',
        score: 0.6931,
        rank: 1,
      },
      { candidate: 'A mutex is a synchronization primitive providing mutual exclusion.', score: -0.6931, rank: 2 },
    ],
  },
];

const file = (format: ExportFormat) =>
  FORMATS[format].begin + records.map((record, index) => FORMATS[format].record(record, index)).join('') + FORMATS[format].end;

export const exportExamples: Record<string, EndpointExamples> = {
  exportDataset: {
    content: {
      'application/json': JSON.parse(file('json')) as unknown,
      'application/x-ndjson': file('jsonl'),
      'text/csv': file('csv'),
    },
  },
};
