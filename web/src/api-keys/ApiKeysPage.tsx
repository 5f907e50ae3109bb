// /api-keys: the buyer's API keys for server-to-server calls (name, prefix, created, last used), the form
// that creates one (its secret shown once, in a dialog that closes only once the key was copied with its
// Copy button or "I have copied the API key" is ticked; Escape before then says why it stays), revocation
// behind a confirmation, and how to use a key.
import { API_KEY_NAME_MAX_LENGTH, MAX_LIVE_API_KEYS } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/errors';
import { mapFieldErrors } from '../api/fieldErrors';
import { useIdempotencyKey } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { BreakableAddress } from '../ui/BreakableAddress';
import { Button } from '../ui/Button';
import { ConfirmButton, Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { focusFirstInvalid, TextField } from '../ui/Field';
import { tooLong } from '../ui/limits';
import { Card, PageHeader } from '../ui/Page';
import { SecretDone, SecretReveal } from '../ui/SecretReveal';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKey, type CreatedApiKey } from './queries';
import './api-keys.css';

const lastUsedWords = (key: ApiKey) => (key.lastUsedAt ? `last used ${formatDateTime(key.lastUsedAt)}` : 'never used');

export function ApiKeysPage() {
  const pages = useCursorStack();
  const list = useApiKeys(pages.cursor);
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoked, setRevoked] = useState<ApiKey | null>(null);
  const keys = list.data?.apiKeys ?? [];
  const allShown = pages.page === 1 && !list.data?.hasMore;

  const columns: Column<ApiKey>[] = [
    {
      header: 'Name',
      cell: (key) => (
        <>
          <span className="key-name">{key.name}</span>
          <span className="key-meta narrow-only">
            <code className="mono">{key.prefix}…</code> · {lastUsedWords(key)}
          </span>
        </>
      ),
    },
    { header: 'Key', cell: (key) => <code className="mono key-prefix">{key.prefix}…</code>, nowrap: true, wide: true },
    { header: 'Created', cell: (key) => formatDateTime(key.createdAt), wide: true },
    { header: 'Last used', cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : <span className="muted">Never</span>), wide: true },
    {
      header: 'Actions',
      cell: (key) => (
        <ConfirmButton
          label="Revoke"
          accessibleLabel={`Revoke ${key.name}`}
          title="Revoke this API key?"
          confirmLabel="Revoke key"
          onConfirm={async () => {
            await revoke.mutateAsync(key.id);
            setRevoked(key);
          }}
          message={
            <p>
              “{key.name}” (<code className="mono">{key.prefix}…</code>) stops working at once, on every server: whatever uses it gets 401 from its next
              request. This cannot be undone; create a new key to replace it.
            </p>
          }
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for your servers and scripts: each acts as your account on every buyer route (tasks, imports, projects, webhooks, billing, exports), like a session that a password change does not end."
      />
      {revoked ? (
        <Notice tone="success">
          “{revoked.name}” (<code className="mono">{revoked.prefix}…</code>) is revoked.
        </Notice>
      ) : null}
      <Card title="New key">
        <NewKeyForm
          atLimit={allShown && keys.length >= MAX_LIVE_API_KEYS}
          onCreated={(key) => {
            setCopied(false);
            setRevoked(null);
            setCreated(key);
            pages.reset();
          }}
        />
      </Card>
      <Card title="Your keys">
        {list.isPending ? <Loading label="Loading API keys…" /> : null}
        <ErrorNote error={list.error} />
        {list.data && keys.length === 0 && pages.page === 1 ? (
          <EmptyState title="No API keys yet">
            <p>Create one for each server or script that calls Concord, so you can revoke one without touching the others.</p>
          </EmptyState>
        ) : null}
        {keys.length > 0 ? <Table caption="Your API keys" columns={columns} rows={keys} rowKey={(key) => key.id} /> : null}
        <Pager
          page={pages.page}
          hasMore={list.data?.hasMore ?? false}
          busy={list.isFetching}
          onPrevious={pages.previous}
          onNext={() => pages.next(list.data?.nextCursor)}
        />
        {list.data && allShown ? (
          <p className="field-hint">
            {keys.length} of {MAX_LIVE_API_KEYS} keys used. “Last used” is updated at most once a minute.
          </p>
        ) : null}
      </Card>
      <Card title="Using a key">
        <KeyUsage />
      </Card>
      <Dialog
        open={created !== null}
        title={created ? `${created.name} is ready` : 'New key'}
        onClose={() => setCreated(null)}
        dismissible={copied}
        blockedMessage="Copy the key first: it is shown only once. Once it is copied, or “I have copied the API key” is ticked, Escape closes this."
      >
        {created ? (
          <>
            <SecretReveal
              label="API key"
              value={created.secret}
              onCopied={() => setCopied(true)}
              note={
                <>
                  <strong>You will not see this key again:</strong> copy it now and keep it in your secrets store. Concord keeps only a digest of it, so it
                  cannot be shown again, only revoked and replaced.
                </>
              }
            />
            <SecretDone what="the API key" copied={copied} onCopiedChange={setCopied} onDone={() => setCreated(null)} />
          </>
        ) : null}
      </Dialog>
    </>
  );
}

