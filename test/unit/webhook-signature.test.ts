import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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
