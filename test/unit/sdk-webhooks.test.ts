// The SDK's webhook verification against the reference implementations: the service's own signer for
// the spec's x-service-signature, and the `standardwebhooks` package for Standard Webhooks (signatures
// made by it verify with the SDK, and the SDK's verify with it), with replays outside the 5-minute
// tolerance refused.
import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConcordError,
  ConcordWebhookVerificationError,
  signStandardWebhook,
  signWebhookBody,
  verifyWebhook,
  verifyWebhookSignature,
} from '../../sdk/src/index.ts';
import { signWebhookBody as serverSign } from '@concord/contract';

const payload = {
  event: 'task.completed',
  taskId: 'c1',
  type: 'BINARY_CHOICE',
  result: 'yes',
  confidence: 0.97,
  totalResponses: 4,
  costCents: 20,
  validatedAt: '2026-01-01T00:00:00.000Z',
};
const body = JSON.stringify(payload);
const specSecret = 'a-config-secret-of-some-length';
const whsec = `whsec_${randomBytes(32).toString('base64')}`;

async function refused(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConcordWebhookVerificationError);
  expect(error).toBeInstanceOf(ConcordError);
  expect((error as ConcordWebhookVerificationError).code).toBe(code);
}

describe("the spec's x-service-signature", () => {
  it('verifies what the service signs (string or bytes, Node headers or Headers) and returns the payload', async () => {
    const signature = await serverSign(body, specSecret);
    expect(await signWebhookBody(body, specSecret)).toBe(signature);
    await expect(verifyWebhook(body, { 'x-service-signature': signature }, specSecret)).resolves.toEqual(payload);
    await expect(verifyWebhook(Buffer.from(body), new Headers({ 'X-Service-Signature': signature }), specSecret)).resolves.toEqual(payload);
    await expect(verifyWebhookSignature(body, signature, specSecret)).resolves.toBe(true);
  });

  it('refuses another body, another secret, a malformed or missing header', async () => {
    const signature = await serverSign(body, specSecret);
    await refused(verifyWebhook(`${body} `, { 'x-service-signature': signature }, specSecret), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, { 'x-service-signature': signature }, `${specSecret}x`), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, { 'x-service-signature': signature.slice(0, -1) }, specSecret), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, { 'x-service-signature': `md5=${signature.slice(7)}` }, specSecret), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, {}, specSecret), 'WEBHOOK_SIGNATURE_MISSING');
    await expect(verifyWebhookSignature(body, undefined, specSecret)).resolves.toBe(false);
    await expect(verifyWebhookSignature(body, signature, 'another-secret-0123')).resolves.toBe(false);
  });

  it('a signed body that is not JSON is refused after the signature checks out', async () => {
    await refused(verifyWebhook('not json', { 'x-service-signature': await serverSign('not json', specSecret) }, specSecret), 'WEBHOOK_BODY_INVALID');
  });
});

