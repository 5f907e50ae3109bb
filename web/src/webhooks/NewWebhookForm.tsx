// The "New webhook" form: URL, events, a secret generated here (a Standard Webhooks whsec_ secret, or one
// pasted) that is shown once and must be confirmed as copied before anything is sent — the API never
// returns a secret —, and the retry policy.
import { useRef, useState, type FormEvent } from 'react';
import { useIdempotencyKey } from '../api/idempotency';
import { Button } from '../ui/Button';
import { ErrorNote } from '../ui/Feedback';
import { focusFirstInvalid, TextField } from '../ui/Field';
import { EventCheckboxes } from './EventCheckboxes';
import type { NewWebhook, RetryPolicy, WebhookEvent } from './queries';
import { RetryPolicyChoice } from './RetryPolicyChoice';
import { draftSecret, newSecretDraft, SecretChooser, type SecretDraft } from './SecretChooser';
import { checkEvents, checkSecret, checkUrl, COPY_REQUIRED, webhookFormErrors, type FormErrors } from './webhookRules';

interface NewWebhookFormProps {
  onSubmit: (body: NewWebhook, idempotencyKey: string) => void;
  onCancel: () => void;
  busy: boolean;
  error: unknown;
}

export function NewWebhookForm({ onSubmit, onCancel, busy, error }: NewWebhookFormProps) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['task.completed']);
  const [secret, setSecret] = useState<SecretDraft>(newSecretDraft);
  const [retryPolicy, setRetryPolicy] = useState<RetryPolicy>('spec');
  const [checked, setChecked] = useState<FormErrors | null>(null);
  // The same body is retried with the same Idempotency-Key, so a lost response never creates two.
  const idempotency = useIdempotencyKey();
  const formRef = useRef<HTMLFormElement>(null);

  const api = webhookFormErrors(error);
  // A try refused here hides what the service said of the one before.
  const localFailed = checked !== null && Object.values(checked).some(Boolean);
  const errors: FormErrors = localFailed && checked ? checked : api.fields;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = draftSecret(secret);
    const found: FormErrors = {
      url: checkUrl(url),
      events: checkEvents(events),
      secret: checkSecret(value),
      copied: secret.copied ? undefined : COPY_REQUIRED,
    };
    setChecked(found);
    if (Object.values(found).some(Boolean)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    const body: NewWebhook = { url: url.trim(), events, secret: value, retryPolicy };
    onSubmit(body, idempotency.keyFor(body));
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="New webhook">
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/concord"
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        hint="Absolute http(s) URL. Concord POSTs each event there."
        error={errors.url}
      />
      <EventCheckboxes value={events} onChange={setEvents} error={errors.events} />
      <SecretChooser draft={secret} onChange={setSecret} secretError={errors.secret} copiedError={errors.copied} />
      <RetryPolicyChoice value={retryPolicy} onChange={setRetryPolicy} error={errors.retryPolicy} />
      <ErrorNote error={localFailed ? null : api.general} />
      <div className="wh-form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Create webhook
        </Button>
      </div>
    </form>
  );
}
