// Modal dialogs on the native <dialog> element: it traps focus, closes on Escape and returns focus to
// what opened it, with no library.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './Button';
import { ErrorNote } from './Feedback';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** 'drawer' slides in from the right and is wider. */
  variant?: 'modal' | 'drawer';
}

export function Dialog({ open, title, onClose, children, variant = 'modal' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={`dialog dialog-${variant}`} aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      {open ? (
        <div className="dialog-body">
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <Button variant="ghost" onClick={onClose} aria-label="Close">
              ✕
            </Button>
          </header>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

interface ConfirmButtonProps {
  label: string;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  variant?: 'danger' | 'primary' | 'secondary';
  disabled?: boolean;
}

/** A destructive or irreversible action behind a confirmation that names what will happen. */
export function ConfirmButton({ label, title, message, confirmLabel, onConfirm, variant = 'danger', disabled }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
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
  return (
    <>
      <Button variant={variant === 'danger' ? 'danger' : 'secondary'} onClick={() => setOpen(true)} disabled={disabled}>
        {label}
      </Button>
      <Dialog open={open} title={title} onClose={() => setOpen(false)}>
        <div className="dialog-message">{message}</div>
        <ErrorNote error={error} />
        <div className="actions">
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button variant={variant} busy={busy} onClick={confirm}>
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