describe('Standard Webhooks, against the standardwebhooks package', () => {
  const reference = new Webhook(whsec);

  it('verifies what the package signs, and the package verifies what the SDK signs', async () => {
    const now = new Date();
    const signature = reference.sign('evt_1', now, body);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
    await expect(verifyWebhook(body, headers, whsec)).resolves.toEqual(payload);
    await expect(verifyWebhook(Buffer.from(body), new Headers(headers), whsec, { scheme: 'standard' })).resolves.toEqual(payload);

    const ours = await signStandardWebhook('evt_2', now, body, whsec);
    expect(ours['webhook-signature']).toBe(reference.sign('evt_2', now, body));
    expect(reference.verify(body, ours)).toEqual(payload);
  });

  it('accepts any matching v1 entry among several (a secret rotation) and ignores other versions', async () => {
    const now = new Date();
    const other = new Webhook(`whsec_${randomBytes(32).toString('base64')}`);
    const seconds = String(Math.floor(now.getTime() / 1000));
    const signatures = `v2,abc ${other.sign('evt_3', now, body)} ${reference.sign('evt_3', now, body)}`;
    await expect(verifyWebhook(body, { 'webhook-id': 'evt_3', 'webhook-timestamp': seconds, 'webhook-signature': signatures }, whsec)).resolves.toEqual(
      payload,
    );
    await refused(
      verifyWebhook(body, { 'webhook-id': 'evt_3', 'webhook-timestamp': seconds, 'webhook-signature': other.sign('evt_3', now, body) }, whsec),
      'WEBHOOK_SIGNATURE_INVALID',
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a replay outside the 5-minute tolerance, either way, as the package does; accepts it within', async () => {
    // The package reads the clock itself: it is held at `now`, the instant the SDK is given, or a second
    // passing on a loaded machine moved `now + 301 s` inside the package's tolerance.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const at = (offsetSeconds: number) => {
      const date = new Date(now + offsetSeconds * 1000);
      return {
        'webhook-id': 'evt_4',
        'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
        'webhook-signature': reference.sign('evt_4', date, body),
      };
    };
    await refused(verifyWebhook(body, at(-301), whsec, { now }), 'WEBHOOK_TIMESTAMP_TOO_OLD');
    expect(() => reference.verify(body, at(-301))).toThrow(WebhookVerificationError);
    await refused(verifyWebhook(body, at(301), whsec, { now }), 'WEBHOOK_TIMESTAMP_TOO_NEW');
    expect(() => reference.verify(body, at(301))).toThrow(WebhookVerificationError);
    await expect(verifyWebhook(body, at(-299), whsec, { now })).resolves.toEqual(payload);
    await expect(verifyWebhook(body, at(299), whsec, { now })).resolves.toEqual(payload);
    // The captured request replayed an hour later, and a tolerance of one's own.
    await refused(verifyWebhook(body, at(0), whsec, { now: now + 3_600_000 }), 'WEBHOOK_TIMESTAMP_TOO_OLD');
    await refused(verifyWebhook(body, at(-61), whsec, { now, toleranceSeconds: 60 }), 'WEBHOOK_TIMESTAMP_TOO_OLD');
  });

  it('refuses a changed body, id or timestamp, a wrong secret, missing headers and a bad timestamp', async () => {
    const now = new Date();
    const seconds = String(Math.floor(now.getTime() / 1000));
    const headers = { 'webhook-id': 'evt_5', 'webhook-timestamp': seconds, 'webhook-signature': reference.sign('evt_5', now, body) };
    await refused(verifyWebhook(`${body} `, headers, whsec), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, { ...headers, 'webhook-id': 'evt_6' }, whsec), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, { ...headers, 'webhook-timestamp': String(Number(seconds) - 1) }, whsec), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, headers, `whsec_${randomBytes(32).toString('base64')}`), 'WEBHOOK_SIGNATURE_INVALID');
    await refused(verifyWebhook(body, { 'webhook-id': 'evt_5', 'webhook-signature': headers['webhook-signature'] }, whsec), 'WEBHOOK_SIGNATURE_MISSING');
    await refused(verifyWebhook(body, { ...headers, 'webhook-timestamp': '12abc' }, whsec), 'WEBHOOK_TIMESTAMP_INVALID');
    await refused(verifyWebhook(body, headers, 'whsec_not base64!'), 'WEBHOOK_SECRET_INVALID');
  });

  it('auto uses Standard Webhooks for a whsec_ secret (a request stripped of its headers is refused, not replayable), the spec header for any other secret', async () => {
    const now = new Date();
    const standard = {
      'webhook-id': 'evt_7',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': reference.sign('evt_7', now, body),
    };
    // A whsec_ secret on a delivery with both: Standard Webhooks decides (a stale spec header does not matter).
    await expect(verifyWebhook(body, { ...standard, 'x-service-signature': await serverSign(body, 'stale-secret-0123456') }, whsec)).resolves.toEqual(payload);
    // The same delivery with the Standard Webhooks headers stripped (a replay of a captured request): the
    // service always sends them for a whsec_ secret, so their absence is refused rather than checked by the
    // spec header, which has no timestamp; the spec scheme can still be asked for explicitly.
    await refused(verifyWebhook(body, { 'x-service-signature': await serverSign(body, whsec) }, whsec), 'WEBHOOK_SIGNATURE_MISSING');
    await refused(verifyWebhook(body, { 'x-service-signature': await serverSign(body, whsec) }, whsec, { scheme: 'standard' }), 'WEBHOOK_SIGNATURE_MISSING');
    await expect(verifyWebhook(body, { 'x-service-signature': await serverSign(body, whsec) }, whsec, { scheme: 'service' })).resolves.toEqual(payload);
    // A plain secret: the spec header, whatever else is there.
    await expect(verifyWebhook(body, { ...standard, 'x-service-signature': await serverSign(body, specSecret) }, specSecret)).resolves.toEqual(payload);
    await refused(verifyWebhook(body, standard, whsec, { scheme: 'service' }), 'WEBHOOK_SIGNATURE_MISSING');
  });
});
