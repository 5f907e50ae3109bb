// One deposit, where the checkout sends the buyer back. While the provider has not decided it the page
// asks every 2 s and says so; once decided it stops, refreshes the balance and the billing lists, and
// says in words what happened: what was credited and the new balance, or that nothing moved.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, describeError } from '../api/errors';
import { useBalance } from './balance';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { StatusBadge } from '../ui/StatusBadge';
import { formatCents, formatDateTime } from '../ui/format';
import { CheckoutLink, METHOD_LABELS } from './DepositsTable';
import { useDeposit, useRefreshAfterDeposit, type Deposit } from './queries';
import './billing.css';

const back = (
  <Link to="/billing" className="btn btn-secondary bl-btn-link">
    ← Billing
  </Link>
);

export function DepositPage() {
  const { depositId = '' } = useParams();
  const deposit = useDeposit(depositId);
  const balance = useBalance();
  const refresh = useRefreshAfterDeposit();
  const status = deposit.data?.status;
  // The deposit whose decision has been followed by a fresh balance: only then is "now $X" true.
  const [refreshedFor, setRefreshedFor] = useState<string | null>(null);

  useEffect(() => {
    if (!status || status === 'PENDING') return;
    let current = true;
    void refresh().then(() => {
      if (current) setRefreshedFor(depositId);
    });
    return () => {
      current = false;
    };
  }, [status, depositId, refresh]);

  if (deposit.error instanceof ApiError && deposit.error.code === 'DEPOSIT_NOT_FOUND') {
    return (
      <>
        <PageHeader title="Deposit" actions={back} />
        <Card>
          <EmptyState title="Deposit not found">
            <p>{describeError(deposit.error)} Check the link, or find your deposits on the billing page.</p>
            <Link to="/billing">Go to Billing</Link>
          </EmptyState>
        </Card>
      </>
    );
  }

  const data = deposit.data;
  const newBalance = refreshedFor === depositId && balance.data && !balance.isFetching ? balance.data.creditBalance : undefined;
  return (
    <>
      <PageHeader title="Deposit" description={data ? <span className="mono">{data.id}</span> : undefined} actions={back} />
      {!data ? (
        deposit.error ? (
          <ErrorNote error={deposit.error} />
        ) : (
          <Loading label="Loading the deposit…" />
        )
      ) : (
        <>
          <Card title="Status">
            <div className="bl-status" role="status" aria-live="polite" aria-label="Deposit status">
              <StatusBadge status={data.status} />
              <span>{statusSentence(data)}</span>
              {data.status === 'PENDING' ? <span className="spinner" aria-hidden="true" /> : null}
            </div>
            {/* A failed poll while waiting: said, and the next poll tries again. */}
            {deposit.error ? <ErrorNote error={deposit.error} /> : null}
            <Outcome deposit={data} newBalance={newBalance} />
          </Card>
          <Card title="Details">
            <dl className="facts">
              <dt>Amount</dt>
              <dd>{formatCents(data.amountCents)}</dd>
              <dt>Bonus</dt>
              <dd>{data.bonusCents > 0 ? formatCents(data.bonusCents) : 'None'}</dd>
              <dt>Credited</dt>
              <dd>{creditedText(data)}</dd>
              <dt>Method</dt>
              <dd>{METHOD_LABELS[data.method]}</dd>
              <dt>Started</dt>
              <dd>{formatDateTime(data.createdAt)}</dd>
              <dt>Decided</dt>
              <dd>{data.decidedAt ? formatDateTime(data.decidedAt) : 'Not yet'}</dd>
            </dl>
          </Card>
        </>
      )}
    </>
  );
}

function creditedText(deposit: Deposit): string {
  const total = formatCents(deposit.amountCents + deposit.bonusCents);
  if (deposit.status === 'SUCCEEDED') return total;
  if (deposit.status === 'PENDING') return `${total} once paid`;
  return 'Nothing';
}

function statusSentence(deposit: Deposit): string {
  switch (deposit.status) {
    case 'PENDING':
      return 'Waiting for the payment to be confirmed. This page updates by itself.';
    case 'SUCCEEDED':
      return 'Paid.';
    case 'CANCELLED':
      return 'Cancelled at the checkout.';
    case 'FAILED':
      return 'The payment failed.';
    default:
      return String(deposit.status);
  }
}

function Outcome({ deposit, newBalance }: { deposit: Deposit; newBalance: number | undefined }) {
  const credited = deposit.amountCents + deposit.bonusCents;
  const balanceText = newBalance === undefined ? 'Updating your balance…' : `Your balance is now ${formatCents(newBalance)}.`;
  switch (deposit.status) {
    case 'PENDING':
      return (
        <p className="bl-outcome">
          Not paid yet. <CheckoutLink deposit={deposit} />
        </p>
      );
    case 'SUCCEEDED':
      return (
        <Notice tone="success">
          <strong>{formatCents(credited)} credited</strong>
          {deposit.bonusCents > 0
            ? ` — your ${formatCents(deposit.amountCents)} deposit plus a ${formatCents(deposit.bonusCents)} bonus.`
            : ` — your ${formatCents(deposit.amountCents)} deposit.`}{' '}
          {balanceText}
        </Notice>
      );
    case 'CANCELLED':
      return (
        <Notice tone="info">
          This top-up was cancelled: nothing was charged and nothing was credited. <Link to="/billing">Start a new top-up</Link>
        </Notice>
      );
    case 'FAILED':
      return (
        <Notice tone="warning">
          The payment provider refused this payment: nothing was credited. <Link to="/billing">Try again</Link> with another method or amount.
        </Notice>
      );
    default:
      return null;
  }
}
