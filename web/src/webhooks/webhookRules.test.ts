// The webhook forms' secret rule and the service's refusals of a secret, in words next to the field.
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, webhookSecretProblem } from '@concord/contract';
import { ApiError } from '../api/errors';
import { rotationState } from './RotateSecret';
import { checkSecret, RETRY_POLICIES, webhookFormErrors, whsecSentence } from './webhookRules';

const refusal = (message: string, path: (string | number)[] | string = ['secret']) =>
  new ApiError(400, { error: 'Invalid request', code: 'VALIDATION_ERROR', details: { issues: [{ path, message }] } });

describe('checkSecret', () => {
  it('accepts a generated secret and a plain one of 16–256 characters', () => {
    expect(checkSecret(generateWebhookSecret())).toBeUndefined();
    expect(checkSecret('sixteen chars ok')).toBeUndefined();
  });

  it('refuses what the service refuses: too short, too long, a whsec_ secret that is not padded base64 of 24–64 bytes', () => {
    expect(checkSecret('short')).toMatch(/at least 16/);
    expect(checkSecret('x'.repeat(257))).toMatch(/at most 256/);
    for (const secret of [
      'whsec_not base64 at all!',
      `whsec_${Buffer.alloc(16).toString('base64')}`,
      `whsec_${Buffer.alloc(32).toString('base64').replace(/=$/, '')}`,
    ]) {
      expect(webhookSecretProblem(secret)).not.toBeNull();
      expect(checkSecret(secret)).toMatch(/whsec_/);
    }
  });
});

describe('whsecSentence', () => {
  it('says how many bytes a whsec_ secret of the wrong size decodes to, and what base64 it must be', () => {
    expect(whsecSentence(`whsec_${Buffer.alloc(16).toString('base64')}`)).toContain('decodes to 16');
    expect(whsecSentence(`whsec_${Buffer.alloc(65).toString('base64')}`)).toContain('decodes to 65');
    expect(whsecSentence('whsec_not base64')).toMatch(/standard base64/);
    expect(whsecSentence('a plain secret of mine')).toBeNull();
  });
});

describe('webhookFormErrors', () => {
  it('shows the service’s refusal of a whsec_ secret next to the secret, in its words', () => {
    const problem = webhookSecretProblem(`whsec_${Buffer.alloc(16).toString('base64')}`) ?? '';
    const { fields, general } = webhookFormErrors(refusal(problem));
    expect(general).toBeNull();
    expect(fields.secret).toContain('Concord refuses this secret');
    expect(fields.secret).toContain('this one: 16');
  });

  it('says that a rotation to the secret in use needs a new one (the service names the field as a string)', () => {
    const { fields } = webhookFormErrors(refusal('must differ from the current secret', 'secret'));
    expect(fields.secret).toMatch(/already in use/);
  });

  it('words the length rule with its bounds', () => {
    expect(webhookFormErrors(refusal('must be at least 16 characters')).fields.secret).toBe(
      'The secret must be at least 16 characters (16 to 256 characters).',
    );
  });
});

describe('RETRY_POLICIES', () => {
  it('offers the default (spec) first', () => {
    expect(RETRY_POLICIES[0]?.value).toBe('spec');
  });
});

describe('rotationState', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('is an overlap until rotationEndsAt, then ended; none without a rotation', () => {
    expect(rotationState(null, now)).toBe('none');
    expect(rotationState('2026-11-26T11:00:00.000Z', now)).toBe('overlap');
    expect(rotationState('2026-11-25T12:00:00.000Z', now)).toBe('ended');
    expect(rotationState('2026-11-24T12:00:00.000Z', now)).toBe('ended');
  });
});
