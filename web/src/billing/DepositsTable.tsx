// The buyer's deposits, newest first, each in a sentence ("Paid $600.00 by card on …, plus a $30.00
// bonus") with what it credited and its status; each links to its own page, and one still waiting for
// payment links back to its checkout.
import { Link } from 'react-router';
import { usePermission } from '../organisations/Permitted';
import { StatusBadge } from '../ui/StatusBadge';
import { Table, type Column } from '../ui/Table';
import { formatCents, formatDateTime } from '../ui/format';
import { depositSentence } from './depositWords';
import type { Deposit } from './queries';

export const METHOD_LABELS: Record<Deposit['method'], string> = { card: 'Card', mobile_money: 'Mobile money' };

function credited(deposit: Deposit) {
  const total = deposit.amountCents + deposit.bonusCents;
  if (deposit.status === 'SUCCEEDED') return <span className="bl-credit">+{formatCents(total)}</span>;
  if (deposit.status === 'PENDING') return <span className="bl-muted">{formatCents(total)} once paid</span>;
  return <span className="bl-muted">Nothing</span>;
}

/** A pending deposit's way back to its checkout, for a role that may add credits (money:write). */
export function CheckoutLink({ deposit }: { deposit: Deposit }) {
  return usePermission('money:write').allowed ? <a href={deposit.checkoutUrl}>Continue to checkout</a> : null;
}

const columns: Column<Deposit>[] = [
  { header: 'Deposit', cell: depositSentence },
  { header: 'Credited', align: 'right', nowrap: true, cell: credited },
  { header: 'Status', nowrap: true, cell: (deposit) => <StatusBadge status={deposit.status} /> },
  {
    header: 'Details',
    nowrap: true,
    cell: (deposit) => (
      <span className="bl-deposit-links">
        {deposit.status === 'PENDING' ? <CheckoutLink deposit={deposit} /> : null}
        <Link to={`/billing/deposits/${encodeURIComponent(deposit.id)}`}>
          See the deposit
          <span className="sr-only">
            {' '}
            of {formatCents(deposit.amountCents)} started {formatDateTime(deposit.createdAt)}
          </span>
        </Link>
      </span>
    ),
  },
];

export function DepositsTable({ deposits }: { deposits: Deposit[] }) {
  return (
    <div className="bl-deposits">
      <Table caption="Deposits, newest first" columns={columns} rows={deposits} rowKey={(deposit) => deposit.id} />
    </div>
  );
}
