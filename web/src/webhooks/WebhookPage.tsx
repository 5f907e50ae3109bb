// /webhooks/:webhookId: one configuration — its settings (URL, events, active), secret rotation (a new
// secret made here, shown once, confirmed as copied, then sent), deletion, and the live delivery log
// with redelivery.
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Misc';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { ActiveBadge, DeliveryTable, draftSecret, EventCheckboxes, newSecretDraft, SecretChooser, SignatureHelp, type SecretDraft } from './components';
import {
  useDeleteWebhook,
  useDeliveries,
  useRedeliver,
  useUpdateWebhook,
  useWebhook,
  type WebhookChanges,
  type WebhookConfig,
  type WebhookEvent,
} from './queries';
import { apiFieldErrors, checkEvents, checkSecret, checkUrl, COPY_REQUIRED, explainedByFields, type FormErrors } from './secret';
import './webhooks.css';

export function WebhookPage() {
  const { webhookId = '' } = useParams();
  const webhook = useWebhook(webhookId);

  if (webhook.isPending) return <Loading label="Loading the webhook…" />;
  if (webhook.isError) {
    const missing = webhook.error instanceof ApiError && webhook.error.code === 'WEBHOOK_NOT_FOUND';
    return (
      <>
        <PageHeader title="Webhook" />
        {missing ? (
          <Card>
            <EmptyState title="This webhook does not exist">
              <p>It may have been deleted, or the link belongs to another account.</p>
              <p>
                <Link to="/webhooks">Back to webhooks</Link>
              </p>
            </EmptyState>
          </Card>
        ) : (
          <ErrorNote error={webhook.error} />
        )}
      </>
    );
  }
  return <WebhookDetail config={webhook.data} />;
}

function WebhookDetail({ config }: { config: WebhookConfig }) {
  const navigate = useNavigate();
  const settings = useUpdateWebhook(config.id);
  const rotation = useUpdateWebhook(config.id);
  const remove = useDeleteWebhook(config.id);
  return (
    <>
      <p className="wh-back">
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <PageHeader
        title="Webhook"
        description={<span className="wh-url">{config.url}</span>}
        actions={<ActiveBadge active={config.isActive} />}
      />
      {config.isActive ? null : (
        <Notice tone="warning">
          This webhook is paused: new events create no deliveries for it, and a redelivery fails with “configuration inactive” until you
          turn it back on.
        </Notice>
      )}
      <div className="grid-2">
        <Card title="Settings">
          <dl className="facts wh-facts">
            <dt>Created</dt>
            <dd>{formatDateTime(config.createdAt)}</dd>
            <dt>Id</dt>
            <dd className="mono">{config.id}</dd>
          </dl>
          <SettingsForm
            key={`${config.url}|${config.events.join(',')}|${config.isActive}`}
            config={config}
            busy={settings.isPending}
            error={settings.error}
            saved={settings.isSuccess}
            onSave={(changes) => settings.mutate(changes)}
          />
        </Card>
        <div>
          <Card title="Secret">
            <RotateSecret
              busy={rotation.isPending}
              error={rotation.error}
              onSave={(secret) => rotation.mutateAsync({ secret })}
              onStart={() => rotation.reset()}
              rotatedAt={rotation.isSuccess ? rotation.submittedAt : null}
            />
            <SignatureHelp compact />
          </Card>
          <Card title="Delete">
            <p className="wh-section-text">Concord stops sending events to this URL at once, and its delivery log is deleted with it.</p>
            <ConfirmButton
              label="Delete webhook"
              title="Delete this webhook?"
              message={
                <p>
                  Events will no longer be sent to <span className="wh-url">{config.url}</span>, and its delivery log is deleted. This cannot be
                  undone.
                </p>
              }
              confirmLabel="Delete webhook"
              onConfirm={async () => {
                await remove.mutateAsync();
                navigate('/webhooks', { state: { deletedUrl: config.url } });
              }}
            />
          </Card>
        </div>
      </div>
      <DeliveryLog configId={config.id} />
    </>
  );
}

