// The billing page's deposits, each in a sentence.
import { describe, expect, it } from 'vitest';
import { depositSentence } from './depositWords';

const deposit = {
  amountCents: 60_000,
  bonusCents: 3_000,
  method: 'card' as const,
  createdAt: '2026-11-25T12:40:00.000Z',
  decidedAt: '2026-11-25T12:44:00.000Z',
};

describe('depositSentence', () => {
  it('says what was paid, how and when, with its bonus', () => {
    expect(depositSentence({ ...deposit, status: 'SUCCEEDED' })).toBe('Paid $600.00 by card on 25 Nov 2026 at 12:44 UTC, plus a $30.00 bonus');
    expect(depositSentence({ ...deposit, status: 'SUCCEEDED', amountCents: 2_000, bonusCents: 0, method: 'mobile_money' })).toBe(
      'Paid $20.00 by mobile money on 25 Nov 2026 at 12:44 UTC',
    );
  });

  it('says a deposit still waiting, cancelled or refused was not charged', () => {
    expect(depositSentence({ ...deposit, status: 'PENDING', decidedAt: null })).toBe('$600.00 by card, started on 25 Nov 2026 at 12:40 UTC: not paid yet');
    expect(depositSentence({ ...deposit, status: 'CANCELLED' })).toBe(
      '$600.00 by card, cancelled at the checkout on 25 Nov 2026 at 12:44 UTC: nothing was charged',
    );
    expect(depositSentence({ ...deposit, status: 'FAILED' })).toBe(
      '$600.00 by card, refused by the payment provider on 25 Nov 2026 at 12:44 UTC: nothing was charged',
    );
  });
});
