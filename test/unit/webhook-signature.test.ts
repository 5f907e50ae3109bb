import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  SIGNATURE_HEADER,
  signedWebhookHeaders,
  signStandardWebhook,
  signWebhookBody,
  standardSecretKey,
  standardSecretProblem,
  verifyWebhookSignature,
} from '../../src/modules/webhooks/signature.ts';

describe('webhook signatures', () => {
  const body = '{"event":"task.completed","taskId":"c1"}';
  const secret = 'a-secret-of-sixteen+';

  it('is sha256= and the lowercase hex HMAC-SHA256 of the exact bytes', () => {
    expect(signWebhookBody(body, secret)).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    expect(signWebhookBody(body, secret)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('verifies the right signature and refuses any change of body, secret or header', () => {
    const header = signWebhookBody(body, secret);
    expect(verifyWebhookSignature(body, header, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, secret)).toBe(true);
    expect(verifyWebhookSignature(`${body} `, header, secret)).toBe(false);
    expect(verifyWebhookSignature(body, header, `${secret}x`)).toBe(false);
    expect(verifyWebhookSignature(body, header.toUpperCase(), secret)).toBe(false);
    expect(verifyWebhookSignature(body, header.slice(0, -1), secret)).toBe(false);
    expect(verifyWebhookSignature(body, undefined, secret)).toBe(false);
  });
});

describe('Standard Webhooks signatures (checked by the standardwebhooks package itself)', () => {
  const body = '{"event":"task.completed","taskId":"c1","result":"oui, très"}';
  const whsec = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;
  const input = (secret: string, previousSecret: string | null = null) => ({
    eventId: 'evt_cm3q7w4c50008lk08u7v8w9x0',
    event: 'task.completed',
    deliveryId: 'cm3q7w1xb0009lk08q4r5s6t7',
    body,
    secret,
    previousSecret,
    now: new Date(),
  });

  it('a whsec_ secret signs webhook-id, webhook-timestamp and a v1 signature the package verifies and makes identically', () => {
    const secret = whsec(32);
    const signed = input(secret);
    const headers = signedWebhookHeaders(signed);
    expect(headers['webhook-id']).toBe('evt_cm3q7w4c50008lk08u7v8w9x0');
    // The input's own instant: reading the clock again could cross a second boundary on a loaded machine.
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(signed.now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_cm3q7w4c50008lk08u7v8w9x0', at, body));
    // The spec's header is unchanged: the secret as given, prefix included.
    expect(verifyWebhookSignature(body, headers[SIGNATURE_HEADER], secret)).toBe(true);
  });

  it('during a rotation carries one v1 entry per whsec_ secret, the current one first; each secret alone verifies', () => {
    const [current, previous] = [whsec(32), whsec(24)];
    const headers = signedWebhookHeaders(input(current, previous));
    const entries = headers['webhook-signature']?.split(' ') ?? [];
    expect(entries).toHaveLength(2);
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    expect(entries[0]).toBe(new Webhook(current).sign(headers['webhook-id'] as string, at, body));
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(whsec(32)).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(verifyWebhookSignature(body, headers[SIGNATURE_HEADER], current)).toBe(true);
  });

  it('any other secret gets the spec header only; a non-whsec_ secret on either side adds no entry', () => {
    const plain = signedWebhookHeaders(input('a-plain-secret-0123456789'));
    expect(Object.keys(plain).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    expect(plain).toMatchObject({ 'content-type': 'application/json', 'x-service-event': 'task.completed', 'x-service-delivery': 'cm3q7w1xb0009lk08q4r5s6t7' });
    const current = whsec(32);
    expect(signedWebhookHeaders(input(current, 'a-plain-secret-0123456789'))['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(signedWebhookHeaders(input('a-plain-secret-0123456789', current))['webhook-signature']?.split(' ')).toHaveLength(1);
  });

  it('entries are HMAC-SHA256 of "id.timestamp.body" under the decoded key, base64', () => {
    const key = randomBytes(32);
    const expected = createHmac('sha256', key).update(`evt_x.1700000000.${body}`).digest('base64');
    expect(signStandardWebhook('evt_x', 1_700_000_000, body, key)).toBe(`v1,${expected}`);
    expect(signStandardWebhook('evt_x', 1_700_000_000, Buffer.from(body), key)).toBe(`v1,${expected}`);
  });

  it.each([
    ['24 bytes', whsec(24), null],
    ['64 bytes', whsec(64), null],
    ['not a whsec_ secret', 'whsec-test-0123456789', null],
    ['23 bytes', whsec(23), /decodes to 24–64 bytes \(this one: 23\)/],
    ['65 bytes', whsec(65), /this one: 65/],
    ['nothing after the prefix', 'whsec_', /this one: 0/],
    ['characters outside base64', 'whsec_not base64 at all!!', /standard base64/],
    ['url-safe base64', `whsec_${'ab-_'.repeat(8)}`, /standard base64/],
    ['missing padding', `whsec_${randomBytes(32).toString('base64').replace(/=+$/, '')}`, /standard base64/],
  ])('a secret with %s: %s', (_label, secret, problem) => {
    if (problem === null) {
      expect(standardSecretProblem(secret)).toBeNull();
    } else {
      expect(standardSecretProblem(secret)).toMatch(problem);
      expect(standardSecretKey(secret)).toBeNull();
    }
  });
});
