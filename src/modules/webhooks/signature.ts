// Webhook signatures (spec: Events): `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes,
// keyed with the configuration's secret. Receivers verify over the unparsed body in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';

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
