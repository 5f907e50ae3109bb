// Buyers: search by e-mail or company (debounced, kept in the URL), their balances, and a credit
// adjustment (a credit or a debit with a reason) that states its effect before it is made.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { TextAreaField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Misc';
import type { Column } from '../ui/Table';
import { AdminTable } from './AdminTable';
import { formatCents, formatDateTime, parseDollars } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { describeAdminError, newIdempotencyKey, useSearchText } from './common';
import { useAdjustCredits, useBuyers, type AdminBuyer, type LedgerEntry } from './queries';
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
          maxLength={200}
          autoComplete="off"
        />
      </div>
      {done ? (
        <Notice tone="success">
          {done.entry.amountCents > 0 ? 'Credited' : 'Debited'} {formatCents(Math.abs(done.entry.amountCents))}{' '}
          {done.entry.amountCents > 0 ? 'to' : 'from'} {done.buyer.companyName} ({done.buyer.email}). Their balance is now{' '}
          {formatCents(done.entry.balanceAfterCents)}.
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
          <Pager page={pages.page} hasMore={buyers.data.hasMore} busy={buyers.isFetching} onPrevious={pages.previous} onNext={() => pages.next(buyers.data.nextCursor)} />
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
          {b.email}
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

/** "-12.50" → -1250, "+3" → 300; null when it is not an amount in dollars and cents. */
function parseSignedDollars(text: string): number | null {
  const trimmed = text.trim();
  const negative = /^[-−]/.test(trimmed);
  const cents = parseDollars(trimmed.replace(/^[-−+]/, ''));
  return cents === null ? null : negative ? -cents : cents;
}

interface Draft {
  amountText: string;
  reason: string;
}

interface AdjustProps {
  onClose: () => void;
  onDone: (buyer: AdminBuyer, entry: LedgerEntry) => void;
}

function AdjustCreditsDialog({ buyer, onClose, onDone }: AdjustProps & { buyer: AdminBuyer | null }) {
  return (
    <Dialog open={buyer !== null} title="Adjust credits" onClose={onClose}>
      {/* Keyed by buyer: each buyer starts with an empty form. */}
      {buyer ? <AdjustCredits key={buyer.id} buyer={buyer} onClose={onClose} onDone={onDone} /> : null}
    </Dialog>
  );
}

function AdjustCredits({ buyer, onClose, onDone }: AdjustProps & { buyer: AdminBuyer }) {
  const adjust = useAdjustCredits();
  const [draft, setDraft] = useState<Draft>({ amountText: '', reason: '' });
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  // Set when the admin reviews the adjustment: the amount and the key that makes its POST safe to retry.
  const [review, setReview] = useState<{ amountCents: number; reason: string; idempotencyKey: string } | null>(null);

  const toReview = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const amountCents = parseSignedDollars(draft.amountText);
    const reason = draft.reason.trim();
    const next: typeof errors = {};
    if (amountCents === null) next.amount = 'Enter an amount in dollars, such as 25 or -12.50.';
    else if (amountCents === 0) next.amount = 'The amount cannot be zero.';
    else if (Math.abs(amountCents) > 10_000_000_000) next.amount = 'At most $100,000,000.00 at a time.';
    if (!reason) next.reason = 'Say why: the reason is kept in the buyer’s ledger.';
    setErrors(next);
    adjust.reset();
    if (amountCents === null || Object.keys(next).length > 0) return;
    setReview({ amountCents, reason, idempotencyKey: newIdempotencyKey() });
  };

  const confirm = async () => {
    if (!review) return;
    try {
      const entry = await adjust.mutateAsync({ buyerId: buyer.id, ...review });
      onDone(buyer, entry);
    } catch (caught) {
      // A refused amount goes back to the form, next to the amount.
      if (caught instanceof ApiError && (caught.code === 'INSUFFICIENT_CREDITS' || caught.code === 'VALIDATION_ERROR')) {
        const fields = caught.fieldErrors();
        setErrors({ amount: caught.code === 'INSUFFICIENT_CREDITS' ? describeAdminError(caught) : fields.amountCents, reason: fields.reason });
        setReview(null);
      }
    }
  };

  const apiError = adjust.error instanceof ApiError ? adjust.error : null;
  const shownInForm = apiError?.code === 'INSUFFICIENT_CREDITS' || apiError?.code === 'VALIDATION_ERROR';
  const credit = (review?.amountCents ?? 0) > 0;
  const amount = formatCents(Math.abs(review?.amountCents ?? 0));

  return (
    <>
      <dl className="facts adjust-facts">
        <dt>Buyer</dt>
        <dd>
          {buyer.companyName} ({buyer.email})
        </dd>
        <dt>Balance</dt>
        <dd>{formatCents(buyer.creditBalance)}</dd>
        <dt>Available</dt>
        <dd>
          {formatCents(buyer.availableCents)} <span className="muted small">({formatCents(buyer.reservedCents)} reserved by open tasks)</span>
        </dd>
      </dl>
      {review ? (
        <div className="review">
          <p className={`effect ${credit ? 'effect-credit' : 'effect-debit'}`} id="adjust-effect" tabIndex={-1} autoFocus>
            <strong>
              {credit ? `Credit ${amount} to` : `Debit ${amount} from`} {buyer.companyName}
            </strong>
          </p>
          <p>
            Balance {formatCents(buyer.creditBalance)} → {formatCents(buyer.creditBalance + review.amountCents)}. Reason, kept in the ledger: “
            {review.reason}”
          </p>
          {adjust.error && !shownInForm ? <p className="error-note" role="alert">{describeAdminError(adjust.error)}</p> : null}
          <div className="actions">
            <Button onClick={() => setReview(null)} disabled={adjust.isPending}>
              Back
            </Button>
            <Button variant={credit ? 'primary' : 'danger'} busy={adjust.isPending} onClick={confirm} aria-describedby="adjust-effect">
              Confirm adjustment
            </Button>
          </div>
        </div>
      ) : (
        // Back from the review (or a refused amount): the amount takes the focus, its error beside it.
        <form onSubmit={toReview} noValidate aria-label="Adjust credits" className="adjust-form">
          <TextField
            label="Amount (USD)"
            name="amount"
            autoFocus
            inputMode="decimal"
            autoComplete="off"
            value={draft.amountText}
            onChange={(event) => setDraft({ ...draft, amountText: event.currentTarget.value })}
            hint="Positive to credit (25.00), negative to debit (-12.50)."
            error={errors.amount}
            required
          />
          <TextAreaField
            label="Reason"
            name="reason"
            value={draft.reason}
            onChange={(event) => setDraft({ ...draft, reason: event.currentTarget.value })}
            hint="Kept in the buyer’s ledger, which they can read."
            error={errors.reason}
            maxLength={500}
            rows={3}
            required
          />
          <div className="actions">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary">
              Review adjustment
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
