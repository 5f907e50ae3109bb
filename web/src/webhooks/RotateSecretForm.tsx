// Rotating a configuration's secret: a new one is made here, shown once, confirmed as copied, and only
// then sent; deliveries from then on, retries included, are signed with it.
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { formatDateTime } from '../ui/format';
import { draftSecret, newSecretDraft, SecretChooser, type SecretDraft } from './SecretChooser';
import { checkSecret, COPY_REQUIRED, webhookFormErrors, type FormErrors } from './webhookRules';
import { focusFirstInvalid } from '../ui/Field';

interface RotateSecretProps {
  busy: boolean;
  error: unknown;
  onSave: (secret: string) => Promise<unknown>;
  onStart: () => void;
  rotatedAt: number | null;
}

/** Rotate: a new secret is made here, shown once, confirmed as copied, and only then sent. */
export function RotateSecretForm({ busy, error, onSave, onStart, rotatedAt }: RotateSecretProps) {
  const [draft, setDraft] = useState<SecretDraft | null>(null);
  const [checked, setChecked] = useState<FormErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const api = webhookFormErrors(error);
  // A try refused here hides what the service said of the one before.
  const localFailed = Boolean(checked?.secret || checked?.copied);
  const fieldErrors = localFailed && checked ? checked : api.fields;

  const start = () => {
    onStart();
    setChecked(null);
    setDraft(newSecretDraft());
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft) return;
    const secret = draftSecret(draft);
    const found: FormErrors = { secret: checkSecret(secret), copied: draft.copied ? undefined : COPY_REQUIRED };
    setChecked(found);
    if (found.secret || found.copied) {
      focusFirstInvalid(formRef.current);
      return;
    }
    try {
      await onSave(secret);
      setDraft(null); // sent: never shown again
    } catch {
      // the error is shown below the form; the secret stays so it can be sent again
    }
  };

  if (!draft) {
    return (
      <>
        <p className="wh-section-text">
          The secret signs every delivery. Concord never shows it after it is saved; if it is lost or leaked, rotate it. Deliveries sent after
          a rotation, retries included, are signed with the new secret.
        </p>
        {rotatedAt ? <Notice tone="success">Secret rotated at {formatDateTime(new Date(rotatedAt).toISOString())}. Update your receiver with the new one.</Notice> : null}
        <Button onClick={start}>Rotate secret</Button>
      </>
    );
  }
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Rotate secret">
      <SecretChooser draft={draft} onChange={setDraft} legend="New secret" secretError={fieldErrors.secret} copiedError={fieldErrors.copied} />
      <ErrorNote error={localFailed ? null : api.general} />
      <div className="wh-form-actions">
        <Button onClick={() => setDraft(null)} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={busy}>
          Save new secret
        </Button>
      </div>
    </form>
  );
}
