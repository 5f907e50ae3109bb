// Every money movement of the account, newest first in commit order: what it was, the signed amount,
// the balance right after it, and what it refers to (a task by the start of its content, a deposit, an
// adjustment's reason, shortened when long with the whole text a click away).
import { Link } from 'react-router';
import { TaskRef } from '../tasks/TaskRef';
import { LongText } from '../ui/LongText';
import { Table, type Column } from '../ui/Table';
import { formatCents, formatDateTime } from '../ui/format';
import type { LedgerEntry } from './queries';

const TYPE_LABELS: Record<LedgerEntry['type'], string> = {
  DEPOSIT: 'Deposit',
  BONUS: 'Deposit bonus',
  TASK_CHARGE: 'Task charge',
  REFUND: 'Refund (result rejected)',
  ADJUSTMENT: 'Adjustment',
  EARNING: 'Earning',
  EARNING_REVERSAL: 'Earning taken back',
  PAYOUT: 'Payout',
  PAYOUT_REVERSAL: 'Payout reversal',
};

/** "+$600.00" / "−$0.20": the sign always shown, a real minus sign. */
export function signedCents(cents: number): string {
  if (cents === 0) return formatCents(0);
  return `${cents > 0 ? '+' : '−'}${formatCents(Math.abs(cents))}`;
}

const DEPOSIT_REASON = /^deposit (\S+)$/;

function reference(entry: LedgerEntry) {
  if (entry.taskId) {
    return (
      <>
        Task <TaskRef taskId={entry.taskId} />
      </>
    );
  }
  const deposit = entry.reason ? DEPOSIT_REASON.exec(entry.reason) : null;
  if (deposit?.[1]) {
    return (
      <>
        {entry.type === 'BONUS' ? 'Bonus on deposit ' : 'Deposit '}
        <Link to={`/billing/deposits/${encodeURIComponent(deposit[1])}`} className="mono bl-id">
          {deposit[1]}
        </Link>
      </>
    );
  }
  if (entry.type === 'ADJUSTMENT') return entry.reason ? <LongText text={`By Concord: ${entry.reason}`} /> : <>By Concord</>;
  return entry.reason ? <LongText text={entry.reason} /> : <span className="bl-muted">—</span>;
}

const columns: Column<LedgerEntry>[] = [
  { header: 'Time', nowrap: true, cell: (entry) => <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> },
  { header: 'Type', nowrap: true, cell: (entry) => TYPE_LABELS[entry.type] ?? entry.type },
  {
    header: 'Amount',
    align: 'right',
    nowrap: true,
    cell: (entry) => <span className={entry.amountCents < 0 ? 'bl-debit' : 'bl-credit'}>{signedCents(entry.amountCents)}</span>,
  },
  { header: 'Balance after', align: 'right', nowrap: true, cell: (entry) => formatCents(entry.balanceAfterCents) },
  { header: 'Reference', cell: reference },
];

export function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return (
    <div className="bl-ledger">
      <Table caption="Ledger, newest first" columns={columns} rows={entries} rowKey={(entry) => entry.id} />
    </div>
  );
}
