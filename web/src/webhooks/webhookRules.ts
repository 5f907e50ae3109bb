// The rules of a webhook configuration as the API applies them: its events, its URL, its signing secret
// and the most an account can have, checked here before anything is sent, and the API's refusals worded
// next to the fields. Secrets are made in the browser and sent once: the API never returns them. The
// generated form is the Standard Webhooks one, `whsec_` + base64 of 32 random bytes (256 bits). The
// contract accepts any secret of 16 to 256 characters; the whole string, prefix included, keys the HMAC.
import { mapFieldErrors, plainPhrase } from '../api/fieldErrors';
import { isHttpUrl } from '../ui/url';
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

export function checkUrl(url: string): string | undefined {
  const value = url.trim();
  if (!value) return 'Enter the URL that should receive the events.';
  if (isHttpUrl(value)) return undefined;
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

/** The API's refusal of a webhook form, in words next to its fields; `general` when no field explains it. */
export function webhookFormErrors(error: unknown): { fields: FormErrors; general: unknown } {
  return mapFieldErrors(error, {
    fields: ['url', 'events', 'secret'] as const,
    rules: {
      url: (message, apiError) => {
        if (/public addresses/.test(message)) {
          const address = /\(([^)]+)\)\s*$/.exec(apiError.message)?.[1];
          return `Concord refuses this URL: it points to a private, local or reserved address${address ? ` (${address})` : ''}. Use an address that is reachable from the public internet.`;
        }
        return /absolute http/.test(message) ? 'Enter an absolute URL that starts with https:// (or http://).' : `The URL ${plainPhrase(message)}.`;
      },
      events: () => 'Choose at least one of the three events.',
      secret: (message) => `The secret ${plainPhrase(message)} (${SECRET_MIN} to ${SECRET_MAX} characters).`,
    },
  });
}