function NewKeyForm({ atLimit, onCreated }: { atLimit: boolean; onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  // One key per distinct name, kept after an error: a retry after a lost answer gets the same key back
  // (and its secret) instead of creating a second one.
  const idempotency = useIdempotencyKey();
  const [localError, setLocalError] = useState<string | undefined>();
  const apiErrors = mapFieldErrors(create.error, { fields: ['name'] as const });
  const limitReached = create.error instanceof ApiError && create.error.code === 'LIMIT_EXCEEDED';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const name = String(new FormData(formElement).get('name') ?? '').trim();
    const problem = !name
      ? 'Name the key after what will use it, e.g. “Production ingest”.'
      : (tooLong(name, API_KEY_NAME_MAX_LENGTH, 'The name') ?? undefined);
    setLocalError(problem);
    create.reset();
    if (problem) {
      focusFirstInvalid(formElement);
      return;
    }
    try {
      const result = await create.mutateAsync({ name, idempotencyKey: idempotency.keyFor({ name }) });
      idempotency.forget();
      formElement.reset();
      onCreated(result.apiKey);
    } catch {
      // Shown next to the field or below the form from create.error.
      focusFirstInvalid(formElement);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New API key" className="key-form">
      <TextField
        label="Name"
        name="name"
        required
        autoComplete="off"
        limit={API_KEY_NAME_MAX_LENGTH}
        hint="What will use it, so you know which key to revoke: “Production ingest”, “Nightly export”."
        error={localError ?? apiErrors.fields.name}
      />
      {limitReached ? (
        <p className="error-note" role="alert">
          You already have {MAX_LIVE_API_KEYS} API keys, the most an account can have. Revoke one you no longer use, then create this one.
        </p>
      ) : (
        <ErrorNote error={apiErrors.general} />
      )}
      {atLimit && !limitReached ? <p className="field-hint">You have {MAX_LIVE_API_KEYS} keys, the most an account can have: revoke one first.</p> : null}
      <Button type="submit" variant="primary" busy={create.isPending}>
        Create key
      </Button>
    </form>
  );
}

/** How to send a key, what it can do and what it cannot. */
function KeyUsage() {
  const sandbox = useMeta().data?.paymentProvider === 'sandbox';
  const prefix = sandbox ? 'cnc_test_' : 'cnc_live_';
  const curl = `curl -H "Authorization: Bearer $CONCORD_API_KEY" ${window.location.origin}/api/v1/tasks`;
  return (
    <div className="key-usage">
      <p>
        Send the key as a bearer token, exactly like a session token. Keys start with <code className="mono">{prefix}</code>
        {sandbox ? ' on this service (sandbox payments; with Stripe they start with cnc_live_)' : ''}, so secret scanners can spot one committed by mistake.
      </p>
      <pre className="key-curl mono">
        <BreakableAddress address={curl} />
      </pre>
      <ul>
        <li>A key keeps working when your password changes; revoke it here when a server no longer needs it or it may have leaked.</li>
        <li>
          A key cannot manage the account: changing the password and creating, listing or revoking keys need this signed-in session (the API answers a key with
          403).
        </li>
      </ul>
    </div>
  );
}
