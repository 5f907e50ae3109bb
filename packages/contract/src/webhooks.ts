// Webhook secrets and signatures (spec: Events; contract §7), written once for the service that signs,
// the SDK and the CLI that verify and sign in tests, and the dashboard that generates secrets. Two
// signatures, over the exact body bytes:
//  - the spec's `x-service-signature: sha256=<lowercase hex HMAC-SHA256 of the body>`, keyed with the
//    configuration's secret as given (its UTF-8 bytes); always sent; it carries no timestamp;
//  - Standard Webhooks (https://www.standardwebhooks.com), byte-compatible with the `standardwebhooks`
//    package: `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of
//    "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the decoded bytes of a `whsec_<base64>`
//    secret, one space-separated entry per secret that signs (two during a rotation); sent only for such
//    secrets. Verification refuses a timestamp beyond the tolerance (5 minutes) either way, so a captured
//    request cannot be replayed later.
// Web Crypto only, so it runs in Node.js, Deno, Bun and browsers alike; every comparison of a signature is
// crypto.subtle.verify, which compares in constant time.
import { z } from 'zod';

/** contract: a webhook secret is 16 to 256 characters (the whole string, a `whsec_` prefix included). */
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 256;
export const WHSEC_PREFIX = 'whsec_';
/** What the dashboard, the CLI and the SDK generate: 256 bits. */
export const WHSEC_GENERATED_BYTES = 32;
/** The sizes a `whsec_` key may decode to (Standard Webhooks' own bounds). */
export const WHSEC_MIN_BYTES = 24;
export const WHSEC_MAX_BYTES = 64;
export const SIGNATURE_HEADER = 'x-service-signature';
/** Standard Webhooks' tolerance, and the verifiers' default: 5 minutes either way. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;
/** contract: at most 20 webhook configurations per buyer (also the most deliveries one event makes). */
export const MAX_WEBHOOK_CONFIGS = 20;
/** How a failed attempt is retried: the spec's one retry (the default), or 8 attempts over about a day. */
export const RETRY_POLICIES = ['spec', 'extended'] as const;
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

// Standard base64 with its `=` padding, as the service, the standardwebhooks packages and the SDK decode it.
const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const encoder = new TextEncoder();

/** Why a `whsec_` secret cannot key Standard Webhooks signatures. */
export type WhsecProblem = { reason: 'encoding' } | { reason: 'size'; bytes: number };

/** The bytes standard, padded base64 decodes to (the text must match PADDED_BASE64). */
const decodedLength = (encoded: string) => (encoded.length / 4) * 3 - (encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0);

/** What is wrong with a `whsec_` secret, or null when it is a valid one or is not a `whsec_` secret at all. */
export function whsecProblem(secret: string): WhsecProblem | null {
  if (!secret.startsWith(WHSEC_PREFIX)) return null;
  const encoded = secret.slice(WHSEC_PREFIX.length);
  if (!PADDED_BASE64.test(encoded)) return { reason: 'encoding' };
  const bytes = decodedLength(encoded);
  return bytes < WHSEC_MIN_BYTES || bytes > WHSEC_MAX_BYTES ? { reason: 'size', bytes } : null;
}

/** The API's sentence for a `whsec_` problem. */
export function describeWhsecProblem(problem: WhsecProblem): string {
  return problem.reason === 'encoding'
    ? 'a whsec_ secret is whsec_ followed by standard base64 (with its = padding)'
    : `a whsec_ secret decodes to ${WHSEC_MIN_BYTES}–${WHSEC_MAX_BYTES} bytes (this one: ${problem.bytes})`;
}

/** Why the service would refuse `secret` for a webhook configuration, or null when it takes it. */
export function webhookSecretProblem(secret: string): string | null {
  if (secret.length < WEBHOOK_SECRET_MIN_LENGTH || secret.length > WEBHOOK_SECRET_MAX_LENGTH) {
    return `a webhook secret has ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters`;
  }
  const problem = whsecProblem(secret);
  return problem ? describeWhsecProblem(problem) : null;
}

