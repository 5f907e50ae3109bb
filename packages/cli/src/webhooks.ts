// concord webhooks test CONFIG_ID and concord webhooks rotate-secret CONFIG_ID: a test send (a signed
// `ping` to the configuration's URL now, and how it answered) and a secret rotation without downtime (a
// new whsec_ secret, generated here unless --secret, printed this once: the service never shows it again).
import { webhookSecretProblem } from '@concord/sdk';
import { buyerClient } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { EXIT, usageError } from './errors.ts';
import type { Output } from './output.ts';

export interface RotateSecretOptions extends GlobalOptions {
  secret?: string;
}

/** POST /webhooks/configs/:id/test. Exit 0 when the URL answered 2xx in time, 1 otherwise (the result is printed either way). */
export async function testWebhook(configId: string, options: GlobalOptions, output: Output, userAgent: string): Promise<void> {
  const connection = await resolveConnection(options);
  const client = buyerClient(connection, userAgent);
  // Read first: an unknown id is WEBHOOK_NOT_FOUND before anything is sent, and the line names the URL.
  const config = await client.webhooks.get(configId);
  const result = await client.webhooks.test(configId);
  const outcome = result.delivered
    ? `delivered: ${result.statusCode} in ${result.latencyMs} ms`
    : `not delivered: ${result.error ?? (result.statusCode === null ? 'no response' : `HTTP ${result.statusCode}`)} (${result.latencyMs} ms)`;
  const excerpt = result.responseExcerpt ? `\nResponse: ${result.responseExcerpt.replace(/\s+/g, ' ').slice(0, 200)}` : '';
  output.result(
    { webhook: { id: config.id, url: config.url, isActive: config.isActive }, ...result },
    `Ping ${result.eventId} to ${config.url}: ${outcome}${excerpt}`,
  );
  if (!result.delivered) process.exitCode = EXIT.API_ERROR;
}

/** POST /webhooks/configs/:id/rotate-secret with a new secret (generated unless --secret), printed once. */
export async function rotateWebhookSecret(configId: string, options: RotateSecretOptions, output: Output, userAgent: string): Promise<void> {
  if (options.secret !== undefined) {
    const problem = webhookSecretProblem(options.secret);
    if (problem) throw usageError(`--secret: ${problem}`, 'INVALID_SECRET');
  }
  const connection = await resolveConnection(options);
  const client = buyerClient(connection, userAgent);
  // Without --secret, the SDK generates a whsec_ one (generateWebhookSecret) and returns it.
  const rotated = await client.webhooks.rotateSecret(configId, options.secret);
  const { secret, ...webhook } = rotated;
  const overlap = rotated.rotationEndsAt
    ? `Until ${rotated.rotationEndsAt}, deliveries also carry a Standard Webhooks signature under the old secret (when it was a whsec_ one); x-service-signature uses the new one from now on.`
    : 'x-service-signature uses the new one from now on.';
  output.result(
    { webhook, secret },
    `Rotated the secret of ${webhook.id} (${webhook.url}).\nNew secret: ${secret}\nShown this once: give it to your receiver now. ${overlap}`,
  );
}
