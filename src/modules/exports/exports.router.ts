import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { ExportsService } from './exports.service.ts';
import { defineEndpoint, outOfScope } from '../../lib/endpoint.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { CONFIDENCE_DESCRIPTION, timestamp } from '../../lib/schemas.ts';
import {
  ANSWER_KINDS,
  candidatesSchema,
  choicesSchema,
  EXPORT_SEED_MAX_LENGTH,
  LOCALES,
  optionConfidenceSchema,
  ratingResultSchema,
  TASK_STATUSES,
  TASK_TYPES,
} from '@concord/contract';
import { EXPORT_FORMATS } from '@concord/contract';
import { exportExamples } from './exports.examples.ts';

/**
 * A split ratio: read by the service (INVALID_RATIOS, not VALIDATION_ERROR, for a bad one), so the query
 * takes any text; documented as the decimal it must be.
 */
const ratio = (description: string) => z.string().optional().meta({ type: 'number', minimum: 0, maximum: 1, description });

const exportQuery = z.strictObject({
  // Any text is taken (the service answers INVALID_FORMAT, in the contract's order); documented as the list it must be one of.
  format: z
    .string()
    .optional()
    .meta({
      type: 'string',
      enum: [...EXPORT_FORMATS],
      description:
        'Required: json, jsonl, csv, openai, huggingface, alpaca or preference (INVALID_FORMAT otherwise). preference writes the decided pairwise ' +
        'tasks only, one {prompt, chosen, rejected, confidence, id} line each, for reward models and DPO',
    }),
  status: z.enum(TASK_STATUSES).optional().meta({ description: 'Default COMPLETED' }),
  projectId: z.string().max(64).optional(),
  type: z.enum(TASK_TYPES).optional(),
  locale: z.enum(LOCALES).optional(),
  trainRatio: ratio('Alone: one plain file. With valRatio and testRatio (summing to 1.0): a ZIP of train, val and test files'),
  valRatio: ratio('With trainRatio and testRatio: the validation share'),
  testRatio: ratio('With trainRatio and valRatio: the test share'),
  includeTies: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'preference only: also write pairs decided as a tie (chosen A, rejected B, tie: true); false by default' }),
  seed: z.string().max(EXPORT_SEED_MAX_LENGTH).optional().meta({ description: 'Changes the deterministic shuffle of a split' }),
  minConfidence: z
    .string()
    .regex(/^(0?\.\d+|[01](\.\d*)?)$/, { error: 'must be a decimal from 0 to 1' })
    .transform(Number)
    .refine((n) => n <= 1, { error: 'must be at most 1' })
    .optional()
    .meta({
      type: 'number',
      minimum: 0,
      maximum: 1,
      description:
        'Only tasks whose confidence is at least this (0–1; VALIDATION_ERROR otherwise); tasks without a confidence are left out. ' +
        "The confidence is calibrated on the project's golden tasks: GET /projects/{id}/quality says how far it is measured.",
    }),
});

/** One record of the `json` format (export-formats.ts). */
const exportJsonSchema = z
  .array(
    z.object({
      id: z.string(),
      type: z.enum(TASK_TYPES),
      content: z.string(),
      label: z.string().nullable().meta({
        description: "The task's result (a multi-select task's: the options of the set joined by |, also in choices; a pairwise task's: A, B or tie)",
      }),
      confidence: z.number().nullable().meta({ description: CONFIDENCE_DESCRIPTION }),
      locale: z.enum(LOCALES),
      validatedAt: timestamp.nullable(),
      answerKind: z.enum(ANSWER_KINDS).optional().meta({ description: 'Absent for single choice; json and jsonl records of another kind name it' }),
      rating: ratingResultSchema.nullable().optional().meta({ description: 'Rating tasks only: the posterior mean level and 90 % interval' }),
      choices: choicesSchema.optional(),
      optionConfidence: optionConfidenceSchema
        .nullable()
        .optional()
        .meta({ description: 'Multi-select tasks only: per option, the probability that its decision is right' }),
      candidates: candidatesSchema.optional(),
      group: z.string().nullable().optional().meta({ description: 'Pairwise tasks only: the group, or null' }),
      groupRanking: z
        .array(
          z.object({
            candidate: z.string(),
            score: z.number().meta({ description: 'ln of the Bradley–Terry strength (4 decimals)' }),
            rank: z.number().int().meta({ description: '1 for the best; equal scores share a rank' }),
          }),
        )
        .nullable()
        .optional()
        .meta({
          description:
            "Pairwise tasks of a group: the group's candidates ranked by Bradley–Terry over all its decided pairs, each weighted by its confidence; null without a group",
        }),
    }),
  )
  .meta({ id: 'ExportJson' });

export function exportEndpoints({ exports }: { exports: ExportsService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/exports',
      operationId: 'exportDataset',
      examples: exportExamples.exportDataset,
      tag: 'Exports',
      summary: 'Download results as a training dataset (streamed)',
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      query: exportQuery,
      errors: { 400: 'INVALID_FORMAT, INVALID_RATIOS, VALIDATION_ERROR, or INVALID_PROJECT (a project-scoped API key names no projectId of its own)' },
      produces: {
        'application/json': { description: 'json: one array of records', schema: exportJsonSchema },
        'application/x-ndjson': 'jsonl, openai, huggingface, alpaca, preference: one object per line',
        'text/csv': 'csv with a header row',
        'application/zip': 'train, val and test files when all three ratios are given',
      },
      responseHeaders: {
        'x-export-split': 'A split only: the records in each file, e.g. `train=2, val=0, test=1`',
        'x-export-empty-parts': 'A split only, when a file holds no record: their names, e.g. `val` (too few tasks for the ratios)',
      },
      handler: async ({ principal, query, req, res }) => {
        const refused = outOfScope(principal.projectIds, query.projectId ?? null);
        if (refused) throw new BadRequestError('INVALID_PROJECT', refused);
        const download = await exports.open(principal.buyerId, query);
        res.status(200);
        res.setHeader('content-type', download.contentType);
        res.setHeader('content-disposition', `attachment; filename="${download.filename}"`);
        if (download.parts) {
          const { parts } = download;
          res.setHeader('x-export-split', `train=${parts.train}, val=${parts.val}, test=${parts.test}`);
          const empty = (['train', 'val', 'test'] as const).filter((name) => parts[name] === 0);
          if (empty.length > 0) res.setHeader('x-export-empty-parts', empty.join(', '));
        }
        // A client that goes away stops the database reads now, not when the stream next yields.
        res.once('close', () => {
          if (!res.writableFinished) void download.abort();
        });
        try {
          await pipeline(download.body, res);
        } catch (error) {
          // A client that went away is not an error of ours; anything else after the headers is logged.
          if (!req.destroyed && !res.destroyed) throw error;
        }
      },
    }),
  ];
}
