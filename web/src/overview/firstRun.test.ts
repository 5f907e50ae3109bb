// A new account's first overview: one clear start instead of a low-balance alarm for $0.00.
import { describe, expect, it } from 'vitest';
import { overviewLead } from './firstRun';

describe('overviewLead', () => {
  it('greets a new account with the steps alone: no low-balance warning, no second Add credits', () => {
    expect(overviewLead({ taskTotal: 0, ledgerStarted: false, lowBalance: true })).toEqual({
      gettingStarted: true,
      headerActions: false,
      lowBalanceWarning: false,
    });
  });

  it('warns an account that had credit and ran low', () => {
    expect(overviewLead({ taskTotal: 12, ledgerStarted: true, lowBalance: true })).toEqual({
      gettingStarted: false,
      headerActions: true,
      lowBalanceWarning: true,
    });
    // Topped up, then spent down before its first task (an adjustment by Concord): still a warning.
    expect(overviewLead({ taskTotal: 0, ledgerStarted: true, lowBalance: true }).lowBalanceWarning).toBe(true);
  });

  it('says nothing alarming while it does not know yet', () => {
    expect(overviewLead({ taskTotal: undefined, ledgerStarted: undefined, lowBalance: true })).toEqual({
      gettingStarted: false,
      headerActions: true,
      lowBalanceWarning: false,
    });
    expect(overviewLead({ taskTotal: 5, ledgerStarted: true, lowBalance: false }).lowBalanceWarning).toBe(false);
  });
});
