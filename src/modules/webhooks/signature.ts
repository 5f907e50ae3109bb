// Webhook signatures. Two, over the exact body bytes:
//  - the spec's (Events; contract §7): `x-service-signature: sha256=` + lowercase hex HMAC-SHA256 of the
//    body, keyed with the configuration's secret as given (its UTF-8 bytes). Always sent.
//  - Standard Webhooks (https://www.standardwebhooks.com), byte-compatible with the `standardwebhooks`
//    package: `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`,
//    keyed with the decoded bytes of a `whsec_<base64>` secret, one space-separated entry per secret
//    that signs (two during a rotation). Sent only for such secrets.
// Receivers verify over the unparsed body in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const STANDARD_SECRET_PREFIX = 'whsec_';
/** A Standard Webhooks key's size once decoded (the spec's 24–64 bytes; 32 is what we generate). */
export const STANDARD_KEY_MIN_BYTES = 24;
export const STANDARD_KEY_MAX_BYTES = 64;

// Standard base64 with its padding, as the standardwebhooks package and our SDK decode it.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function signWebhookBody(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** true when `header` is the signature of `rawBody` under `secret`; compares in constant time. */
export function verifyWebhookSignature(rawBody: string | Buffer, header: string | undefined | null, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret));
  const received = Buffer.from(header.trim());
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** Why a `whsec_` secret cannot key Standard Webhooks signatures, or null when it can (or is not one). */
export function standardSecretProblem(secret: string): string | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return null;
  const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return 'a whsec_ secret is whsec_ followed by standard base64 (with its = padding)';
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < STANDARD_KEY_MIN_BYTES || bytes > STANDARD_KEY_MAX_BYTES) {
    return `a whsec_ secret decodes to ${STANDARD_KEY_MIN_BYTES}–${STANDARD_KEY_MAX_BYTES} bytes (this one: ${bytes})`;
  }
  return null;
}

/** The Standard Webhooks key of a secret: the decoded bytes of a valid `whsec_` secret, else null. */
export function standardSecretKey(secret: string): Buffer | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX) || standardSecretProblem(secret) !== null) return null;
  return Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64');
}

/** One `v1,<base64>` entry of `webhook-signature` for `key`. */
export function signStandardWebhook(messageId: string, timestampSeconds: number, body: string | Buffer, key: Buffer): string {
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeadersInput {
  /** The event id: `webhook-id`, the same on every attempt and redelivery. */
  eventId: string;
  event: string;
  deliveryId: string;
  body: string;
  /** The current secret: keys the spec's header, and the first Standard Webhooks entry when it is a whsec_ one. */
  secret: string;
  /** The secret before a rotation, while it still signs (null otherwise). */
  previousSecret: string | null;
  /** This attempt's time: `webhook-timestamp`. */
  now: Date;
}

/**
 * The headers of one webhook request: the spec's (content type, `x-service-signature` with the current
 * secret, `x-service-event`, `x-service-delivery`), and the Standard Webhooks ones when at least one of
 * the secrets is a valid whsec_ secret (each such secret adds its `v1,` entry, the current one first).
 */
export function signedWebhookHeaders(input: SignedHeadersInput): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Concord-Webhooks/1.0',
    [SIGNATURE_HEADER]: signWebhookBody(input.body, input.secret),
    'x-service-event': input.event,
    'x-service-delivery': input.deliveryId,
  };
  const keys = [input.secret, input.previousSecret].flatMap((secret) => (secret === null ? [] : [standardSecretKey(secret)])).filter((key) => key !== null);
  if (keys.length === 0) return headers;
  const timestamp = Math.floor(input.now.getTime() / 1000);
  headers['webhook-id'] = input.eventId;
  headers['webhook-timestamp'] = String(timestamp);
  headers['webhook-signature'] = keys.map((key) => signStandardWebhook(input.eventId, timestamp, input.body, key)).join(' ');
  return headers;
}
