// Payouts annotators asked for through their app: pending ones first (oldest first, as the API
// orders them), each approved (the money was sent: PAID) or rejected (the cents return to the
// annotator), both behind a confirmation with an optional note. Each button's accessible name names its
// payout ("Approve $5.00 to annotator-0 (Payout App)"), so a screen reader's list of buttons tells them apart.
import { PAYOUT_NOTE_MAX_LENGTH } from '@concord/contract';
import { useState } from 'react';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { StatusBadge } from '../ui/StatusBadge';
import type { Column } from '../ui/Table';
import { AdminTable } from './AdminTable';
import { formatCents, formatCount, formatDateTime } from '../ui/format';
import { tooLong } from '../ui/limits';
import { Pager, useCursorStack } from '../ui/pagination';
import { useSearchParam } from './searchParams';
import { useDecidePayout, useDeveloperDirectory, usePayouts, usePlatformStats, type AdminPayout, type Developer, type PayoutStatus } from './queries';
import './admin.css';

const STATUSES: { value: PayoutStatus; label: string }[] = [
  { value: 'PENDING', label: 'Pending' },
  { value: 'PAID', label: 'Paid' },
  { value: 'REJECTED', label: 'Rejected' },
];

const METHODS: Record<AdminPayout['method'], string> = {
  paypal: 'PayPal',
  mobile_money: 'Mobile money',
  bank_transfer: 'Bank transfer',
};

const isStatus = (value: string): value is PayoutStatus => STATUSES.some((s) => s.value === value);

/** Refuses a note over the limit before anything is sent; the confirmation shows why. */
function checkedNote(note: string): string {
  const trimmed = note.trim();
  const problem = tooLong(trimmed, PAYOUT_NOTE_MAX_LENGTH, 'The note');
  if (problem) throw new Error(problem);
  return trimmed;
}

export function PayoutsPage() {
  const [statusParam, setStatus] = useSearchParam('status', 'PENDING');
  const status: PayoutStatus = isStatus(statusParam) ? statusParam : 'PENDING';
  const stats = usePlatformStats();
  const pending = stats.data?.pendingPayouts;
  return (
    <>
      <PageHeader
        title="Payouts"
        description={
          pending && pending.count > 0
            ? `${formatCount(pending.count)} pending, ${formatCents(pending.cents)} in all. Send the money by the method shown, then approve; a rejection returns the cents to the annotator's earnings.`
            : "Send the money by the method shown, then approve; a rejection returns the cents to the annotator's earnings."
        }
      />
      <div className="toolbar">
        <SelectField label="Status" name="status" value={status} options={STATUSES} onChange={(event) => setStatus(event.currentTarget.value)} />
      </div>
      <PayoutResults key={status} status={status} />
    </>
  );
}

function PayoutResults({ status }: { status: PayoutStatus }) {
  const pages = useCursorStack();
  const payouts = usePayouts(status, pages.cursor);
  const directory = useDeveloperDirectory();
  const decide = useDecidePayout();
  const label = STATUSES.find((s) => s.value === status)?.label ?? status;
  if (payouts.isPending) return <Loading label="Loading payouts…" />;
  if (payouts.isError) return <ErrorNote error={payouts.error} />;
  const rows = payouts.data.payouts;
  return (
    <Card>
      {rows.length === 0 && pages.page === 1 ? (
        <EmptyState title={`No ${label.toLowerCase()} payouts`}>{status === 'PENDING' ? <p>Nothing waits for a decision.</p> : null}</EmptyState>
      ) : (
        <>
          <PayoutTable
            caption={`${label} payouts`}
            payouts={rows}
            developers={directory.data}
            onDecide={(payout, approve, note) => decide.mutateAsync({ id: payout.id, approve, note })}
          />
          <Pager
            page={pages.page}
            hasMore={payouts.data.hasMore}
            busy={payouts.isFetching}
            onPrevious={pages.previous}
            onNext={() => pages.next(payouts.data.nextCursor)}
          />
        </>
      )}
    </Card>
  );
}

interface PayoutTableProps {
  caption: string;
  payouts: AdminPayout[];
  developers: Map<string, Developer> | undefined;
  onDecide: (payout: AdminPayout, approve: boolean, note: string) => Promise<unknown>;
}

