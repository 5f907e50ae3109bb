// The webhooks area's pieces: event checkboxes, the secret chooser (generated in the browser or
// pasted, shown once, confirmed as copied), the signature how-to, and the delivery log. They take data
// and callbacks; the pages wire them to the query hooks.
import { useId, type ReactNode } from 'react';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { SecretReveal, StatusBadge } from '../ui/Misc';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import { describeError } from '../api/errors';
import type { WebhookDelivery, WebhookEvent } from './queries';
import { EVENTS, generateWebhookSecret } from './secret';

export function ActiveBadge({ active }: { active: boolean }) {
  return active ? <span className="badge badge-success wh-nowrap">Active</span> : <span className="badge badge-neutral wh-nowrap">Paused</span>;
}

export function EventList({ events }: { events: readonly string[] }) {
  return (
    <ul className="wh-event-list">
      {events.map((event) => (
        <li key={event} className="mono">
          {event}
        </li>
      ))}
    </ul>
  );
}

/** One checkbox per event, named by the event itself ("task.completed"), at least one required. */
export function EventCheckboxes({ value, onChange, error }: { value: readonly WebhookEvent[]; onChange: (events: WebhookEvent[]) => void; error?: string | undefined }) {
  const id = useId();
  const errorId = `${id}-error`;
  const toggle = (event: WebhookEvent, checked: boolean) => {
    const next = checked ? [...value, event] : value.filter((e) => e !== event);
    onChange(EVENTS.map((e) => e.value).filter((e) => next.includes(e)));
  };
  return (
    <fieldset className={`wh-events${error ? ' field-invalid' : ''}`}>
      <legend>Events</legend>
      {EVENTS.map((event) => (
        <div key={event.value} className="wh-event">
          <input
            type="checkbox"
            id={`${id}-${event.value}`}
            checked={value.includes(event.value)}
            onChange={(e) => toggle(event.value, e.currentTarget.checked)}
            aria-describedby={[`${id}-${event.value}-hint`, error ? errorId : ''].filter(Boolean).join(' ')}
            aria-invalid={error ? true : undefined}
          />
          <label htmlFor={`${id}-${event.value}`} className="mono">
            {event.value}
          </label>
          <span id={`${id}-${event.value}-hint`} className="field-hint">
            {event.description}
          </span>
        </div>
      ))}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export interface SecretDraft {
  mode: 'generate' | 'paste';
  generated: string;
  pasted: string;
  copied: boolean;
}

export const newSecretDraft = (): SecretDraft => ({ mode: 'generate', generated: generateWebhookSecret(), pasted: '', copied: false });
export const draftSecret = (draft: SecretDraft): string => (draft.mode === 'generate' ? draft.generated : draft.pasted);

interface SecretChooserProps {
  draft: SecretDraft;
  onChange: (draft: SecretDraft) => void;
  secretError?: string | undefined;
  copiedError?: string | undefined;
  legend?: string;
}

/**
 * Generate (default: `whsec_` + 32 random bytes, made here with crypto.getRandomValues) or paste a
 * secret; either way it is shown once and the buyer ticks "I have copied the secret" before sending.
 * Every change of the secret clears that tick.
 */
export function SecretChooser({ draft, onChange, secretError, copiedError, legend = 'Secret' }: SecretChooserProps) {
  const id = useId();
  const copiedHintId = `${id}-copied-hint`;
  const copiedErrorId = `${id}-copied-error`;
  return (
    <fieldset className={`wh-secret${secretError || copiedError ? ' field-invalid' : ''}`}>
      <legend>{legend}</legend>
      <div className="wh-modes">
        <label className="checkbox">
          <input type="radio" name={`${id}-mode`} checked={draft.mode === 'generate'} onChange={() => onChange({ ...draft, mode: 'generate', copied: false })} />
          Generate a secret
        </label>
        <label className="checkbox">
          <input type="radio" name={`${id}-mode`} checked={draft.mode === 'paste'} onChange={() => onChange({ ...draft, mode: 'paste', copied: false })} />
          Paste my own secret
        </label>
      </div>
      {draft.mode === 'generate' ? (
        <>
          <SecretReveal
            label="Signing secret"
            value={draft.generated}
            note={
              <>
                <strong>Copy it now: you will not see it again.</strong> Concord keeps it only to sign deliveries and never shows it.
              </>
            }
          />
          <Button variant="ghost" className="wh-regenerate" onClick={() => onChange({ ...draft, generated: generateWebhookSecret(), copied: false })}>
            Generate another
          </Button>
        </>
      ) : (
        <TextField
          label="Your secret"
          value={draft.pasted}
          onChange={(e) => onChange({ ...draft, pasted: e.currentTarget.value, copied: false })}
          className="mono"
          autoComplete="off"
          spellCheck={false}
          hint="16 to 256 characters. Use a long random string, e.g. whsec_ followed by 32 random bytes in base64. It is sent once and never shown again."
          error={secretError}
        />
      )}
      {draft.mode === 'generate' && secretError ? <p className="field-error">{secretError}</p> : null}
      <div className="wh-confirm">
        <input
          type="checkbox"
          id={`${id}-copied`}
          checked={draft.copied}
          onChange={(e) => onChange({ ...draft, copied: e.currentTarget.checked })}
          aria-describedby={[copiedHintId, copiedError ? copiedErrorId : ''].filter(Boolean).join(' ')}
          aria-invalid={copiedError ? true : undefined}
        />
        <label htmlFor={`${id}-copied`}>I have copied the secret</label>
      </div>
      <p id={copiedHintId} className="field-hint">
        Store it where your receiver can read it. Without it you cannot verify deliveries; if you lose it, rotate it.
      </p>
      {copiedError ? (
        <p id={copiedErrorId} className="field-error">
          {copiedError}
        </p>
      ) : null}
    </fieldset>
  );
}

const NODE_SAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (bytes), before any JSON parsing.
export function isFromConcord(rawBody, signatureHeader, secret) {
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex'));
  const received = Buffer.from(String(signatureHeader ?? '').trim());
  return received.length === expected.length && timingSafeEqual(received, expected);
}

// Express, with the body kept as bytes:
// app.post('/concord', express.raw({ type: 'application/json' }), (req, res) => {
//   const secret = process.env.CONCORD_WEBHOOK_SECRET;
//   if (!isFromConcord(req.body, req.get('x-service-signature'), secret)) return res.sendStatus(401);
//   res.sendStatus(204); // answer within 10 s, then handle JSON.parse(req.body)
// });`;

/** How a receiver checks that a request comes from Concord. */
export function SignatureHelp({ compact = false }: { compact?: boolean }) {
  const body: ReactNode = (
    <>
      <p>
        Every delivery is a <code>POST</code> with a JSON body and the header <code>x-service-signature: sha256=&lt;hex&gt;</code>, the
        HMAC-SHA256 of the exact body bytes keyed with your secret. Compute it over the raw body (before parsing it), keyed with the whole
        secret as you copied it, <code>whsec_</code> prefix included, and compare in constant time; refuse the request when they differ.
      </p>
      <p>
        <code>x-service-event</code> names the event and <code>x-service-delivery</code> the delivery (the same on a retry, so use it to ignore
        repeats). Answer 2xx within 10 s. A timeout, a network error or a 5xx is retried once 30 s later; a 4xx is not retried.
      </p>
      <pre className="wh-code" tabIndex={0} aria-label="Signature check in Node.js">
        <code>{NODE_SAMPLE}</code>
      </pre>
      <p className="field-hint">
        The Concord SDK does the same check: <code>verifyWebhookSignature(rawBody, header, secret)</code> from <code>@concord/sdk</code>.
      </p>
    </>
  );
  if (compact) {
    return (
      <details className="wh-help">
        <summary>How to verify the signature</summary>
        {body}
      </details>
    );
  }
  return body;
}

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' });

export interface RedeliverState {
  /** The delivery whose redelivery request is in flight. */
  sendingId: string | undefined;
  /** Deliveries queued again by this page, with when (the log itself shows what became of them). */
  queued: ReadonlyMap<string, number>;
  errors: ReadonlyMap<string, unknown>;
}

/** The delivery log: one row per delivery, newest first, with a Redeliver button each. */
export function DeliveryTable({ deliveries, onRedeliver, state }: { deliveries: WebhookDelivery[]; onRedeliver: (id: string) => void; state: RedeliverState }) {
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', cell: (row) => <span className="mono wh-nowrap">{row.event}</span> },
    { header: 'Status', cell: (row) => <span className="wh-nowrap"><StatusBadge status={row.status} /></span> },
    { header: 'Attempts', cell: (row) => row.attempts, align: 'right' },
    { header: 'Last status code', cell: (row) => (row.lastStatusCode ? <span className="mono">{row.lastStatusCode}</span> : '—'), align: 'right' },
    { header: 'Last error', cell: (row) => (row.lastError ? <span className="truncate" title={row.lastError}>{row.lastError}</span> : '—') },
    { header: 'Created', cell: (row) => <span className="wh-nowrap">{formatDateTime(row.createdAt)}</span>, wide: true },
    { header: 'Delivered', cell: (row) => <span className="wh-nowrap">{formatDateTime(row.deliveredAt)}</span>, wide: true },
    {
      header: 'Action',
      cell: (row) => {
        const error = state.errors.get(row.id);
        const queuedAt = state.queued.get(row.id);
        return (
          <div className="wh-redeliver">
            <Button onClick={() => onRedeliver(row.id)} busy={state.sendingId === row.id}>
              Redeliver
            </Button>
            {queuedAt !== undefined ? (
              <span className="wh-queued" role="status">
                Queued at {clock.format(queuedAt)} UTC
              </span>
            ) : null}
            {error ? (
              <p className="field-error" role="alert">
                {describeError(error)}
              </p>
            ) : null}
          </div>
        );
      },
    },
  ];
  return <Table caption="Delivery log" columns={columns} rows={deliveries} rowKey={(row) => row.id} />;
}
