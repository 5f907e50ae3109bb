// The buyer's deposits, newest first: each links to its own page; one still waiting for payment links
// back to its checkout.
import { Link } from 'react-router';
import { StatusBadge } from '../ui/StatusBadge';
import { Table, type Column } from '../ui/Table';
import { formatCents, formatDateTime } from '../ui/format';
import type { Deposit } from './queries';

export const METHOD_LABELS: Record<Deposit['method'], string> = { card: 'Card', mobile_money: 'Mobile money' };

const columns: Column<Deposit>[] = [
  {
    header: 'Started',
    cell: (deposit) => (
      <Link
        to={`/billing/deposits/${encodeURIComponent(deposit.id)}`}
        aria-label={`Deposit of ${formatCents(deposit.amountCents)} started ${formatDateTime(deposit.createdAt)}`}
      >
        {formatDateTime(deposit.createdAt)}
      </Link>
    ),
  },
  { header: 'Amount', align: 'right', cell: (deposit) => formatCents(deposit.amountCents) },
  { header: 'Bonus', align: 'right', cell: (deposit) => (deposit.bonusCents > 0 ? `+${formatCents(deposit.bonusCents)}` : '—') },
  { header: 'Method', cell: (deposit) => METHOD_LABELS[deposit.method] },
  { header: 'Status', cell: (deposit) => <StatusBadge status={deposit.status} /> },
  {
    header: 'Next step',
    cell: (deposit) =>
      deposit.status === 'PENDING' ? (
        <a href={deposit.checkoutUrl} className="bl-nowrap">
          Continue to checkout
        </a>
      ) : (
        <span className="bl-muted">{deposit.decidedAt ? `Decided ${formatDateTime(deposit.decidedAt)}` : '—'}</span>
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
