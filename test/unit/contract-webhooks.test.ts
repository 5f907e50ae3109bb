// The contract's webhook signatures (Web Crypto, and the server's Node HMAC) against Node's own HMAC and the
// standardwebhooks package.
import { createHmac, randomBytes } from 'node:crypto';
import {
  describeWhsecProblem,
  generateWebhookSecret,
  isStandardSecret,
  SIGNATURE_HEADER,
  signedWebhookHeaders,
  signStandardEntry,
  signWebhookBody,
  standardSecretKey,
  verifyWebhookSignature,
  webhookSecretProblem,
  WHSEC_GENERATED_BYTES,
  whsecProblem,
} from '@concord/contract';
import fc from 'fast-check';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { nodeHmacSha256 } from '../../src/modules/webhooks/webhook-sender.ts';

const standardSecretProblem = (secret: string) => {
  const problem = whsecProblem(secret);
  return problem ? describeWhsecProblem(problem) : null;
};

describe('webhook signatures', () => {
  const body = '{"event":"task.completed","taskId":"c1"}';
  const secret = 'a-secret-of-sixteen+';

  it('is sha256= and the lowercase hex HMAC-SHA256 of the exact bytes', async () => {
    expect(await signWebhookBody(body, secret)).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    expect(await signWebhookBody(body, secret)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('verifies the right signature and refuses any change of body, secret or header', async () => {
    const header = await signWebhookBody(body, secret);
    expect(await verifyWebhookSignature(body, header, secret)).toBe(true);
    expect(await verifyWebhookSignature(Buffer.from(body), header, secret)).toBe(true);
    expect(await verifyWebhookSignature(`${body} `, header, secret)).toBe(false);
    expect(await verifyWebhookSignature(body, header, `${secret}x`)).toBe(false);
    // The hex digits' case is not part of the signature.
    expect(await verifyWebhookSignature(body, header.toUpperCase(), secret)).toBe(true);
    expect(await verifyWebhookSignature(body, `${header.slice(0, -1)}${header.endsWith('0') ? '1' : '0'}`, secret)).toBe(false);
    expect(await verifyWebhookSignature(body, header.slice(0, -1), secret)).toBe(false);
    expect(await verifyWebhookSignature(body, undefined, secret)).toBe(false);
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

  it('a whsec_ secret signs webhook-id, webhook-timestamp and a v1 signature the package verifies and makes identically', async () => {
    const secret = whsec(32);
    const signed = input(secret);
    const headers = await signedWebhookHeaders(signed);
    expect(headers['webhook-id']).toBe('evt_cm3q7w4c50008lk08u7v8w9x0');
    // The input's own instant: reading the clock again could cross a second boundary on a loaded machine.
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(signed.now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_cm3q7w4c50008lk08u7v8w9x0', at, body));
    // The spec's header is unchanged: the secret as given, prefix included.
    expect(await verifyWebhookSignature(body, headers[SIGNATURE_HEADER], secret)).toBe(true);
  });

  it('during a rotation carries one v1 entry per whsec_ secret, the current one first; each secret alone verifies', async () => {
    const [current, previous] = [whsec(32), whsec(24)];
    const headers = await signedWebhookHeaders(input(current, previous));
    const entries = headers['webhook-signature']?.split(' ') ?? [];
    expect(entries).toHaveLength(2);
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    expect(entries[0]).toBe(new Webhook(current).sign(headers['webhook-id'] as string, at, body));
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(whsec(32)).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(await verifyWebhookSignature(body, headers[SIGNATURE_HEADER], current)).toBe(true);
  });

  it('any other secret gets the spec header only; a non-whsec_ secret on either side adds no entry', async () => {
    const plain = await signedWebhookHeaders(input('a-plain-secret-0123456789'));
    expect(Object.keys(plain).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    expect(plain).toMatchObject({ 'content-type': 'application/json', 'x-service-event': 'task.completed', 'x-service-delivery': 'cm3q7w1xb0009lk08q4r5s6t7' });
    const current = whsec(32);
    expect((await signedWebhookHeaders(input(current, 'a-plain-secret-0123456789')))['webhook-signature']?.split(' ')).toHaveLength(1);
    expect((await signedWebhookHeaders(input('a-plain-secret-0123456789', current)))['webhook-signature']?.split(' ')).toHaveLength(1);
  });

  it("the server's Node HMAC signs exactly as Web Crypto does: the same headers, byte for byte", async () => {
    for (const [secret, previous] of [
      [whsec(32), whsec(24)],
      ['a-plain-secret-0123456789', null],
      [whsec(64), 'a-plain-secret-0123456789'],
    ] as const) {
      const signed = input(secret, previous);
      const headers = await signedWebhookHeaders(signed, nodeHmacSha256);
      expect(headers).toEqual(await signedWebhookHeaders(signed));
      expect(await verifyWebhookSignature(body, headers[SIGNATURE_HEADER], secret)).toBe(true);
      if (isStandardSecret(secret)) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
  });

  it('entries are HMAC-SHA256 of "id.timestamp.body" under the decoded key, base64', async () => {
    const key = randomBytes(32);
    const expected = createHmac('sha256', key).update(`evt_x.1700000000.${body}`).digest('base64');
    expect(await signStandardEntry('evt_x', 1_700_000_000, body, new Uint8Array(key))).toBe(`v1,${expected}`);
    expect(await signStandardEntry('evt_x', 1_700_000_000, Buffer.from(body), new Uint8Array(key))).toBe(`v1,${expected}`);
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

describe('generateWebhookSecret', () => {
  const decode = (secret: string) => Buffer.from(secret.slice('whsec_'.length), 'base64');

  it('is whsec_ and standard padded base64 of 32 bytes, a new one each time', () => {
    const secrets = new Set(Array.from({ length: 300 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(300);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(decode(secret)).toHaveLength(WHSEC_GENERATED_BYTES);
      expect(isStandardSecret(secret)).toBe(true);
    }
  });

  it('encodes exactly the bytes of its random source (every byte value, + and / included)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const secret = generateWebhookSecret((target) => {
          target.set(bytes);
          return target;
        });
        expect(secret.slice('whsec_'.length)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });
});

describe('whsecProblem', () => {
  const base64ish = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ '.split('')), maxLength: 100 });

  it('accepts exactly standard padded base64 of 24–64 bytes (Node’s own decoder as the judge)', () => {
    fc.assert(
      fc.property(base64ish, (encoded) => {
        const canonical = Buffer.from(encoded, 'base64').toString('base64') === encoded;
        const bytes = Buffer.from(encoded, 'base64').length;
        expect(whsecProblem(`whsec_${encoded}`) === null).toBe(canonical && bytes >= 24 && bytes <= 64);
      }),
      { numRuns: 5_000 },
    );
    for (let size = 0; size <= 80; size += 1) {
      expect(whsecProblem(`whsec_${Buffer.alloc(size, 0xfb).toString('base64')}`) === null).toBe(size >= 24 && size <= 64);
    }
  });

  it('leaves other secrets to the length rule, which webhookSecretProblem adds', () => {
    expect(whsecProblem('a plain shared secret of mine')).toBeNull();
    expect(isStandardSecret('a plain shared secret of mine')).toBe(false);
    expect(webhookSecretProblem('a plain shared secret of mine')).toBeNull();
    expect(webhookSecretProblem('short')).toMatch(/16 to 256 characters/);
    expect(webhookSecretProblem(`whsec_${Buffer.alloc(16).toString('base64')}`)).toMatch(/this one: 16/);
  });
});
