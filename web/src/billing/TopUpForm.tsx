// The top-up form: an amount in dollars with a live preview of the bonus the service will add, and the
// payment method. It checks the amount as the API does (500 to 10 000 000 cents) and shows the API's
// own per-field messages next to the field they name.
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { ErrorNote } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { formatCents, parseDollars } from '../ui/format';
import { BonusTiers } from './BonusTiers';
import { bonusTierFor, depositBonusCents, MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS, nextBonusTier, type DepositBonusTier } from '@concord/contract';
import { amountProblem } from './bonus';
import type { Deposit } from './queries';

export type DepositMethod = Deposit['method'];

const METHODS: readonly { value: DepositMethod; label: string }[] = [
  { value: 'card', label: 'Card' },
  { value: 'mobile_money', label: 'Mobile money' },
];

const SUGGESTED_CENTS = [10_000, 50_000, 200_000];

interface TopUpFormProps {
  /** GET /meta's depositBonusTiers; undefined while they load. */
  tiers: readonly DepositBonusTier[] | undefined;
  tiersError: unknown;
  onSubmit: (amountCents: number, method: DepositMethod) => void;
  /** True from the request until the browser has left for the checkout. */
  busy: boolean;
  error: unknown;
}

export function TopUpForm({ tiers, tiersError, onSubmit, busy, error }: TopUpFormProps) {
  const [amountText, setAmountText] = useState('');
  const [method, setMethod] = useState<DepositMethod>('card');
  const [showProblems, setShowProblems] = useState(false);
  const previewId = useId();

  const amountCents = parseDollars(amountText);
  const problem = amountProblem(amountCents, formatCents, amountText);
  const apiFields = error instanceof ApiError && error.code === 'VALIDATION_ERROR' ? error.fieldErrors() : {};
  const clientError = showProblems ? (amountText.trim() === '' ? 'Enter the amount to add.' : problem) : null;
  // The API's own wording is technical ("Too small: expected number to be >=500"): say it as the hint does.
  const amountError =
    clientError ?? (apiFields.amountCents ? `Enter an amount from ${formatCents(MIN_DEPOSIT_CENTS)} to ${formatCents(MAX_DEPOSIT_CENTS)}.` : undefined);
  const methodError = apiFields.method ? 'Choose card or mobile money.' : undefined;
  // An amount refused here hides what the service said of the try before.
  const formError =
    clientError || (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && (apiFields.amountCents || apiFields.method)) ? null : error;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setShowProblems(true);
    if (problem !== null || amountCents === null) {
      event.currentTarget.querySelector<HTMLInputElement>('input[name="amount"]')?.focus();
      return;
    }
    onSubmit(amountCents, method);
  };

  return (
    <div className="bl-topup-layout">
      <form onSubmit={submit} noValidate className="bl-topup">
        <div className="bl-topup-fields">
          <div>
            <TextField
              label="Amount (USD)"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="500.00"
              value={amountText}
              onChange={(event) => setAmountText(event.target.value)}
              onBlur={() => setShowProblems(true)}
              required
              aria-controls={previewId}
              hint={`From ${formatCents(MIN_DEPOSIT_CENTS)} to ${formatCents(MAX_DEPOSIT_CENTS)}.`}
              error={amountError ?? undefined}
            />
            <div className="bl-suggested" role="group" aria-label="Suggested amounts">
              {SUGGESTED_CENTS.map((cents) => (
                <button
                  key={cents}
                  type="button"
                  className="bl-chip"
                  aria-pressed={amountCents === cents}
                  onClick={() => {
                    setAmountText((cents / 100).toFixed(2));
                    setShowProblems(false);
                  }}
                >
                  {formatCents(cents)}
                </button>
              ))}
            </div>
          </div>
          <SelectField
            label="Payment method"
            name="method"
            value={method}
            onChange={(event) => setMethod(event.target.value as DepositMethod)}
            options={METHODS}
            error={methodError}
          />
        </div>
        {/* Once the field shows the problem, the preview does not say it a second time. */}
        <BonusPreview
          id={previewId}
          amountCents={problem === null ? amountCents : null}
          problem={amountText.trim() === '' ? null : problem}
          problemShown={clientError !== null && clientError !== undefined}
          tiers={tiers}
          tiersError={tiersError}
        />
        <ErrorNote error={formError} />
        <div className="bl-submit">
          <Button type="submit" variant="primary" busy={busy}>
            Top up
          </Button>
          <span className="bl-submit-note">You will pay on the provider&apos;s checkout page, then come back here.</span>
        </div>
      </form>
      {tiers && tiers.length > 0 ? <BonusTiers tiers={tiers} amountCents={problem === null ? amountCents : null} /> : null}
    </div>
  );
}

/** "You pay $X, you receive $Y (bonus $Z)" and how far the next tier is; read out as it changes. */
interface BonusPreviewProps {
  id: string;
  /** A valid amount, or null. */
  amountCents: number | null;
  /** Why the typed amount is not valid, or null (nothing typed, or valid). */
  problem: string | null;
  /** The amount field already shows the problem. */
  problemShown: boolean;
  tiers: readonly DepositBonusTier[] | undefined;
  tiersError: unknown;
}

function BonusPreview({ id, amountCents, problem, problemShown, tiers, tiersError }: BonusPreviewProps) {
  let main: string;
  let next: string | null = null;
  if (!tiers) {
    main = tiersError ? 'The bonus rates could not be loaded; the bonus is shown on the checkout page.' : 'Loading the bonus rates…';
  } else {
    const base = amountCents ?? 0;
    const upcoming = nextBonusTier(base, tiers);
    const current = bonusTierFor(base, tiers);
    if (amountCents === null) {
      main = problem && !problemShown ? problem : problem ? 'Correct the amount to see what you receive.' : 'Enter an amount to see what you receive.';
    } else {
      const bonus = depositBonusCents(amountCents, tiers);
      main = `You pay ${formatCents(amountCents)}, you receive ${formatCents(amountCents + bonus)} (bonus ${formatCents(bonus)}).`;
    }
    // An amount the API would refuse gets its problem alone, no tier hint.
    if (!problem && upcoming) {
      const gap = upcoming.minCents - base;
      next =
        amountCents === null || gap === upcoming.minCents
          ? `Top up ${formatCents(upcoming.minCents)} or more for a ${upcoming.percent} % bonus.`
          : `Add ${formatCents(gap)} to reach ${formatCents(upcoming.minCents)} and get a ${upcoming.percent} % bonus.`;
    } else if (!problem && current) {
      next = `${current.percent} % is the highest bonus.`;
    }
  }
  return (
    <div id={id} className="bl-preview" role="status" aria-live="polite" aria-label="Bonus preview">
      <p className="bl-preview-main">{main}</p>
      {next ? <p className="bl-preview-next">{next}</p> : null}
    </div>
  );
}
