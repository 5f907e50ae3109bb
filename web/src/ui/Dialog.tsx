// Modal dialogs on the native <dialog> element: it traps focus, closes on Escape and returns focus to
// what opened it, with no library. A dialog opened from inside another (a confirmation in the task
// drawer) is a DOM child of it, and React hands a child's close and cancel events to its ancestors'
// handlers too: each dialog therefore answers only the events of its own element.
import { useEffect, useId, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { Button } from './Button';
import { ErrorNote } from './Feedback';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** 'drawer' slides in from the right and is wider. */
  variant?: 'modal' | 'drawer';
  /**
   * False while the dialog must not be dismissed by Escape or a ✕ (a secret shown once, not yet
   * confirmed as copied): only the dialog's own buttons close it then.
   */
  dismissible?: boolean;
  /**
   * Said in the dialog when Escape is pressed while it may not be dismissed, so the key does not seem
   * broken: "Copy the key first: it is shown only once."
   */
  blockedMessage?: ReactNode;
}

/** Whether a dialog event is this dialog's own, not one a nested dialog sent up the React tree. */
const own = (event: SyntheticEvent<HTMLDialogElement>) => event.target === event.currentTarget;

export function Dialog({ open, title, onClose, children, variant = 'modal', dismissible = true, blockedMessage }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Escape was refused since the dialog opened (shown only while it is still refused); each opening
  // starts without it.
  const [refused, setRefused] = useState(false);
  const [openedBefore, setOpenedBefore] = useState(open);
  if (openedBefore !== open) {
    setOpenedBefore(open);
    setRefused(false);
  }
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${variant}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        if (!own(event)) return;
        if (!dismissible) {
          event.preventDefault();
          setRefused(true);
          return;
        }
        onClose();
      }}
      onClose={(event) => {
        if (!own(event)) return;
        // A browser may close a dialog despite preventDefault (Escape pressed twice without a click in
        // between): one that must stay open is shown again.
        if (!dismissible && open) {
          event.currentTarget.showModal();
          setRefused(true);
          return;
        }
        onClose();
      }}
    >
      {open ? (
        <div className="dialog-body">
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            {dismissible ? (
              <Button variant="ghost" onClick={onClose} aria-label="Close">
                ✕
              </Button>
            ) : null}
          </header>
          {refused && !dismissible && blockedMessage ? (
            <p className="field-error dialog-blocked" role="alert">
              {blockedMessage}
            </p>
          ) : null}
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

interface ConfirmButtonProps {
  label: string;
  /** The trigger's accessible name when its visible label alone does not say what it acts on. */
  accessibleLabel?: string;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  variant?: 'danger' | 'primary' | 'secondary';
  /** The trigger's look when it should not shout (a row's action among others): by default danger for a danger action, else secondary. */
  triggerVariant?: 'danger' | 'secondary';
  disabled?: boolean;
  /** Why the action is not possible now: the trigger is disabled and this is shown beside it. */
  disabledReason?: ReactNode;
}

/** A destructive or irreversible action behind a confirmation that names what will happen. */
export function ConfirmButton({
  label,
  accessibleLabel,
  title,
  message,
  confirmLabel,
  onConfirm,
  variant = 'danger',
  triggerVariant = variant === 'danger' ? 'danger' : 'secondary',
  disabled,
  disabledReason,
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const reasonId = useId();
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setOpen(false);
    setError(null);
  };
  return (
    <>
      <Button
        variant={triggerVariant}
        onClick={() => setOpen(true)}
        disabled={disabled || Boolean(disabledReason)}
        aria-label={accessibleLabel}
        aria-describedby={disabledReason ? reasonId : undefined}
      >
        {label}
      </Button>
      {disabledReason ? (
        <p id={reasonId} className="confirm-disabled-reason">
          {disabledReason}
        </p>
      ) : null}
      <Dialog open={open} title={title} onClose={close}>
        <div className="dialog-message">{message}</div>
        <ErrorNote error={error} />
        <div className="actions">
          <Button onClick={close}>Cancel</Button>
          <Button variant={variant} busy={busy} onClick={confirm}>
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
