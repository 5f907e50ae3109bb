import type { Response } from 'express';
import { jsonInSlices } from '../../lib/json-in-slices.ts';
import type { Outcome } from './idempotency.service.ts';

/**
 * Sends an idempotent outcome; a replayed one is marked so clients can tell. A new one's body is written
 * as JSON a slice at a time (a CSV import's result lists every task it created), or as the text the key
 * stored, which is that same JSON.
 */
export async function sendOutcome(res: Response, outcome: Outcome<unknown>): Promise<void> {
  if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
  const text = outcome.replayed ? outcome.json : (outcome.json ?? (await jsonInSlices(outcome.body)));
  res.status(outcome.status).type('application/json').send(text);
}
