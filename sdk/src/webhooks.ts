// Checks that a webhook request came from Concord, over the exact bytes of its body (never a
// re-serialised JSON object). Two signatures exist:
//  - the spec's `x-service-signature: sha256=<hex HMAC-SHA256 of the body>`, keyed with the webhook
//    configuration's secret as given (its UTF-8 bytes); it carries no timestamp;
//  - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
//    `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` (several space-separated entries
//    during a secret rotation), keyed with the decoded bytes of a `whsec_<base64>` secret. The timestamp
//    must be within the tolerance (5 minutes) of now, so a captured request cannot be replayed later.
// Web Crypto only, so it runs in Node.js, Deno, Bun and browsers alike; every comparison of a signature is
// crypto.subtle.verify, which compares in constant time.
import { ConcordWebhookVerificationError } from './errors.ts';

const encoder = new TextEncoder();
const STANDARD_PREFIX = 'whsec_';
/** Standard Webhooks' tolerance, and the SDK's default: 5 minutes either way. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Request headers as Node.js (`req.headers`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface TaskCompletedEvent {
  event: 'task.completed';
  taskId: string;
  type: string;
  result: string;
  confidence: number;
  totalResponses: number;
  costCents: number;
  validatedAt: string;
}
export interface TaskFailedEvent {
  event: 'task.failed';
  taskId: string;
  type: string;
  reason: string;
  totalResponses: number;
  failedAt: string;
}
export interface BudgetLowEvent {
  event: 'budget.low';
  creditBalance: number;
  thresholdCents: number;
  at: string;
}
/** A test send's event (POST /webhooks/configs/:id/test, `webhooks.test(id)`): signed like any delivery, never retried. */
export interface PingEvent {
  event: 'ping';
  /** The configuration it was sent to. */
  webhookId: string;
  sentAt: string;
}
/** The payloads the service sends today; pass a type argument to verifyWebhook for others. */
export type WebhookEvent = TaskCompletedEvent | TaskFailedEvent | BudgetLowEvent | PingEvent;

/** How many random bytes generateWebhookSecret draws (Standard Webhooks allows 24 to 64). */
export const WEBHOOK_SECRET_BYTES = 32;
const STANDARD_KEY_MIN_BYTES = 24;
const STANDARD_KEY_MAX_BYTES = 64;
// Standard base64 with its = padding: what the service accepts after whsec_ (and the standardwebhooks packages decode).
const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A fresh Standard Webhooks secret: `whsec_` and 32 random bytes (Web Crypto's getRandomValues) in
 * standard, padded base64, the encoding the service accepts. What webhooks.create and
 * webhooks.rotateSecret use when given no secret, and what the dashboard and the CLI generate.
 */
export function generateWebhookSecret(): string {
  return `${STANDARD_PREFIX}${toBase64(globalThis.crypto.getRandomValues(new Uint8Array(WEBHOOK_SECRET_BYTES)))}`;
}

/**
 * Why the service would refuse `secret` for a webhook configuration, or null when it takes it: 16–256
 * characters, and a secret that starts with `whsec_` must be standard, padded base64 of 24–64 bytes
 * after it (such a secret also signs the Standard Webhooks headers; any other signs x-service-signature only).
 */
export function webhookSecretProblem(secret: string): string | null {
  if (secret.length < 16 || secret.length > 256) return 'a webhook secret has 16 to 256 characters';
  if (!secret.startsWith(STANDARD_PREFIX)) return null;
  const encoded = secret.slice(STANDARD_PREFIX.length);
  if (!PADDED_BASE64.test(encoded)) return 'a whsec_ secret is whsec_ followed by standard base64 (with its = padding)';
  const bytes = (encoded.length / 4) * 3 - (encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0);
  if (bytes < STANDARD_KEY_MIN_BYTES || bytes > STANDARD_KEY_MAX_BYTES) {
    return `a whsec_ secret decodes to ${STANDARD_KEY_MIN_BYTES}–${STANDARD_KEY_MAX_BYTES} bytes (this one: ${bytes})`;
  }
  return null;
}

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

type Body = string | Uint8Array;

/**
 * Verifies a webhook request and returns its parsed payload; throws ConcordWebhookVerificationError
 * (codes WEBHOOK_SIGNATURE_MISSING, WEBHOOK_SIGNATURE_INVALID, WEBHOOK_TIMESTAMP_INVALID,
 * WEBHOOK_TIMESTAMP_TOO_OLD, WEBHOOK_TIMESTAMP_TOO_NEW, WEBHOOK_SECRET_INVALID, WEBHOOK_BODY_INVALID)
 * when it does not check out. `body` is the raw body, exactly as received.
 */
export async function verifyWebhook<T = WebhookEvent>(body: Body, headers: WebhookHeaders, secret: string, options: VerifyWebhookOptions = {}): Promise<T> {
  const scheme = options.scheme ?? 'auto';
  const useStandard = scheme === 'standard' || (scheme === 'auto' && secret.startsWith(STANDARD_PREFIX));
  const bytes = toBytes(body);
  if (useStandard) await verifyStandard(bytes, headers, secret, options);
  else await verifyService(bytes, header(headers, 'x-service-signature'), secret);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as T;
  } catch (cause) {
    throw failure('WEBHOOK_BODY_INVALID', 'The webhook body is not JSON', cause);
  }
}