/** A webhook configuration's secret as the API takes it. */
export const webhookSecretSchema = z
  .string()
  .min(WEBHOOK_SECRET_MIN_LENGTH, { error: `must be at least ${WEBHOOK_SECRET_MIN_LENGTH} characters` })
  .max(WEBHOOK_SECRET_MAX_LENGTH)
  .superRefine((value, ctx) => {
    const problem = whsecProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: describeWhsecProblem(problem) });
  });

/** Whether the secret signs the Standard Webhooks headers (a valid `whsec_` secret). */
export const isStandardSecret = (secret: string): boolean => secret.startsWith(WHSEC_PREFIX) && whsecProblem(secret) === null;

/** Fills a byte array with random bytes (Web Crypto's getRandomValues unless a test gives its own). */
export type RandomSource = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

/** A fresh Standard Webhooks secret: `whsec_` and 32 random bytes in standard, padded base64. */
export function generateWebhookSecret(random: RandomSource = (bytes) => globalThis.crypto.getRandomValues(bytes)): string {
  return `${WHSEC_PREFIX}${toBase64(random(new Uint8Array(WHSEC_GENERATED_BYTES)))}`;
}

/** The Standard Webhooks key of a secret: the decoded bytes of a valid `whsec_` secret, else null. */
export function standardSecretKey(secret: string): Uint8Array<ArrayBuffer> | null {
  return isStandardSecret(secret) ? fromBase64(secret.slice(WHSEC_PREFIX.length)) : null;
}

/**
 * The HMAC key a verifier takes from a Standard Webhooks secret: the base64 after `whsec_` (or the whole
 * secret, for receivers that store the key bare), decoded; null when it is not base64.
 */
export function standardKeyBytes(secret: string): Uint8Array<ArrayBuffer> | null {
  const key = fromBase64(secret.startsWith(WHSEC_PREFIX) ? secret.slice(WHSEC_PREFIX.length) : secret);
  return key && key.length > 0 ? key : null;
}

/** A body as the bytes it is signed over: a string's UTF-8, or the bytes themselves. */
export type SignedBody = string | Uint8Array;

/**
 * HMAC-SHA256 of `data` under `key`. Signing takes it as a parameter so that a server can sign with its
 * platform's synchronous primitive (Node's createHmac costs about a tenth of Web Crypto's importKey and
 * sign for a webhook body); what is signed, and how it is written, stays here.
 */
export type HmacSha256 = (key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>;

/** HMAC-SHA256 by Web Crypto: what every platform has. */
export const webCryptoHmacSha256: HmacSha256 = async (key, data) =>
  new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await hmacKey(key, 'sign'), data));

