// Schemas shared by several features. Write routes use strict objects: an unknown key is a
// VALIDATION_ERROR, so a typo never passes silently.
import { z } from 'zod';

export { emailSchema, httpUrlSchema, passwordSchema } from '@concord/contract';

export const idParams = z.strictObject({ id: z.string().min(1).max(64) });

export { timestamp } from '@concord/contract';

export const emptyBody = z.strictObject({});
/** A route that takes no query parameters still refuses unknown ones (a typo never passes silently). */
export const noQuery = z.strictObject({});

/**
 * `limit`: default 20; above 100 is read as 100; non-numeric or below 1 is an error. A query string is
 * text: it is parsed from its digits (never coerced, so `1e2` or ` 5` stay errors), and documented as
 * the integer it stands for.
 */
export const limitSchema = z
  .string()
  .regex(/^\d+$/, { error: 'must be a whole number from 1 to 100' })
  .transform(Number)
  .refine((n) => n >= 1, { error: 'must be at least 1' })
  .transform((n) => Math.min(n, 100))
  .optional()
  .transform((n) => n ?? 20)
  .meta({ type: 'integer', minimum: 1, default: 20, description: 'Page size: 1 to 100, default 20 (above 100 is read as 100)' });

export const cursorSchema = z.string().min(1).max(512).optional();

export { errorSchema } from '@concord/contract';

export const pageInfo = {
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
};

/** The longest daily report: a year, leap day included. */
export const MAX_REPORT_DAYS = 366;

/** `days` of a daily report: a whole number from 1 to 366, default 30. */
export const daysSchema = z
  .string()
  .regex(/^\d+$/, { error: `must be a whole number from 1 to ${MAX_REPORT_DAYS}` })
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_REPORT_DAYS, { error: `must be from 1 to ${MAX_REPORT_DAYS}` })
  .optional()
  .transform((n) => n ?? 30)
  .meta({
    type: 'integer',
    minimum: 1,
    maximum: MAX_REPORT_DAYS,
    default: 30,
    description: 'How many UTC days, ending today (included): 1 to 366, default 30',
  });

/** One UTC calendar day, `YYYY-MM-DD`. */
export const dateSchema = z.iso.date().meta({ description: 'UTC calendar day, YYYY-MM-DD' });

export { CONFIDENCE_DESCRIPTION } from '@concord/contract';
