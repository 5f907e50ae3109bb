// The dashboard's Standard Webhooks secrets: their form, their size, and the service's own rule
// (standardSecretProblem, imported from the server's signature module: it runs here under Node) giving
// the same verdict as the browser's copy of it, on generated secrets and on arbitrary whsec_ text.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signedWebhookHeaders, standardSecretProblem } from '../../../src/modules/webhooks/signature.ts';
import { generateWhsecSecret, isStandardSecret, WHSEC_GENERATED_BYTES, whsecProblem } from './whsec';

const decode = (secret: string) => Buffer.from(secret.slice('whsec_'.length), 'base64');

describe('generateWhsecSecret', () => {
  it('is whsec_ and standard padded base64 of 32 bytes (44 characters, one = of padding)', () => {
    for (let i = 0; i < 200; i += 1) {
      const secret = generateWhsecSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secret).toHaveLength('whsec_'.length + 44);
      expect(decode(secret)).toHaveLength(WHSEC_GENERATED_BYTES);
    }
  });

  it('encodes exactly the bytes crypto.getRandomValues gave (every byte value, + and / included)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const secret = generateWhsecSecret((target) => {
          target.set(bytes);
          return target;
        });
        expect(decode(secret).equals(Buffer.from(bytes))).toBe(true);
        expect(secret.slice('whsec_'.length)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });

  it('is a new secret each time', () => {
    const secrets = new Set(Array.from({ length: 500 }, () => generateWhsecSecret()));
    expect(secrets.size).toBe(500);
  });

  it('is accepted by the service’s rule and keys its Standard Webhooks signature, which the standardwebhooks package verifies', () => {
    for (let i = 0; i < 50; i += 1) {
      const secret = generateWhsecSecret();
      expect(standardSecretProblem(secret)).toBeNull();
      expect(whsecProblem(secret)).toBeNull();
      expect(isStandardSecret(secret)).toBe(true);
      const body = JSON.stringify({ event: 'ping', webhookId: 'cfg_1', sentAt: new Date().toISOString() });
      const headers = signedWebhookHeaders({ eventId: 'evt_1', event: 'ping', deliveryId: 'd1', body, secret, previousSecret: null, now: new Date() });
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      // The spec's header keys with the whole text, prefix included.
      expect(headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    }
  });
});

describe('whsecProblem: the service’s rule for whsec_ secrets', () => {
  const base64ish = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ '.split('')), maxLength: 100 });

  it('accepts and refuses exactly what standardSecretProblem does, on any whsec_ text', () => {
    fc.assert(
      fc.property(base64ish, (encoded) => {
        const secret = `whsec_${encoded}`;
        expect(whsecProblem(secret) === null).toBe(standardSecretProblem(secret) === null);
      }),
      { numRuns: 5_000 },
    );
  });

  it('agrees on every decoded size around the bounds, with each padding', () => {
    for (let size = 0; size <= 80; size += 1) {
      const secret = `whsec_${Buffer.alloc(size, 0xfb).toString('base64')}`;
      const accepted = size >= 24 && size <= 64;
      expect(whsecProblem(secret) === null).toBe(accepted);
      expect(standardSecretProblem(secret) === null).toBe(accepted);
    }
  });

  it('refuses base64 without its padding, URL-safe base64, and spaces, as the service does', () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i));
    for (const encoded of [
      bytes.toString('base64').replace(/=+$/, ''),
      bytes.toString('base64url'),
      ` ${bytes.toString('base64')}`,
      `${bytes.toString('base64')}==`,
    ]) {
      const secret = `whsec_${encoded}`;
      expect(whsecProblem(secret)).toMatch(/whsec_/);
      expect(standardSecretProblem(secret)).not.toBeNull();
    }
  });

  it('says how many bytes a whsec_ secret of the wrong size decodes to', () => {
    expect(whsecProblem(`whsec_${Buffer.alloc(16).toString('base64')}`)).toContain('decodes to 16');
    expect(whsecProblem(`whsec_${Buffer.alloc(65).toString('base64')}`)).toContain('decodes to 65');
  });

  it('leaves other secrets to the length rule', () => {
    expect(whsecProblem('a plain shared secret of mine')).toBeNull();
    expect(isStandardSecret('a plain shared secret of mine')).toBe(false);
    expect(standardSecretProblem('a plain shared secret of mine')).toBeNull();
  });
});
