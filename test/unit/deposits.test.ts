import { describe, expect, it } from 'vitest';
import { depositBonusCents } from '@concord/contract';
import { InvalidSignatureError } from '../../src/modules/deposits/payment-provider.ts';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../../src/modules/deposits/sandbox.provider.ts';

describe('depositBonusCents', () => {
  it.each([
    [500, 0],
    [49_999, 0],
    [50_000, 2_500],
    [50_019, 2_500],
    [199_999, 9_999],
    [200_000, 20_000],
    [200_009, 20_000],
  ])('%i cents → %i cents of bonus (5 % from 50 000, 10 % from 200 000, rounded down)', (amount, bonus) => {
    expect(depositBonusCents(amount)).toBe(bonus);
  });
});

describe('SandboxProvider signatures', () => {
  const now = 1_800_000_000;
  const provider = new SandboxProvider('secret', 'https://concord.example', () => now);

  it('verifies what it signed and reads the decision', () => {
    const { body, signature } = provider.sign({ type: 'deposit.succeeded', depositId: 'cdep1' });
    expect(provider.parseConfirmation(body, { [SANDBOX_SIGNATURE_HEADER]: signature })).toEqual({
      kind: 'decision',
      depositId: 'cdep1',
      status: 'SUCCEEDED',
      providerRef: null,
    });
  });

  it('refuses a changed body, another key and a timestamp more than five minutes away', () => {
    const { body, signature } = provider.sign({ type: 'deposit.cancelled', depositId: 'cdep1' });
    const check = (p: SandboxProvider, b: Buffer, s: string) => () => p.parseConfirmation(b, { [SANDBOX_SIGNATURE_HEADER]: s });
    expect(check(provider, Buffer.from(body.toString().replace('cancelled', 'succeeded')), signature)).toThrow(InvalidSignatureError);
    expect(check(new SandboxProvider('other', 'https://x', () => now), body, signature)).toThrow(InvalidSignatureError);
    expect(check(new SandboxProvider('secret', 'https://x', () => now + 301), body, signature)).toThrow(/tolerance/);
    expect(check(new SandboxProvider('secret', 'https://x', () => now + 300), body, signature)()).toMatchObject({ status: 'CANCELLED' });
  });
});
