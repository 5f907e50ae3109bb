// The rules of a webhook configuration as the API applies them (@concord/contract): its events, its URL,
// its signing secret and the most an account can have, checked here before anything is sent, and the API's
// refusals worded next to the fields. Secrets are made in the browser (the contract's
// generateWebhookSecret: the Standard Webhooks form) and sent once: the API never returns them. The
// contract accepts any secret of 16 to 256 characters (the whole string, prefix included, keys
// x-service-signature); one that starts with whsec_ must also be a valid Standard Webhooks secret, whose
// decoded bytes key the webhook-signature header.
import {
  EVENT_TYPES,
  LOW_BALANCE_THRESHOLD_CENTS,
  RETRY_POLICIES as POLICIES,
  WEBHOOK_SECRET_MAX_LENGTH as SECRET_MAX,
  WEBHOOK_SECRET_MIN_LENGTH as SECRET_MIN,
  WHSEC_GENERATED_BYTES,
  WHSEC_MAX_BYTES,
  WHSEC_MIN_BYTES,
  whsecProblem,
  type EventType,
  type RetryPolicy,
} from '@concord/contract';
import { mapFieldErrors } from '../api/fieldErrors';
import { plainPhrase } from '../api/issueWords';
import { formatCents } from '../ui/format';
import { isHttpUrl } from '../ui/url';

const EVENT_WORDS: Record<EventType, string> = {
  'task.completed': 'A task reached consensus and was charged.',
  'task.failed': 'A task ended without consensus, or its deadline passed (nothing charged).',
  'task.rejected': 'You rejected a task’s result: it is decided again, its charge refunded.',
  'budget.low': `Your balance fell below ${formatCents(LOW_BALANCE_THRESHOLD_CENTS)}.`,
  'budget.cap_reached': 'A spending cap (a project budget or the monthly cap) refused new tasks.',
};
export const EVENTS: readonly { value: EventType; description: string }[] = EVENT_TYPES.map((value) => ({ value, description: EVENT_WORDS[value] }));

const POLICY_WORDS: Record<RetryPolicy, { label: string; description: string }> = {
  spec: {
    label: 'One retry (spec)',
    description: 'A timeout, a network error or a 5xx is retried once, 30 s later; a 4xx is not. The default.',
  },
  extended: {
    label: 'Extended (8 attempts)',
    description: 'Up to 8 attempts over about a day (408 and 429 retried too). After 3 days of failures the webhook is disabled and you get an e-mail.',
  },
};
/** The retry policies, the default first, each in one line (README, Retry policies). */
export const RETRY_POLICIES: readonly { value: RetryPolicy; label: string; description: string }[] = POLICIES.map((value) => ({
  value,
  ...POLICY_WORDS[value],
}));

/**
 * Why a `whsec_` secret would be refused, in a sentence, or null when it is a valid one or is not a
 * `whsec_` secret at all (those are checked only for their length).
 */
export function whsecSentence(secret: string): string | null {
  const problem = whsecProblem(secret);
  if (!problem) return null;
  if (problem.reason === 'encoding') {
    return 'A secret that starts with whsec_ must continue with standard base64 (A–Z, a–z, 0–9, + and /, with its = padding). Generate one here, or remove the whsec_ prefix to use your own text.';
  }
  return `A whsec_ secret decodes to ${WHSEC_MIN_BYTES} to ${WHSEC_MAX_BYTES} bytes; this one decodes to ${problem.bytes}. Generate one here (${WHSEC_GENERATED_BYTES} bytes).`;
}

export const retryPolicyLabel = (policy: RetryPolicy): string => RETRY_POLICIES.find((p) => p.value === policy)?.label ?? policy;

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
  return whsecSentence(secret) ?? undefined;
}

export const COPY_REQUIRED = 'Confirm that you have copied the secret: Concord will not show it again.';

export interface FormErrors {
  url?: string;
  events?: string;
  secret?: string;
  copied?: string;
  retryPolicy?: string;
}

/** The API's refusal of a webhook form, in words next to its fields; `general` when no field explains it. */
export function webhookFormErrors(error: unknown): { fields: FormErrors; general: unknown } {
  return mapFieldErrors(error, {
    fields: ['url', 'events', 'secret', 'retryPolicy'] as const,
    rules: {
      url: (message, apiError) => {
        if (/public addresses/.test(message)) {
          const address = /\(([^)]+)\)\s*$/.exec(apiError.message)?.[1];
          return `Concord refuses this URL: it points to a private, local or reserved address${address ? ` (${address})` : ''}. Use an address that is reachable from the public internet.`;
        }
        return /absolute http/.test(message) ? 'Enter an absolute URL that starts with https:// (or http://).' : `The URL ${plainPhrase(message)}.`;
      },
      events: () => 'Choose at least one of the three events.',
      secret: (message) => {
        // The service's own sentences: a whsec_ secret that is not padded base64 of 24–64 bytes, or a
        // rotation to the secret already in use.
        if (/whsec_/.test(message)) return `Concord refuses this secret: ${message}. Generate one here, or remove the whsec_ prefix to use your own text.`;
        if (/current secret/.test(message)) return 'This is the secret already in use: a rotation needs a new one. Generate one here.';
        return `The secret ${plainPhrase(message)} (${SECRET_MIN} to ${SECRET_MAX} characters).`;
      },
      retryPolicy: () => 'Choose one of the two retry policies.',
    },
  });
}
