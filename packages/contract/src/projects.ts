// A project's fields and quality settings as the API accepts them (contract §3, §5); the database CHECKs
// repeat the bounds, and the dashboard's forms check them before they send.
import { z } from 'zod';

export const PROJECT_NAME_MAX = 200;
export const PROJECT_DESCRIPTION_MAX = 5_000;
/** The confidence a task completes at: 0.5 (a coin toss) to 0.999. */
export const TARGET_CONFIDENCE_MIN = 0.5;
export const TARGET_CONFIDENCE_MAX = 0.999;
/** Two answers at least (one cannot be outvoted), 50 at most (a task's whole crowd). */
export const MAX_RESPONSES_MIN = 2;
export const MAX_RESPONSES_MAX = 50;
/** A project's confidence histogram: ten buckets of width 0.1; the last one also holds 1.0. */
export const CONFIDENCE_BUCKETS = 10;

export const targetConfidenceSchema = z.number().min(TARGET_CONFIDENCE_MIN).max(TARGET_CONFIDENCE_MAX);
export const maxResponsesSchema = z.number().int().min(MAX_RESPONSES_MIN).max(MAX_RESPONSES_MAX);
