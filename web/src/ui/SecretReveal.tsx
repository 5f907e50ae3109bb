// A secret shown once (an API key, a webhook secret): read-only, selectable, with a copy button and a
// note that it will not come back; and, where it is shown in a dialog, the "I have copied it" tick that
// the dialog waits for before it can close (SecretDone).
import { useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './Button';
import { CopyButton } from './CopyButton';

interface SecretRevealProps {
  label: string;
  value: string;
  note: ReactNode;
  /** The Copy button put the secret on the clipboard: a dialog may tick "I have copied …" for the person. */
  onCopied?: () => void;
}

export function SecretReveal({ label, value, note, onCopied }: SecretRevealProps) {
  return (
    <div className="secret">
      <label>
        {label}
        <input readOnly value={value} onFocus={(event) => event.currentTarget.select()} className="mono" />
      </label>
      <div className="secret-row">
        <CopyButton text={value} label="Copy" onCopied={onCopied} />
        <p className="secret-note">{note}</p>
      </div>
    </div>
  );
}

interface SecretDoneProps {
  /** What was shown, in the tick's words: "the API key". */
  what: string;
  copied: boolean;
  onCopiedChange: (copied: boolean) => void;
  onDone: () => void;
}

/**
 * The tick "I have copied …" and the Done button of a dialog that shows a secret once. Done without the
 * tick says why it waits; the dialog (dismissible={copied}) hides its ✕ meanwhile and answers Escape with
 * its blockedMessage. The Copy button ticks it too (SecretReveal's onCopied).
 */
export function SecretDone({ what, copied, onCopiedChange, onDone }: SecretDoneProps) {
  const id = useId();
  const box = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState(false);
  const done = () => {
    if (copied) {
      onDone();
      return;
    }
    setRefused(true);
    box.current?.focus();
  };
  return (
    <>
      <div className="secret-confirm">
        <input
          ref={box}
          type="checkbox"
          id={`${id}-copied`}
          checked={copied}
          onChange={(event) => {
            onCopiedChange(event.currentTarget.checked);
            setRefused(false);
          }}
          aria-describedby={refused && !copied ? `${id}-error` : undefined}
          aria-invalid={refused && !copied ? true : undefined}
        />
        <label htmlFor={`${id}-copied`}>I have copied {what}</label>
      </div>
      {refused && !copied ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          Tick “I have copied {what}” first: once this closes, Concord cannot show it again.
        </p>
      ) : null}
      <div className="actions">
        <Button variant="primary" onClick={done}>
          Done
        </Button>
      </div>
    </>
  );
}