/**
 * true when `signatureHeader` is the spec's `x-service-signature` of `body` under `secret`. The boolean
 * form of verifyWebhook's `service` scheme, for receivers that only need yes or no.
 */
export async function verifyWebhookSignature(body: Body, signatureHeader: string | null | undefined, secret: string): Promise<boolean> {
  try {
    await verifyService(toBytes(body), signatureHeader ?? undefined, secret);
    return true;
  } catch (error) {
    if (error instanceof ConcordWebhookVerificationError) return false;
    throw error;
  }
}

/** The spec's `x-service-signature` value for `body` (what the service sends; useful to forward or test). */
export async function signWebhookBody(body: Body, secret: string): Promise<string> {
  const key = await hmacKey(encoder.encode(secret), 'sign');
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, toBytes(body)));
  return `sha256=${Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The Standard Webhooks headers for `body` under a `whsec_…` secret, as the service (and the
 * `standardwebhooks` package) produce them: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`.
 */
export async function signStandardWebhook(
  messageId: string,
  timestamp: Date | number,
  body: Body,
  secret: string,
): Promise<{ 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string }> {
  const seconds = String(Math.floor((timestamp instanceof Date ? timestamp.getTime() : timestamp) / 1000));
  const key = await hmacKey(standardKey(secret), 'sign');
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, standardContent(messageId, seconds, toBytes(body))));
  return { 'webhook-id': messageId, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${toBase64(mac)}` };
}

async function verifyService(bytes: Uint8Array<ArrayBuffer>, signature: string | undefined, secret: string): Promise<void> {
  if (signature === undefined) throw failure('WEBHOOK_SIGNATURE_MISSING', 'The request has no x-service-signature header');
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1];
  if (!hex) throw failure('WEBHOOK_SIGNATURE_INVALID', 'x-service-signature is not sha256=<64 hex digits>');
  const given = new Uint8Array(32);
  for (let i = 0; i < 32; i++) given[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const key = await hmacKey(encoder.encode(secret), 'verify');
  if (!(await globalThis.crypto.subtle.verify('HMAC', key, given, bytes))) {
    throw failure('WEBHOOK_SIGNATURE_INVALID', 'x-service-signature does not match the body and the secret');
  }
}

async function verifyStandard(bytes: Uint8Array<ArrayBuffer>, headers: WebhookHeaders, secret: string, options: VerifyWebhookOptions): Promise<void> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw failure('WEBHOOK_SIGNATURE_MISSING', 'The request lacks webhook-id, webhook-timestamp or webhook-signature');
  }
  if (!/^\d{1,15}$/.test(timestamp.trim())) throw failure('WEBHOOK_TIMESTAMP_INVALID', 'webhook-timestamp is not a number of seconds');
  const now = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : options.now;
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const age = Math.floor(now / 1000) - Number(timestamp.trim());
  if (age > tolerance) throw failure('WEBHOOK_TIMESTAMP_TOO_OLD', `webhook-timestamp is ${age} s old, beyond the ${tolerance} s tolerance`);
  if (-age > tolerance) throw failure('WEBHOOK_TIMESTAMP_TOO_NEW', `webhook-timestamp is ${-age} s ahead, beyond the ${tolerance} s tolerance`);
  const key = await hmacKey(standardKey(secret), 'verify');
  const content = standardContent(id, timestamp.trim(), bytes);
  // Every v1 entry is checked (a rotation signs with both secrets); one match is enough.
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) continue;
    const given = fromBase64(value);
    if (given && given.length === 32 && (await globalThis.crypto.subtle.verify('HMAC', key, given, content))) return;
  }
  throw failure('WEBHOOK_SIGNATURE_INVALID', 'No webhook-signature entry matches the body and the secret');
}

/** The key of a Standard Webhooks secret: the base64 after `whsec_` (or the whole secret), decoded. */
function standardKey(secret: string): Uint8Array<ArrayBuffer> {
  const key = fromBase64(secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret);
  if (!key || key.length === 0) throw failure('WEBHOOK_SECRET_INVALID', 'A Standard Webhooks secret is whsec_ followed by base64');
  return key;
}

function standardContent(id: string, seconds: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${seconds}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return content;
}

function hmacKey(raw: Uint8Array<ArrayBuffer>, usage: 'sign' | 'verify') {
  return globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
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

function toBytes(body: Body): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  // A copy on its own ArrayBuffer: Web Crypto takes no view of a shared or larger buffer's type.
  return new Uint8Array(body);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const failure = (code: string, message: string, cause?: unknown) => new ConcordWebhookVerificationError({ code, message, cause });
