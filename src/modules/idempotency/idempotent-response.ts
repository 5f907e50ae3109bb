import type { Response } from 'express';
import type { Outcome } from './idempotency.service.ts';

/** Sends an idempotent outcome; a replayed one is marked so clients can tell. */
export function sendOutcome(res: Response, outcome: Outcome<unknown>): void {
  if (!outcome.replayed) {
    res.status(outcome.status).json(outcome.body);
    return;
  }
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(outcome.status).type('application/json').send(outcome.json);
}
