// A secret shown once (an API key, a webhook secret): read-only, selectable, with a copy button and a
// note that it will not come back.
import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton';

export function SecretReveal({ label, value, note }: { label: string; value: string; note: ReactNode }) {
  return (
    <div className="secret">
      <label>
        {label}
        <input readOnly value={value} onFocus={(event) => event.currentTarget.select()} className="mono" />
      </label>
      <div className="secret-row">
        <CopyButton text={value} label="Copy" />
        <p className="secret-note">{note}</p>
      </div>
    </div>
  );
}
