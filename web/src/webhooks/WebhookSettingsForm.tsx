// A configuration's URL, events, retry policy and active switch; only what changed is sent (PATCH).
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { focusFirstInvalid, TextField } from '../ui/Field';
import { EventCheckboxes } from './EventCheckboxes';
import type { RetryPolicy, WebhookChanges, WebhookConfig, WebhookEvent } from './queries';
import { RetryPolicyChoice } from './RetryPolicyChoice';
import { checkEvents, checkUrl, webhookFormErrors, type FormErrors } from './webhookRules';

interface SettingsFormProps {
  config: WebhookConfig;
  busy: boolean;
  error: unknown;
  saved: boolean;
  onSave: (changes: WebhookChanges) => void;
}

/** URL, events, retry policy and the active switch; only what changed is sent. */
export function WebhookSettingsForm({ config, busy, error, saved, onSave }: SettingsFormProps) {
  const [url, setUrl] = useState(config.url);
  const [events, setEvents] = useState<WebhookEvent[]>(config.events);
  const [isActive, setIsActive] = useState(config.isActive);
  const [retryPolicy, setRetryPolicy] = useState<RetryPolicy>(config.retryPolicy);
  const [checked, setChecked] = useState<FormErrors | null>(null);
  const [unchanged, setUnchanged] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const api = webhookFormErrors(error);
  // A try refused here hides what the service said of the one before.
  const localFailed = checked !== null && Object.values(checked).some(Boolean);
  const errors: FormErrors = localFailed && checked ? checked : api.fields;
  // Edited since the last save: the "saved" note no longer describes the form.
  const pending = url !== config.url || events.join() !== config.events.join() || isActive !== config.isActive || retryPolicy !== config.retryPolicy;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FormErrors = { url: checkUrl(url), events: checkEvents(events) };
    setChecked(found);
    setUnchanged(false);
    if (found.url || found.events) {
      focusFirstInvalid(formRef.current);
      return;
    }
    const changes: WebhookChanges = {};
    if (url.trim() !== config.url) changes.url = url.trim();
    if (events.join() !== config.events.join()) changes.events = events;
    if (isActive !== config.isActive) changes.isActive = isActive;
    if (retryPolicy !== config.retryPolicy) changes.retryPolicy = retryPolicy;
    if (Object.keys(changes).length === 0) {
      setUnchanged(true);
      return;
    }
    onSave(changes);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Webhook settings" className="wh-settings">
      <TextField
        label="Endpoint URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        error={errors.url}
      />
      <EventCheckboxes value={events} onChange={setEvents} error={errors.events} />
      <RetryPolicyChoice value={retryPolicy} onChange={setRetryPolicy} error={errors.retryPolicy} />
      <div className="wh-confirm">
        <input
          type="checkbox"
          id={`active-${config.id}`}
          checked={isActive}
          onChange={(e) => setIsActive(e.currentTarget.checked)}
          aria-describedby={`active-${config.id}-hint`}
        />
        <label htmlFor={`active-${config.id}`}>Active</label>
      </div>
      <p id={`active-${config.id}-hint`} className="field-hint">
        Untick to pause: events that happen while paused are not delivered later.
      </p>
      <ErrorNote error={localFailed || unchanged ? null : api.general} />
      {unchanged ? <Notice tone="info">Nothing has changed.</Notice> : null}
      {saved && !unchanged && !pending ? <Notice tone="success">Changes saved.</Notice> : null}
      <div className="wh-form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
