// Sending a completed result back from the drawer (README, "Result review"): for a COMPLETED task within
// REVIEW_WINDOW_DAYS of its decision, "Reject result" opens a small form — the reason (required, counted
// to its limit) and what will happen (the charge refunded now, the task decided again at a higher target,
// the next result charged as usual) — that POSTs /tasks/:id/reject; the service's refusal is said in words
// (a 402 with its figures and where to act, a 409 by its code), and the drawer then shows the reopened task.
// Where the button is not offered (a review task, a result decided again, a window closed) it says why.
// Only for roles with tasks:write (the drawer wraps it in Permitted).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { MAX_REJECTION_REASON_LENGTH } from '@concord/contract';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { focusFirstInvalid, TextAreaField } from '../ui/Field';
import { formatCents } from '../ui/format';
import { useNow } from '../ui/useNow';
import { CapRefusalHelp } from './Held';
import { useRejectTask } from './queries';
import { readReason, rejectConsequences, rejectedOutcome, rejectFormErrors, rejectOffer, windowWords } from './review';
import type { Task } from './vocabulary';

export function ResultReview({ task }: { task: Task }) {
  const now = useNow(60_000);
  // Kept once the task has reopened (the drawer then shows it VALIDATING, with its rejection).
  const [outcome, setOutcome] = useState<string | null>(null);
  const offer = rejectOffer(task, now);
  if (outcome) {
    return (
      <div className="task-section">
        <Notice tone="success">{outcome}</Notice>
      </div>
    );
  }
  if (!offer) return null;
  return (
    <section aria-labelledby="task-reject-heading" className="task-section">
      <h3 id="task-reject-heading">Reject the result</h3>
      {offer.offered ? <RejectResult task={task} until={offer.until} now={now} onRejected={setOutcome} /> : <p className="task-muted">{offer.why}</p>}
    </section>
  );
}

interface RejectResultProps {
  task: Task;
  until: string;
  now: Date;
  onRejected: (message: string) => void;
}

function RejectResult({ task, until, now, onRejected }: RejectResultProps) {
  const [open, setOpen] = useState(false);
  const actions = useRef<HTMLDivElement>(null);
  return (
    <>
      <p className="task-muted">If this result is wrong, send it back {windowWords(until, now)}: its charge is refunded and the task is decided again.</p>
      {open ? (
        <RejectForm
          task={task}
          onCancel={() => {
            setOpen(false);
            // Back to the button that opened the form (rendered again by then).
            requestAnimationFrame(() => actions.current?.querySelector('button')?.focus());
          }}
          onRejected={onRejected}
        />
      ) : (
        <div className="task-reject-actions" ref={actions}>
          <Button onClick={() => setOpen(true)}>Reject result</Button>
        </div>
      )}
    </>
  );
}

function RejectForm({ task, onCancel, onRejected }: { task: Task; onCancel: () => void; onRejected: (message: string) => void }) {
  const reject = useRejectTask();
  const [localError, setLocalError] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector('textarea')?.focus();
  }, []);
  const apiErrors = rejectFormErrors(reject.error);
  const error = localError ?? apiErrors.fields.reason;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const reason = readReason(String(new FormData(formElement).get('reason') ?? ''));
    setLocalError(reason.error);
    if (reason.value === undefined) {
      reject.reset();
      focusFirstInvalid(formElement);
      return;
    }
    try {
      const reopened = await reject.mutateAsync({ id: task.id, reason: reason.value });
      onRejected(rejectedOutcome(task, reopened));
    } catch {
      // Said in the form through reject.error.
    }
  };

  const code = reject.error instanceof ApiError ? reject.error.code : null;
  return (
    <form ref={form} onSubmit={submit} noValidate aria-label="Reject result">
      <TextAreaField
        label="Reason"
        name="reason"
        rows={3}
        required
        limit={MAX_REJECTION_REASON_LENGTH}
        error={error}
        hint="What is wrong with it. Kept with the task and sent in the task.rejected event."
      />
      <p className="task-reject-consequences">{rejectConsequences(task)}</p>
      <ErrorNote error={apiErrors.general} />
      {code === 'INSUFFICIENT_CREDITS' ? (
        <p className="task-form-help">
          Reopening the task reserves its budget of {formatCents(task.maxCents)} again, after the refund.{' '}
          <Link to="/billing">Add credits on the Billing page</Link>, or keep this result.
        </p>
      ) : null}
      <CapRefusalHelp error={reject.error} instead="keep this result" />
      <div className="task-reject-actions">
        <Button onClick={onCancel} disabled={reject.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" busy={reject.isPending}>
          Reject and refund
        </Button>
      </div>
    </form>
  );
}
