// Webhook secrets are made in the browser and sent once: the API never returns them. The generated
// form is the Standard Webhooks one, `whsec_` + base64 of 32 random bytes (256 bits). The contract
// accepts any secret of 16 to 256 characters; the whole string, prefix included, keys the HMAC.
import { ApiError } from '../api/errors';
import type { WebhookEvent } from './queries';

export const SECRET_MIN = 16;
export const SECRET_MAX = 256;
export const MAX_CONFIGS = 20;

export const EVENTS: readonly { value: WebhookEvent; description: string }[] = [
  { value: 'task.completed', description: 'A task reached consensus and was charged.' },
  { value: 'task.failed', description: 'A task ended without consensus (nothing charged).' },
  { value: 'budget.low', description: 'Your balance fell below $5.00.' },
];

export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `whsec_${btoa(binary)}`;
}

/** A random Idempotency-Key (getRandomValues works outside secure contexts too, unlike randomUUID). */
export function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function checkUrl(url: string): string | undefined {
  const value = url.trim();
  if (!value) return 'Enter the URL that should receive the events.';
  try {
    const parsed = new URL(value);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) return undefined;
  } catch {
    // falls through to the message below
  }
  return 'Enter an absolute URL that starts with https:// (or http://), such as https://example.com/concord.';
}

export function checkEvents(events: readonly string[]): string | undefined {
  return events.length === 0 ? 'Choose at least one event.' : undefined;
}

export function checkSecret(secret: string): string | undefined {
  if (!secret) return 'Enter a secret, or generate one.';
  if (secret !== secret.trim()) return 'The secret starts or ends with a space or line break: remove it, the signature is computed with the exact text.';
  if (secret.length < SECRET_MIN) return `A secret has at least ${SECRET_MIN} characters (this one has ${secret.length}). A generated one is safer.`;
  if (secret.length > SECRET_MAX) return `A secret has at most ${SECRET_MAX} characters (this one has ${secret.length}).`;
  return undefined;
}

export const COPY_REQUIRED = 'Confirm that you have copied the secret: Concord will not show it again.';

export interface FormErrors {
  url?: string;
  events?: string;
  secret?: string;
  copied?: string;
}

/** The API's per-field VALIDATION_ERROR messages, in words, keyed by the form's fields. */
export function apiFieldErrors(error: unknown): FormErrors {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') return {};
  const fields = error.fieldErrors();
  const result: FormErrors = {};
  if (fields.url) {
    if (/public addresses/.test(fields.url)) {
      const address = /\(([^)]+)\)\s*$/.exec(error.message)?.[1];
      result.url = `Concord refuses this URL: it points to a private, local or reserved address${address ? ` (${address})` : ''}. Use an address that is reachable from the public internet.`;
    } else if (/absolute http/.test(fields.url)) {
      result.url = 'Enter an absolute URL that starts with https:// (or http://).';
    } else {
      result.url = `The URL ${fields.url}.`;
    }
  }
  if (fields.events) result.events = 'Choose at least one of the three events.';
  if (fields.secret) result.secret = `The secret ${fields.secret} (${SECRET_MIN} to ${SECRET_MAX} characters).`;
  return result;
}

/** Whether the API error is fully explained by the messages next to the fields. */
export function explainedByFields(error: unknown): boolean {
  const fields = apiFieldErrors(error);
  return Boolean(fields.url || fields.events || fields.secret);
}

export function limitMessage(): string {
  return `You already have ${MAX_CONFIGS} webhooks, the most an account can have. Delete one you no longer use, then add this one.`;
}
