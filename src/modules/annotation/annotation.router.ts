import { PAYOUT_NOTE_MAX_LENGTH } from '@concord/contract';
import { z } from 'zod';
import type { AnnotationService } from './annotation.service.ts';
import type { AnnotatorsService } from './annotators.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { emptyBody, cursorSchema, limitSchema, pageInfo } from '../../lib/schemas.ts';
import {
  adminAnnotatorSchema,
  adminAnnotatorsQuery,
  adminPayoutSchema,
  annotatorIdSchema,
  annotatorParams,
  assignmentResponse,
  completeBody,
  completeResponse,
  earningsSchema,
  nextQuery,
  payoutBody,
  payoutSchema,
  reputationSchema,
  taskIdParams,
} from './annotation.schemas.ts';
import type { ServedAssignment } from './annotation.service.ts';
import type { AdminAnnotatorRecord } from './annotators.repository.ts';
import { toEarnings, toReputation } from './annotators.service.ts';
import type { AdminPayoutRecord, PayoutRecord } from './payouts.repository.ts';
import { annotationExamples } from './annotation.examples.ts';

/** The one shape of an assignment, whether GET next or complete's `next` hands it out (a golden task looks the same). */
const toAssignment = ({ assignmentId, expiresAt, task: { id, type, answerKind, content, options, locale, candidates, maxLength } }: ServedAssignment) => ({
  assignmentId,
  expiresAt: expiresAt.toISOString(),
  task: {
    id,
    type,
    ...(answerKind === 'single' ? {} : { answerKind }),
    content,
    options,
    ...(candidates ? { candidates } : {}),
    ...(maxLength === undefined ? {} : { maxLength }),
    locale,
  },
});

const toPayout = (payout: PayoutRecord) => ({
  id: payout.id,
  status: payout.status,
  amountCents: payout.amountCents,
  method: payout.method,
  destination: payout.destination,
  note: payout.note,
  createdAt: payout.createdAt.toISOString(),
  decidedAt: payout.decidedAt?.toISOString() ?? null,
});

const toAdminPayout = (payout: AdminPayoutRecord) => ({
  ...toPayout(payout),
  developerId: payout.annotator.developerId,
  annotatorId: payout.annotator.externalId,
});

/** Live figures, level and reliability computed as the reputation route computes them. */
const toAdminAnnotator = (annotator: AdminAnnotatorRecord) => {
  const reputation = toReputation(annotator);
  return {
    developerId: annotator.developerId,
    appName: annotator.appName,
    annotatorId: annotator.externalId,
    level: reputation.level,
    reliability: reputation.reliability,
    suspended: reputation.suspended,
    totalResponses: reputation.totalResponses,
    resolvedResponses: reputation.resolvedResponses,
    goldenAnswered: reputation.goldenAnswered,
    goldenAccuracy: reputation.goldenAccuracy,
    createdAt: annotator.createdAt.toISOString(),
  };
};

export function sdkEndpoints({ annotation, annotators }: { annotation: AnnotationService; annotators: AnnotatorsService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/sdk/tasks/next',
      operationId: 'getNextSdkTask',
      unsettledReads: true,
      examples: annotationExamples.getNextSdkTask,
      tag: 'SDK',
      summary: 'Hand the annotator a task (204 when nothing fits)',
      access: 'apiKey',
      query: nextQuery,
      response: assignmentResponse,
      errors: { 403: 'ANNOTATOR_SUSPENDED' },
      handler: async ({ principal, query, res }) => {
        const served = await annotation.next(principal.developerId, query.annotatorId, { locale: query.locale, types: query.types });
        if (!served) {
          res.status(204).end();
          return;
        }
        return toAssignment(served);
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/sdk/tasks/:id/complete',
      operationId: 'completeSdkTask',
      unsettledReads: true,
      examples: annotationExamples.completeSdkTask,
      notFound: 'TASK_NOT_FOUND',
      tag: 'SDK',
      summary: "Submit the annotator's answer; with `next`, also get the annotator's next assignment in the same response",
      access: 'apiKey',
      params: taskIdParams,
      body: completeBody,
      status: 201,
      response: completeResponse,
      errors: {
        400: 'INVALID_ANSWER: an answer the task does not take (details.issues names the field, details.accepted the answers it takes)',
        403: 'ANNOTATOR_SUSPENDED',
        409: 'ALREADY_ANSWERED, NO_ASSIGNMENT or TASK_CLOSED',
      },
      handler: async ({ principal, params, body: { next, ...answer } }) => {
        if (!next) {
          await annotation.complete(principal.developerId, params.id, answer);
          return { accepted: true };
        }
        const served = await annotation.completeAndNext(principal.developerId, params.id, answer, next);
        return { accepted: true, next: served && toAssignment(served) };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/sdk/annotators/:annotatorId/reputation',
      operationId: 'getAnnotatorReputation',
      examples: annotationExamples.getAnnotatorReputation,
      notFound: 'ANNOTATOR_NOT_FOUND',
      tag: 'SDK',
      summary: "The annotator's reliability and level",
      access: 'apiKey',
      params: annotatorParams,
      response: reputationSchema,
      handler: async ({ principal, params }) => annotators.reputation(principal.developerId, params.annotatorId),
    }),
    defineEndpoint({
      method: 'get',
      path: '/sdk/annotators/:annotatorId/earnings',
      operationId: 'getAnnotatorEarnings',
      examples: annotationExamples.getAnnotatorEarnings,
      notFound: 'ANNOTATOR_NOT_FOUND',
      tag: 'SDK',
      summary: "The annotator's earnings",
      access: 'apiKey',
      params: annotatorParams,
      response: earningsSchema,
      handler: async ({ principal, params }) => toEarnings(await annotators.get(principal.developerId, params.annotatorId)),
    }),
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/sdk/annotators/:annotatorId/payouts',
      operationId: 'requestAnnotatorPayout',
      examples: annotationExamples.requestAnnotatorPayout,
      errors: { 400: 'PAYOUT_TOO_SMALL (below 500 cents) or INSUFFICIENT_EARNINGS (above the available earnings)' },
      notFound: 'ANNOTATOR_NOT_FOUND',
      tag: 'SDK',
      summary: 'Request a payout (at least 500 cents)',
      access: 'apiKey',
      params: annotatorParams,
      body: payoutBody,
      status: 201,
      response: payoutSchema,
      handler: async ({ principal, params, body }) => toPayout(await annotators.requestPayout(principal.developerId, params.annotatorId, body)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/sdk/annotators/:annotatorId/payouts',
      operationId: 'listAnnotatorPayouts',
      examples: annotationExamples.listAnnotatorPayouts,
      notFound: 'ANNOTATOR_NOT_FOUND',
      tag: 'SDK',
      summary: "The annotator's payouts",
      access: 'apiKey',
      params: annotatorParams,
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ payouts: z.array(payoutSchema), ...pageInfo }),
      handler: async ({ principal, params, query }) => {
        const page = await annotators.listPayouts(principal.developerId, params.annotatorId, query.limit, query.cursor);
        return { ...page, payouts: page.payouts.map(toPayout) };
      },
    }),
  ];
}

