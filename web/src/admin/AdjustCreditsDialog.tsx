// A credit adjustment of one buyer: an amount (positive credits, negative debits) and a reason kept in
// their ledger, reviewed with its effect on the balance before it is sent. A debit larger than what the
// buyer can spend (the balance less what open tasks reserve) stops at the review: the service would
// refuse it (402), so it is not offered.
import { CREDIT_REASON_MAX_LENGTH } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { mapFieldErrors } from '../api/fieldErrors';
import { plainSentence } from '../api/issueWords';
import { useIdempotencyKey } from '../api/idempotency';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorNote } from '../ui/Feedback';
import { TextAreaField, TextField } from '../ui/Field';
import { formatCents, parseDollars } from '../ui/format';
import { tooLong } from '../ui/limits';
import { useAdjustCredits, type AdminBuyer, type LedgerEntry } from './queries';

/** A refused adjustment next to its fields; a debit beyond what the buyer can spend says so in the admin's terms. */
function adjustmentErrors(error: unknown) {
  return mapFieldErrors(error, {
    fields: ['amountCents', 'reason'] as const,
    codeFields: { INSUFFICIENT_CREDITS: 'amountCents' },
    rules: {
      amountCents: (message, apiError) => {
        if (apiError.code !== 'INSUFFICIENT_CREDITS') return plainSentence(message);
        const available = Number(apiError.details?.availableCents);
        return `That debit is more than the buyer's available balance${Number.isFinite(available) ? ` (${formatCents(available)})` : ''}: the balance less what open tasks reserve.`;
      },
    },
  });
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

export function AdjustCreditsDialog({ buyer, onClose, onDone }: AdjustProps & { buyer: AdminBuyer | null }) {
  return (
    <Dialog open={buyer !== null} title="Adjust credits" onClose={onClose}>
      {/* Keyed by buyer: each buyer starts with an empty form. */}
      {buyer ? <AdjustCredits key={buyer.id} buyer={buyer} onClose={onClose} onDone={onDone} /> : null}
    </Dialog>
  );
}

function AdjustCredits({ buyer, onClose, onDone }: AdjustProps & { buyer: AdminBuyer }) {
  const adjust = useAdjustCredits();
  const idempotency = useIdempotencyKey();
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
    const reasonTooLong = tooLong(reason, CREDIT_REASON_MAX_LENGTH, 'The reason');
    if (!reason) next.reason = 'Say why: the reason is kept in the buyer’s ledger.';
    else if (reasonTooLong) next.reason = reasonTooLong;
    setErrors(next);
    adjust.reset();
    if (amountCents === null || Object.keys(next).length > 0) return;
    // The same adjustment reviewed again (Back, then Review) keeps its key: a retry never credits twice.
    setReview({ amountCents, reason, idempotencyKey: idempotency.keyFor({ buyerId: buyer.id, amountCents, reason }) });
  };

  const confirm = async () => {
    if (!review) return;
    try {
      const entry = await adjust.mutateAsync({ buyerId: buyer.id, ...review });
      onDone(buyer, entry);
    } catch (caught) {
      // A refused amount goes back to the form, next to the amount.
      const refused = adjustmentErrors(caught);
      if (refused.general === null) {
        setErrors({ amount: refused.fields.amountCents, reason: refused.fields.reason });
        setReview(null);
      }
    }
  };

  const shownInForm = adjust.error !== null && adjustmentErrors(adjust.error).general === null;
  const credit = (review?.amountCents ?? 0) > 0;
  const amount = formatCents(Math.abs(review?.amountCents ?? 0));
  // The figures the list showed when the dialog opened: the service decides on its own, fresher ones.
  const beyondAvailable = review !== null && !credit && -review.amountCents > buyer.availableCents;

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
            Balance {formatCents(buyer.creditBalance)} → {formatCents(buyer.creditBalance + review.amountCents)}. Reason, kept in the ledger: “{review.reason}”
          </p>
          {beyondAvailable ? (
            <p className="error-note" role="alert">
              This debit cannot be made: {buyer.companyName} can spend only {formatCents(buyer.availableCents)} (a balance of {formatCents(buyer.creditBalance)}{' '}
              less {formatCents(buyer.reservedCents)} reserved by open tasks), and a debit may not take more than that. Go back and debit at most{' '}
              {formatCents(buyer.availableCents)}.
            </p>
          ) : null}
          {adjust.error && !shownInForm ? <ErrorNote error={adjust.error} /> : null}
          <div className="actions">
            <Button onClick={() => setReview(null)} disabled={adjust.isPending} variant={beyondAvailable ? 'primary' : 'secondary'}>
              Back
            </Button>
            {beyondAvailable ? null : (
              <Button variant={credit ? 'primary' : 'danger'} busy={adjust.isPending} onClick={confirm} aria-describedby="adjust-effect">
                Confirm adjustment
              </Button>
            )}
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
            limit={CREDIT_REASON_MAX_LENGTH}
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
