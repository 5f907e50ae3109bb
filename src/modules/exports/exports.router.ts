import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Services } from '../../container.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { LOCALES, TASK_STATUSES, TASK_TYPES } from '../tasks/task-rules.ts';

const exportQuery = z.strictObject({
  format: z.string().optional().meta({ description: 'json, jsonl, csv, openai, huggingface or alpaca (INVALID_FORMAT otherwise)' }),
  status: z.enum(TASK_STATUSES).optional().meta({ description: 'Default COMPLETED' }),
  projectId: z.string().max(64).optional(),
  type: z.enum(TASK_TYPES).optional(),
  locale: z.enum(LOCALES).optional(),
  trainRatio: z.string().optional().meta({ description: 'Alone: one plain file. With valRatio and testRatio (sum 1.0): a ZIP' }),
  valRatio: z.string().optional(),
  testRatio: z.string().optional(),
  seed: z.string().max(200).optional().meta({ description: 'Changes the deterministic shuffle of a split' }),
});

export function exportEndpoints({ exports }: Services) {
  return [
    defineEndpoint({
      method: 'get', path: '/exports', tag: 'Exports', summary: 'Download results as a training dataset (streamed)', access: 'buyer',
      query: exportQuery, errors: { 400: 'INVALID_FORMAT, INVALID_RATIOS or VALIDATION_ERROR' },
      produces: {
        'application/json': 'json: one array',
        'application/x-ndjson': 'jsonl, openai, huggingface, alpaca: one object per line',
        'text/csv': 'csv with a header row',
        'application/zip': 'train, val and test files when all three ratios are given',
      },
      handler: async ({ principal, query, req, res }) => {
        const download = await exports.open(principal.accountId, query);
        res.status(200);
        res.setHeader('content-type', download.contentType);
        res.setHeader('content-disposition', `attachment; filename="${download.filename}"`);
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
