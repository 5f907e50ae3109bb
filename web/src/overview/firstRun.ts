// What the overview leads with. A new account (no task yet) gets the getting-started steps, whose "Add
// credits" is then its one call to action; its $0.00 is where every account starts, not a balance that
// ran low, so the low-balance warning is kept for an account on which money has moved.

export interface OverviewFacts {
  /** Tasks on the account, once counted. */
  taskTotal: number | undefined;
  /** Whether the ledger has any entry (money ever moved), once known. */
  ledgerStarted: boolean | undefined;
  /** Whether the balance is under GET /meta's low-balance threshold. */
  lowBalance: boolean;
}

export interface OverviewLead {
  gettingStarted: boolean;
  /** The page header's Import and Add credits buttons (the steps have their own). */
  headerActions: boolean;
  lowBalanceWarning: boolean;
}

export function overviewLead({ taskTotal, ledgerStarted, lowBalance }: OverviewFacts): OverviewLead {
  const gettingStarted = taskTotal === 0;
  return {
    gettingStarted,
    headerActions: !gettingStarted,
    // Not while it is unknown whether money ever moved: a new account would see it flash.
    lowBalanceWarning: lowBalance && ledgerStarted === true,
  };
}