function PayoutTable({ caption, payouts, developers, onDecide }: PayoutTableProps) {
  const anyPending = payouts.some((p) => p.status === 'PENDING');
  const anyDecided = payouts.some((p) => p.status !== 'PENDING');
  const columns: Column<AdminPayout>[] = [
    { header: 'Created', wide: true, cell: (p) => <span className="nowrap">{formatDateTime(p.createdAt)}</span> },
    { header: 'Annotator', cell: (p) => <span className="mono">{p.annotatorId}</span> },
    {
      header: 'App',
      cell: (p) => {
        const developer = developers?.get(p.developerId);
        return developer ? <span title={developer.email}>{developer.appName}</span> : <span className="mono small">{p.developerId}</span>;
      },
    },
    { header: 'Amount', align: 'right', cell: (p) => <strong>{formatCents(p.amountCents)}</strong> },
    { header: 'Method', cell: (p) => METHODS[p.method] ?? p.method },
    { header: 'Destination', cell: (p) => <span className="mono">{p.destination}</span> },
    {
      header: 'Status',
      cell: (p) => (
        <span className="nowrap">
          <StatusBadge status={p.status} />
        </span>
      ),
    },
  ];
  if (anyDecided) {
    columns.push({
      header: 'Decided',
      wide: true,
      cell: (p) => (
        <>
          <span className="nowrap">{formatDateTime(p.decidedAt)}</span>
          {p.note ? (
            <>
              <br />
              <span className="muted small">{p.note}</span>
            </>
          ) : null}
        </>
      ),
    });
  }
  if (anyPending) {
    columns.push({
      header: 'Actions',
      align: 'right',
      cell: (p) =>
        p.status === 'PENDING' ? <PayoutActions payout={p} developer={developers?.get(p.developerId)} onDecide={onDecide} /> : <div className="row-actions" />,
    });
  }
  return <AdminTable caption={caption} columns={columns} rows={payouts} rowKey={(p) => p.id} />;
}

function PayoutActions({ payout, developer, onDecide }: { payout: AdminPayout; developer: Developer | undefined; onDecide: PayoutTableProps['onDecide'] }) {
  const [approveNote, setApproveNote] = useState('');
  const [rejectNote, setRejectNote] = useState('');
  const amount = formatCents(payout.amountCents);
  const who = `${payout.annotatorId}${developer ? ` (${developer.appName})` : ''}`;
  return (
    <div className="row-actions">
      <ConfirmButton
        label="Approve"
        accessibleLabel={`Approve ${amount} to ${who}`}
        title={`Approve ${amount} to ${payout.annotatorId}?`}
        variant="primary"
        message={
          <>
            <p>
              Marks the payout <strong>PAID</strong>: {amount} to {who} by {METHODS[payout.method] ?? payout.method}, to{' '}
              <span className="mono">{payout.destination}</span>. Concord does not move the money: send it first.
            </p>
            <TextField
              label="Note (optional)"
              name="note"
              value={approveNote}
              onChange={(event) => setApproveNote(event.currentTarget.value)}
              limit={PAYOUT_NOTE_MAX_LENGTH}
              hint="A transfer reference, for instance. The annotator's app can read it."
            />
          </>
        }
        confirmLabel="Approve payout"
        onConfirm={async () => onDecide(payout, true, checkedNote(approveNote))}
      />
      <ConfirmButton
        label="Reject"
        accessibleLabel={`Reject ${amount} to ${who}`}
        title={`Reject ${amount} to ${payout.annotatorId}?`}
        message={
          <>
            <p>
              Marks the payout <strong>REJECTED</strong>; the {amount} return to {who}’s available earnings, so they can ask again.
            </p>
            <TextField
              label="Note (optional)"
              name="note"
              value={rejectNote}
              onChange={(event) => setRejectNote(event.currentTarget.value)}
              limit={PAYOUT_NOTE_MAX_LENGTH}
              hint="Why, for instance “the destination is not a PayPal account”. The annotator's app can read it."
            />
          </>
        }
        confirmLabel="Reject payout"
        onConfirm={async () => onDecide(payout, false, checkedNote(rejectNote))}
      />
    </div>
  );
}