const payoutDecisionBody = z.strictObject({ note: z.string().trim().max(PAYOUT_NOTE_MAX_LENGTH).optional() });

export function adminAnnotationEndpoints({ annotators }: { annotators: AnnotatorsService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/admin/payouts',
      operationId: 'listPayouts',
      examples: annotationExamples.listPayouts,
      tag: 'Admin',
      summary: 'Payouts, oldest first',
      access: 'admin',
      query: z.strictObject({ status: z.enum(['PENDING', 'PAID', 'REJECTED']).optional(), limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ payouts: z.array(adminPayoutSchema), ...pageInfo }),
      handler: async ({ query }) => {
        const page = await annotators.adminListPayouts(query.limit, query.cursor, query.status);
        return { ...page, payouts: page.payouts.map(toAdminPayout) };
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/admin/payouts/:id/approve',
      operationId: 'approvePayout',
      examples: annotationExamples.approvePayout,
      notFound: 'PAYOUT_NOT_FOUND',
      tag: 'Admin',
      summary: 'Mark a pending payout PAID',
      access: 'admin',
      params: z.strictObject({ id: z.string().min(1).max(64) }),
      body: payoutDecisionBody,
      response: adminPayoutSchema,
      errors: { 409: 'PAYOUT_NOT_PENDING' },
      handler: async ({ params, body }) => toAdminPayout(await annotators.decidePayout(params.id, true, body.note ?? null)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/admin/payouts/:id/reject',
      operationId: 'rejectPayout',
      examples: annotationExamples.rejectPayout,
      notFound: 'PAYOUT_NOT_FOUND',
      tag: 'Admin',
      summary: 'Reject a pending payout; the cents return',
      access: 'admin',
      params: z.strictObject({ id: z.string().min(1).max(64) }),
      body: payoutDecisionBody,
      response: adminPayoutSchema,
      errors: { 409: 'PAYOUT_NOT_PENDING' },
      handler: async ({ params, body }) => toAdminPayout(await annotators.decidePayout(params.id, false, body.note ?? null)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/admin/annotators',
      operationId: 'listAnnotators',
      examples: annotationExamples.listAnnotators,
      tag: 'Admin',
      summary: "Every app's annotators with their live reputation, newest first",
      access: 'admin',
      query: adminAnnotatorsQuery,
      response: z.object({ annotators: z.array(adminAnnotatorSchema), ...pageInfo }),
      handler: async ({ query }) => {
        const { limit, cursor, ...filter } = query;
        const page = await annotators.adminListAnnotators(limit, cursor, filter);
        return { ...page, annotators: page.annotators.map(toAdminAnnotator) };
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/admin/annotators/:developerId/:annotatorId/reinstate',
      operationId: 'reinstateAnnotator',
      examples: annotationExamples.reinstateAnnotator,
      notFound: 'ANNOTATOR_NOT_FOUND',
      tag: 'Admin',
      summary: 'Lift a suspension',
      access: 'admin',
      params: z.strictObject({ developerId: z.string().min(1).max(64), annotatorId: annotatorIdSchema }),
      body: emptyBody,
      response: reputationSchema,
      handler: async ({ params }) => annotators.reinstate(params.developerId, params.annotatorId),
    }),
  ];
}
