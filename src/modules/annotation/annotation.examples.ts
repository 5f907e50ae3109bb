// OpenAPI examples of the SDK routes and the admin's annotator and payout routes, by operationId
// (checked against the routes' schemas by test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

const assignment = {
  assignmentId: EXAMPLE.assignmentId,
  expiresAt: '2026-03-14T09:41:27.215Z',
  task: {
    id: EXAMPLE.taskId,
    type: 'SENTIMENT_ANALYSIS',
    content: 'The battery lasts two full days and the charger is tiny. Best purchase this year.',
    options: ['positive', 'negative', 'neutral'],
    locale: 'en',
  },
};

const reputation = {
  annotatorId: EXAMPLE.annotatorId,
  level: 'SILVER',
  reliability: 0.8731,
  goldenAnswered: 64,
  goldenAccuracy: 0.9063,
  totalResponses: 1420,
  resolvedResponses: 1388,
  agreementRate: 0.8912,
  suspended: false,
  asOf: EXAMPLE.later,
};

const payout = {
  id: EXAMPLE.payoutId,
  status: 'PENDING',
  amountCents: 2500,
  method: 'mobile_money',
  destination: '+254712345678',
  note: null,
  createdAt: EXAMPLE.createdAt,
  decidedAt: null,
};

const adminPayout = { ...payout, developerId: EXAMPLE.developerId, annotatorId: EXAMPLE.annotatorId };

export const annotationExamples: Record<string, EndpointExamples> = {
  getNextSdkTask: { response: assignment },
  completeSdkTask: {
    request: { annotatorId: EXAMPLE.annotatorId, answer: 'positive', timeSpentMs: 4210, next: { locale: 'en', types: ['SENTIMENT_ANALYSIS'] } },
    response: {
      accepted: true,
      next: {
        ...assignment,
        assignmentId: 'cm3q7wbj2000glk08w5x6y7z8',
        task: { ...assignment.task, id: EXAMPLE.pendingTaskId, content: 'Stopped charging after a week.' },
      },
    },
  },
  getAnnotatorReputation: { response: reputation },
  getAnnotatorEarnings: {
    response: { annotatorId: EXAMPLE.annotatorId, totalEarnedCents: 9840, paidOutCents: 5000, pendingPayoutCents: 2500, availableCents: 2340 },
  },
  requestAnnotatorPayout: { request: { amountCents: 2500, method: 'mobile_money', destination: '+254712345678' }, response: payout },
  listAnnotatorPayouts: { response: { payouts: [payout], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  listPayouts: { response: { payouts: [adminPayout], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  approvePayout: {
    request: { note: 'Sent by M-Pesa, ref QF72K1X9' },
    response: { ...adminPayout, status: 'PAID', note: 'Sent by M-Pesa, ref QF72K1X9', decidedAt: EXAMPLE.updatedAt },
  },
  rejectPayout: {
    request: { note: 'The number is not registered for mobile money' },
    response: { ...adminPayout, status: 'REJECTED', note: 'The number is not registered for mobile money', decidedAt: EXAMPLE.updatedAt },
  },
  listAnnotators: {
    response: {
      annotators: [
        {
          developerId: EXAMPLE.developerId,
          appName: EXAMPLE.appName,
          annotatorId: EXAMPLE.annotatorId,
          level: 'SILVER',
          reliability: 0.8731,
          suspended: false,
          totalResponses: 1420,
          resolvedResponses: 1388,
          goldenAnswered: 64,
          goldenAccuracy: 0.9063,
          createdAt: EXAMPLE.createdAt,
        },
      ],
      nextCursor: EXAMPLE_CURSOR,
      hasMore: true,
    },
  },
  reinstateAnnotator: { request: {}, response: { ...reputation, level: 'NOVICE', reliability: 0.6412, suspended: false } },
};
