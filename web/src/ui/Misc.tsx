import { useState, type ReactNode } from 'react';
import { Button } from './Button';

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      {title || actions ? (
        <header className="card-header">
          {title ? <h2>{title}</h2> : null}
          {actions}
        </header>
      ) : null}
      {children}
    </section>
  );
}

const STATUS_TONES: Record<string, string> = {
  PENDING: 'neutral',
  VALIDATING: 'info',
  COMPLETED: 'success',
  SUCCEEDED: 'success',
  DELIVERED: 'success',
  PAID: 'success',
  FAILED: 'danger',
  REJECTED: 'danger',
  CANCELLED: 'neutral',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${STATUS_TONES[status] ?? 'neutral'}`}>{status}</span>;
}

/** A secret shown once: read-only, selectable, with a copy button and a warning that it will not come back. */
export function SecretReveal({ label, value, note }: { label: string; value: string; note: ReactNode }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    // The clipboard API exists only in secure contexts (https or localhost): elsewhere, say what to do.
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="secret">
      <label>
        {label}
        <input readOnly value={value} onFocus={(event) => event.currentTarget.select()} className="mono" />
      </label>
      <div className="secret-row">
        <Button onClick={copy}>{copied === 'yes' ? 'Copied' : 'Copy'}</Button>
        <p className="secret-note" aria-live="polite">
          {copied === 'failed' ? 'This browser did not allow copying: select the text above and copy it yourself. ' : null}
          {note}
        </p>
      </div>
    </div>
  );
}
