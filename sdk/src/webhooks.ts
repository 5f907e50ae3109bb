// Checks that a webhook request came from Concord, over the exact bytes of its body (never a
// re-serialised JSON object): the spec's `x-service-signature`, or Standard Webhooks' `webhook-signature`
// with its timestamp (a captured request cannot be replayed later). The signatures, the secret rules, the
// generation of secrets and the payload types are the service's own (@concord/contract, Web Crypto only),
// so this runs in Node.js, Deno, Bun and browsers alike.
import {
  checkServiceSignature,
  checkStandardSignature,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  generateWebhookSecret,
  signStandardEntry,
  signWebhookBody,
  standardKeyBytes,
  verifyWebhookSignature,
  webhookSecretProblem,
  WHSEC_GENERATED_BYTES,
  WHSEC_PREFIX,
  type SignatureFailure,
  type SignedBody,
  type WebhookEvent,
} from '@concord/contract';
import { ConcordWebhookVerificationError } from './errors.ts';

export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, generateWebhookSecret, signWebhookBody, verifyWebhookSignature, webhookSecretProblem };
export type { BudgetCapReachedEvent, BudgetLowEvent, PingEvent, TaskCompletedEvent, TaskFailedEvent, TaskRejectedEvent, WebhookEvent } from '@concord/contract';
/** How many random bytes generateWebhookSecret draws (Standard Webhooks allows 24 to 64). */
export const WEBHOOK_SECRET_BYTES = WHSEC_GENERATED_BYTES;

/** Request headers as Node.js (`req.headers`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds, either way; 300 unless set. */
  toleranceSeconds?: number;
  /** The time to check the timestamp against (tests, a clock you trust more); the current time unless set. */
  now?: Date | number;
  /**
   * Which signature to check:
   * - `auto` (the default): Standard Webhooks when the secret is a `whsec_…` secret — the service always
   *   sends its headers then, so a request without them is refused: stripping them must not downgrade the
   *   check to the spec's header, which has no timestamp and could be replayed forever — else the spec's
   *   `x-service-signature`;
   * - `standard`: Standard Webhooks only; a request without its headers is refused (no replay window);
   * - `service`: the spec's `x-service-signature` only.
   */
  scheme?: 'auto' | 'standard' | 'service';
}

/**
 * Verifies a webhook request and returns its parsed payload; throws ConcordWebhookVerificationError
 * (codes WEBHOOK_SIGNATURE_MISSING, WEBHOOK_SIGNATURE_INVALID, WEBHOOK_TIMESTAMP_INVALID,
 * WEBHOOK_TIMESTAMP_TOO_OLD, WEBHOOK_TIMESTAMP_TOO_NEW, WEBHOOK_SECRET_INVALID, WEBHOOK_BODY_INVALID)
 * when it does not check out. `body` is the raw body, exactly as received.
 */
export async function verifyWebhook<T = WebhookEvent>(
  body: SignedBody,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const scheme = options.scheme ?? 'auto';
  const useStandard = scheme === 'standard' || (scheme === 'auto' && secret.startsWith(WHSEC_PREFIX));
  const now = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : options.now;
  const failure = useStandard
    ? await checkStandardSignature(
        body,
        { id: header(headers, 'webhook-id'), timestamp: header(headers, 'webhook-timestamp'), signature: header(headers, 'webhook-signature') },
        secret,
        { nowMs: now, ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }) },
      )
    : await checkServiceSignature(body, header(headers, 'x-service-signature'), secret);
  if (failure) throw verificationError(failure);
  try {
    return JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body)) as T;
  } catch (cause) {
    throw new ConcordWebhookVerificationError({ code: 'WEBHOOK_BODY_INVALID', message: 'The webhook body is not JSON', cause });
  }
}

/**
 * The Standard Webhooks headers for `body` under a `whsec_…` secret, as the service (and the
 * `standardwebhooks` package) produce them: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`.
 */
export async function signStandardWebhook(
  messageId: string,
  timestamp: Date | number,
  body: SignedBody,
  secret: string,
): Promise<{ 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string }> {
  const seconds = Math.floor((timestamp instanceof Date ? timestamp.getTime() : timestamp) / 1000);
  const key = standardKeyBytes(secret);
  if (!key) throw verificationError({ code: 'WEBHOOK_SECRET_INVALID', message: 'A Standard Webhooks secret is whsec_ followed by base64' });
  return { 'webhook-id': messageId, 'webhook-timestamp': String(seconds), 'webhook-signature': await signStandardEntry(messageId, seconds, body, key) };
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

const verificationError = (failure: SignatureFailure) => new ConcordWebhookVerificationError({ code: failure.code, message: failure.message });