/** The spec's `x-service-signature` value for `body` under `secret`. */
export async function signWebhookBody(body: SignedBody, secret: string, hmac: HmacSha256 = webCryptoHmacSha256): Promise<string> {
  const mac = await hmac(encoder.encode(secret), toBytes(body));
  return `sha256=${Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** One `v1,<base64>` entry of `webhook-signature` for the Standard Webhooks key `key`. */
export async function signStandardEntry(
  messageId: string,
  timestampSeconds: number,
  body: SignedBody,
  key: Uint8Array<ArrayBuffer>,
  hmac: HmacSha256 = webCryptoHmacSha256,
): Promise<string> {
  return `v1,${toBase64(await hmac(key, standardContent(messageId, String(timestampSeconds), toBytes(body))))}`;
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
export async function signedWebhookHeaders(input: SignedHeadersInput, hmac: HmacSha256 = webCryptoHmacSha256): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Concord-Webhooks/1.0',
    [SIGNATURE_HEADER]: await signWebhookBody(input.body, input.secret, hmac),
    'x-service-event': input.event,
    'x-service-delivery': input.deliveryId,
  };
  const keys = [input.secret, input.previousSecret].flatMap((secret) => (secret === null ? [] : [standardSecretKey(secret)])).filter((key) => key !== null);
  if (keys.length === 0) return headers;
  const timestamp = Math.floor(input.now.getTime() / 1000);
  const entries = await Promise.all(keys.map((key) => signStandardEntry(input.eventId, timestamp, input.body, key, hmac)));
  headers['webhook-id'] = input.eventId;
  headers['webhook-timestamp'] = String(timestamp);
  headers['webhook-signature'] = entries.join(' ');
  return headers;
}

/** Why a signature does not check out. */
export interface SignatureFailure {
  code:
    | 'WEBHOOK_SIGNATURE_MISSING'
    | 'WEBHOOK_SIGNATURE_INVALID'
    | 'WEBHOOK_TIMESTAMP_INVALID'
    | 'WEBHOOK_TIMESTAMP_TOO_OLD'
    | 'WEBHOOK_TIMESTAMP_TOO_NEW'
    | 'WEBHOOK_SECRET_INVALID';
  message: string;
}

/** The spec's signature of `body`, checked in constant time: null when it matches, else why not. */
export async function checkServiceSignature(body: SignedBody, signature: string | null | undefined, secret: string): Promise<SignatureFailure | null> {
  if (signature === undefined || signature === null) return { code: 'WEBHOOK_SIGNATURE_MISSING', message: 'The request has no x-service-signature header' };
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1];
  if (!hex) return { code: 'WEBHOOK_SIGNATURE_INVALID', message: 'x-service-signature is not sha256=<64 hex digits>' };
  const given = new Uint8Array(32);
  for (let i = 0; i < 32; i++) given[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const key = await hmacKey(encoder.encode(secret), 'verify');
  if (await globalThis.crypto.subtle.verify('HMAC', key, given, toBytes(body))) return null;
  return { code: 'WEBHOOK_SIGNATURE_INVALID', message: 'x-service-signature does not match the body and the secret' };
}

/** true when `signature` is the spec's `x-service-signature` of `body` under `secret`. */
export async function verifyWebhookSignature(body: SignedBody, signature: string | null | undefined, secret: string): Promise<boolean> {
  return (await checkServiceSignature(body, signature, secret)) === null;
}

export interface StandardHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

/**
 * The Standard Webhooks signature of `body`: null when one `v1` entry matches under `secret` (a `whsec_`
 * secret, or base64 key bytes) and the timestamp is within `toleranceSeconds` of `nowMs`, else why not.
 */
export async function checkStandardSignature(
  body: SignedBody,
  headers: StandardHeaders,
  secret: string,
  { nowMs, toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS }: { nowMs: number; toleranceSeconds?: number },
): Promise<SignatureFailure | null> {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) {
    return { code: 'WEBHOOK_SIGNATURE_MISSING', message: 'The request lacks webhook-id, webhook-timestamp or webhook-signature' };
  }
  const seconds = timestamp.trim();
  if (!/^\d{1,15}$/.test(seconds)) return { code: 'WEBHOOK_TIMESTAMP_INVALID', message: 'webhook-timestamp is not a number of seconds' };
  const age = Math.floor(nowMs / 1000) - Number(seconds);
  if (age > toleranceSeconds)
    return { code: 'WEBHOOK_TIMESTAMP_TOO_OLD', message: `webhook-timestamp is ${age} s old, beyond the ${toleranceSeconds} s tolerance` };
  if (-age > toleranceSeconds) {
    return { code: 'WEBHOOK_TIMESTAMP_TOO_NEW', message: `webhook-timestamp is ${-age} s ahead, beyond the ${toleranceSeconds} s tolerance` };
  }
  const keyBytes = standardKeyBytes(secret);
  if (!keyBytes) return { code: 'WEBHOOK_SECRET_INVALID', message: 'A Standard Webhooks secret is whsec_ followed by base64' };
  const key = await hmacKey(keyBytes, 'verify');
  const content = standardContent(id, seconds, toBytes(body));
  // Every v1 entry is checked (a rotation signs with both secrets); one match is enough.
  for (const entry of signature.split(' ')) {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) continue;
    const given = fromBase64(value);
    if (given && given.length === 32 && (await globalThis.crypto.subtle.verify('HMAC', key, given, content))) return null;
  }
  return { code: 'WEBHOOK_SIGNATURE_INVALID', message: 'No webhook-signature entry matches the body and the secret' };
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

function toBytes(body: SignedBody): Uint8Array<ArrayBuffer> {
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
