// A configuration's secret: where its last rotation stands, and the "Rotate secret" dialog — a new
// whsec_ secret made here (or pasted), shown once and confirmed as copied, sent to POST rotate-secret,
// then the end of the 24-hour overlap during which the old secret still signs beside the new one.
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorNote, Notice } from '../ui/Feedback';
import { focusFirstInvalid } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { useRotateSecret, type WebhookConfig } from './queries';
import { draftSecret, newSecretDraft, SecretChooser, type SecretDraft } from './SecretChooser';
import { checkSecret, COPY_REQUIRED, webhookFormErrors, type FormErrors } from './webhookRules';

/** Where the last rotation stands at `now`: its overlap running, over, or no rotation. */
export function rotationState(rotationEndsAt: string | null, now: number): 'overlap' | 'ended' | 'none' {
  if (!rotationEndsAt) return 'none';
  return Date.parse(rotationEndsAt) > now ? 'overlap' : 'ended';
}

/** The Secret card's content: what the secret does, the rotation's state, and the Rotate button. */
export function SecretSection({ config, readAt }: { config: WebhookConfig; readAt: number }) {
  const [open, setOpen] = useState(false);
  const state = rotationState(config.rotationEndsAt, readAt);
  return (
    <>
      <p className="wh-section-text">
        The secret signs every delivery. Concord never shows it after it is saved; if it is lost or leaked, rotate it. A rotation keeps deliveries verifiable
        while you update your receiver.
      </p>
      {state === 'overlap' ? (
        <Notice tone="info">
          Rotation in progress: until <strong>{formatDateTime(config.rotationEndsAt)}</strong> deliveries are signed with both the new and the previous secret.
        </Notice>
      ) : state === 'ended' ? (
        <p className="field-hint wh-rotation-ended">Last rotation: the previous secret stopped signing at {formatDateTime(config.rotationEndsAt)}.</p>
      ) : null}
      <Button onClick={() => setOpen(true)}>Rotate secret</Button>
      <Dialog open={open} title="Rotate secret" onClose={() => setOpen(false)}>
        {/* Mounted only while open: each opening makes a new secret and forgets the last outcome. */}
        {open ? <RotateSecretDialogBody config={config} onClose={() => setOpen(false)} /> : null}
      </Dialog>
    </>
  );
}

function RotateSecretDialogBody({ config, onClose }: { config: WebhookConfig; onClose: () => void }) {
  const rotate = useRotateSecret(config.id);
  const [draft, setDraft] = useState<SecretDraft>(newSecretDraft);
  const [checked, setChecked] = useState<FormErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const api = webhookFormErrors(rotate.error);
  // A try refused here hides what the service said of the one before.
  const localFailed = Boolean(checked?.secret || checked?.copied);
  const fieldErrors = localFailed && checked ? checked : api.fields;

  if (rotate.isSuccess) {
    return (
      <div className="wh-rotated">
        <Notice tone="success">
          Secret rotated. Until <strong>{formatDateTime(rotate.data.rotationEndsAt)}</strong>, deliveries carry Standard Webhooks signatures under both the new
          and the previous secret; after that only the new one signs.
        </Notice>
        <p>
          Put the new secret in your receiver before then. <code>x-service-signature</code> already uses the new secret.
        </p>
        <div className="actions">
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const secret = draftSecret(draft);
    const found: FormErrors = { secret: checkSecret(secret), copied: draft.copied ? undefined : COPY_REQUIRED };
    setChecked(found);
    if (found.secret || found.copied) {
      focusFirstInvalid(formRef.current);
      return;
    }
    rotate.mutate(secret, { onError: () => focusFirstInvalid(formRef.current) });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Rotate secret" className="wh-rotate">
      <p>
        The new secret signs deliveries as soon as you rotate. For <strong>24 hours</strong> the previous one keeps signing beside it: the{' '}
        <code>webhook-signature</code> header carries one <code>v1,</code> signature per secret, so your receiver keeps accepting deliveries with either secret
        while you switch it over. After 24 hours only the new secret signs. (Only <code>whsec_</code> secrets make these signatures;{' '}
        <code>x-service-signature</code> changes to the new secret at once.)
      </p>
      <SecretChooser draft={draft} onChange={setDraft} legend="New secret" secretError={fieldErrors.secret} copiedError={fieldErrors.copied} />
      <ErrorNote error={localFailed ? null : api.general} />
      <div className="actions">
        <Button onClick={onClose} disabled={rotate.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={rotate.isPending}>
          Rotate secret
        </Button>
      </div>
    </form>
  );
}
