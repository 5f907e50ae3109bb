// Buyers: search by e-mail or company (debounced, kept in the URL), their balances, and a credit
// adjustment (a credit or a debit with a reason) that states its effect before it is made.
import { useState } from 'react';
import { BreakableAddress } from '../ui/BreakableAddress';
import { Button } from '../ui/Button';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import type { Column } from '../ui/Table';
import { AdminTable } from './AdminTable';
import { formatCents, formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { AdjustCreditsDialog } from './AdjustCreditsDialog';
import { useSearchText } from './searchParams';
import { useBuyers, type AdminBuyer, type LedgerEntry } from './queries';
import './admin.css';

export function BuyersPage() {
  const { text, change, q } = useSearchText('q');
  const [adjusting, setAdjusting] = useState<AdminBuyer | null>(null);
  const [done, setDone] = useState<{ buyer: AdminBuyer; entry: LedgerEntry } | null>(null);

  return (
    <>
      <PageHeader title="Buyers" description="Accounts that post tasks, with what they hold, what open tasks reserve and what is left to spend." />
      <div className="toolbar" role="search">
        <TextField
          label="Search buyers"
          type="search"
          name="q"
          value={text}
          onChange={(event) => change(event.currentTarget.value)}
          placeholder="E-mail or company"
          limit={200}
          autoComplete="off"
        />
      </div>
      {done ? (
        <Notice tone="success">
          {done.entry.amountCents > 0 ? 'Credited' : 'Debited'} {formatCents(Math.abs(done.entry.amountCents))} {done.entry.amountCents > 0 ? 'to' : 'from'}{' '}
          {done.buyer.companyName} ({done.buyer.email}). Their balance is now {formatCents(done.entry.balanceAfterCents)}.
        </Notice>
      ) : null}
      {/* A new search starts from the first page: the list (and its cursor stack) is remounted. */}
      <BuyerResults key={q} q={q} onAdjust={(buyer) => setAdjusting(buyer)} />
      <AdjustCreditsDialog
        buyer={adjusting}
        onClose={() => setAdjusting(null)}
        onDone={(buyer, entry) => {
          setAdjusting(null);
          setDone({ buyer, entry });
        }}
      />
    </>
  );
}

function BuyerResults({ q, onAdjust }: { q: string; onAdjust: (buyer: AdminBuyer) => void }) {
  const pages = useCursorStack();
  const buyers = useBuyers(q, pages.cursor);
  if (buyers.isPending) return <Loading label="Loading buyers…" />;
  if (buyers.isError) return <ErrorNote error={buyers.error} />;
  const rows = buyers.data.buyers;
  return (
    <Card>
      {rows.length === 0 && pages.page === 1 ? (
        <EmptyState title={q ? `No buyer matches “${q}”` : 'No buyers yet'}>{q ? <p>Search matches part of an e-mail or a company name.</p> : null}</EmptyState>
      ) : (
        <>
          <BuyerTable buyers={rows} onAdjust={onAdjust} />
          <Pager
            page={pages.page}
            hasMore={buyers.data.hasMore}
            busy={buyers.isFetching}
            onPrevious={pages.previous}
            onNext={() => pages.next(buyers.data.nextCursor)}
          />
        </>
      )}
    </Card>
  );
}

function BuyerTable({ buyers, onAdjust }: { buyers: AdminBuyer[]; onAdjust: (buyer: AdminBuyer) => void }) {
  const columns: Column<AdminBuyer>[] = [
    {
      header: 'E-mail',
      cell: (b) => (
        <>
          <BreakableAddress address={b.email} />
          {b.isActive ? null : (
            <>
              {' '}
              <span className="badge badge-danger">Disabled</span>
            </>
          )}
        </>
      ),
    },
    { header: 'Company', cell: (b) => b.companyName },
    { header: 'Balance', align: 'right', cell: (b) => formatCents(b.creditBalance) },
    { header: 'Reserved', align: 'right', wide: true, cell: (b) => formatCents(b.reservedCents) },
    { header: 'Available', align: 'right', cell: (b) => <strong>{formatCents(b.availableCents)}</strong> },
    { header: 'Created', wide: true, cell: (b) => <span className="nowrap">{formatDateTime(b.createdAt)}</span> },
    {
      header: 'Actions',
      align: 'right',
      cell: (b) => (
        <div className="row-actions">
          <Button onClick={() => onAdjust(b)} aria-label={`Adjust credits of ${b.email}`}>
            Adjust credits
          </Button>
        </div>
      ),
    },
  ];
  return <AdminTable caption="Buyers" columns={columns} rows={buyers} rowKey={(b) => b.id} />;
}