interface SettingsFormProps {
  config: WebhookConfig;
  busy: boolean;
  error: unknown;
  saved: boolean;
  onSave: (changes: WebhookChanges) => void;
}

/** URL, events and the active switch; only what changed is sent. */
function SettingsForm({ config, busy, error, saved, onSave }: SettingsFormProps) {
  const [url, setUrl] = useState(config.url);
  const [events, setEvents] = useState<WebhookEvent[]>(config.events);
  const [isActive, setIsActive] = useState(config.isActive);
  const [checked, setChecked] = useState<FormErrors | null>(null);
  const [unchanged, setUnchanged] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errors: FormErrors = checked && Object.values(checked).some(Boolean) ? checked : apiFieldErrors(error);
  // Edited since the last save: the "saved" note no longer describes the form.
  const pending = url !== config.url || events.join() !== config.events.join() || isActive !== config.isActive;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FormErrors = { url: checkUrl(url), events: checkEvents(events) };
    setChecked(found);
    setUnchanged(false);
    if (found.url || found.events) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const changes: WebhookChanges = {};
    if (url.trim() !== config.url) changes.url = url.trim();
    if (events.join() !== config.events.join()) changes.events = events;
    if (isActive !== config.isActive) changes.isActive = isActive;
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
      <div className="wh-confirm">
        <input type="checkbox" id={`active-${config.id}`} checked={isActive} onChange={(e) => setIsActive(e.currentTarget.checked)} aria-describedby={`active-${config.id}-hint`} />
        <label htmlFor={`active-${config.id}`}>Active</label>
      </div>
      <p id={`active-${config.id}-hint`} className="field-hint">
        Untick to pause: events that happen while paused are not delivered later.
      </p>
      {error && !explainedByFields(error) ? <ErrorNote error={error} /> : null}
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

interface RotateSecretProps {
  busy: boolean;
  error: unknown;
  onSave: (secret: string) => Promise<unknown>;
  onStart: () => void;
  rotatedAt: number | null;
}

/** Rotate: a new secret is made here, shown once, confirmed as copied, and only then sent. */
function RotateSecret({ busy, error, onSave, onStart, rotatedAt }: RotateSecretProps) {
  const [draft, setDraft] = useState<SecretDraft | null>(null);
  const [checked, setChecked] = useState<FormErrors | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const fieldErrors = checked?.secret || checked?.copied ? checked : apiFieldErrors(error);

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
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
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
      {error && !explainedByFields(error) ? <ErrorNote error={error} /> : null}
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

function DeliveryLog({ configId }: { configId: string }) {
  const pages = useCursorStack();
  const log = useDeliveries(configId, pages.cursor, true);
  const redeliver = useRedeliver(configId);
  const [queued, setQueued] = useState<Map<string, number>>(new Map());
  const [errors, setErrors] = useState<Map<string, unknown>>(new Map());

  const onRedeliver = (id: string) => {
    setErrors((current) => withoutKey(current, id));
    redeliver.mutate(id, {
      onSuccess: () => setQueued((current) => new Map(current).set(id, Date.now())),
      onError: (error) => setErrors((current) => new Map(current).set(id, error)),
    });
  };
  const deliveries = log.data?.deliveries ?? [];
  return (
    <Card title="Delivery log" actions={log.isSuccess ? <span className="wh-live">Live · updates by itself</span> : null}>
      {log.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : log.isError ? (
        <ErrorNote error={log.error} />
      ) : deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet">
          <p>Each subscribed event creates a delivery here, with its status code and attempts.</p>
        </EmptyState>
      ) : (
        <>
          <DeliveryTable
            deliveries={deliveries}
            onRedeliver={onRedeliver}
            state={{
              sendingId: redeliver.isPending ? redeliver.variables : undefined,
              queued,
              errors,
            }}
          />
          <Pager page={pages.page} hasMore={Boolean(log.data?.hasMore)} onPrevious={pages.previous} onNext={() => pages.next(log.data?.nextCursor)} busy={log.isFetching && log.isPlaceholderData} />
        </>
      )}
    </Card>
  );
}

function withoutKey<V>(map: Map<string, V>, key: string): Map<string, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}
