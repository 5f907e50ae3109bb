import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/lib/url-guard.ts';
import { signWebhookBody, verifyWebhookSignature } from '../../src/modules/webhooks/signature.ts';

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

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'not-an-ip'])(
    'refuses %s',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111'])('allows %s', (address) => expect(isPrivateAddress(address)).toBe(false));
});
