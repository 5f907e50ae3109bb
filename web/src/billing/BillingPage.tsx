// Billing: the balance, a top-up that sends the buyer to the payment provider's checkout, the spending caps
// (SpendingCaps.tsx), the deposits (a pending one can be continued) and the ledger of every money
// movement, both cursor-paginated.
import { useEffect, useState } from 'react';
import { useIdempotencyKey } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { isHttpUrl } from '../ui/url';
import { useBalance } from './balance';
import { BalanceStats } from './BalanceStats';
import { Card, PageHeader } from '../ui/Page';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { Pager, useCursorStack } from '../ui/pagination';
import { DepositsTable } from './DepositsTable';
import { LedgerTable } from './LedgerTable';
import { useCreateDeposit, useDeposits, useLedger } from './queries';
import { TopUpForm, type DepositMethod } from './TopUpForm';
import { SpendingCaps } from './SpendingCaps';
import { Permitted, RoleNote } from '../organisations/Permitted';
import './billing.css';

export function BillingPage() {
  const balance = useBalance();
  const meta = useMeta();
  const createDeposit = useCreateDeposit();
  const [leaving, setLeaving] = useState(false);
  const [redirectError, setRedirectError] = useState<string | null>(null);
  // One key per distinct request: retrying the same amount and method after a lost response replays
  // the first answer (the same deposit) instead of starting a second top-up.
  const idempotency = useIdempotencyKey();

  // Back from the checkout with the browser's Back button: the page may come out of the back-forward
  // cache as it was left, its button still busy. Make it usable again.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  const depositPages = useCursorStack();
  const deposits = useDeposits(depositPages.cursor);
  const ledgerPages = useCursorStack();
  const ledger = useLedger(ledgerPages.cursor);

  const topUp = (amountCents: number, method: DepositMethod) => {
    setRedirectError(null);
    createDeposit.mutate(
      { amountCents, method, idempotencyKey: idempotency.keyFor({ amountCents, method }) },
      {
        onSuccess: (deposit) => {
          // Only an http(s) address is followed, whatever a response might hold.
          if (!isHttpUrl(deposit.checkoutUrl, window.location.href)) {
            setRedirectError('The payment provider returned an address that cannot be opened. Try again, or contact support.');
            return;
          }
          idempotency.forget();
          setLeaving(true);
          window.location.assign(deposit.checkoutUrl);
        },
      },
    );
  };

  return (
    <>
      <PageHeader title="Billing" description="Add credits, cap what your tasks may commit, follow your deposits and see every movement of your balance." />
      <ErrorNote error={balance.error} />
      <BalanceStats buyer={balance.data} lowBalanceThresholdCents={meta.data?.lowBalanceThresholdCents} />

      <Card title="Top up">
        <Permitted permission="money:write" fallback={<RoleNote permission="money:write" />}>
          <TopUpForm
            tiers={meta.data?.depositBonusTiers}
            tiersError={meta.error}
            onSubmit={topUp}
            busy={createDeposit.isPending || leaving}
            error={createDeposit.error ?? (redirectError ? new Error(redirectError) : null)}
          />
        </Permitted>
        {leaving ? (
          <p className="bl-leaving" role="status">
            Taking you to the checkout…
          </p>
        ) : null}
      </Card>

      <SpendingCaps />

      <Card title="Deposits">
        {deposits.data ? (
          deposits.data.deposits.length === 0 && depositPages.page === 1 ? (
            <EmptyState title="No deposits yet">
              <p>Your top-ups appear here with their status.</p>
            </EmptyState>
          ) : (
            <>
              <DepositsTable deposits={deposits.data.deposits} />
              <Pager
                page={depositPages.page}
                hasMore={deposits.data.hasMore}
                busy={deposits.isFetching}
                onPrevious={depositPages.previous}
                onNext={() => depositPages.next(deposits.data?.nextCursor)}
              />
            </>
          )
        ) : deposits.error ? null : (
          <Loading label="Loading deposits…" />
        )}
        <ErrorNote error={deposits.error} />
      </Card>

      <Card title="Ledger">
        {ledger.data ? (
          ledger.data.entries.length === 0 && ledgerPages.page === 1 ? (
            <EmptyState title="No money has moved yet">
              <p>Deposits, bonuses, task charges and adjustments appear here, newest first.</p>
            </EmptyState>
          ) : (
            <>
              <LedgerTable entries={ledger.data.entries} />
              <Pager
                page={ledgerPages.page}
                hasMore={ledger.data.hasMore}
                busy={ledger.isFetching}
                onPrevious={ledgerPages.previous}
                onNext={() => ledgerPages.next(ledger.data?.nextCursor)}
              />
            </>
          )
        ) : ledger.error ? null : (
          <Loading label="Loading the ledger…" />
        )}
        <ErrorNote error={ledger.error} />
      </Card>
    </>
  );
}
