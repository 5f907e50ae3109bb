// /api-keys: the buyer's API keys for server-to-server calls (name, prefix, access, projects, expiry,
// created and by whom, last used), the form that creates one (its access, an optional limit to some of the
// organisation's projects and an optional last day; its secret shown once, in a dialog that closes only
// once the key was copied with its Copy button or "I have copied the API key" is ticked; Escape before then
// says why it stays), revocation behind a confirmation, and how to use a key.
import { API_KEY_MAX_PROJECTS, API_KEY_NAME_MAX_LENGTH, MAX_LIVE_API_KEYS, type ApiKeyAccess } from '@concord/contract';
import { useId, useMemo, useState, type FormEvent } from 'react';
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
import { useProjectChoices } from '../projects/queries';
import { ACCESS_CHOICES, accessLabel, expiryProblem, isExpired, keyBody, projectsProblem, scopeWords, todayUtc } from './keyForm';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKey, type CreatedApiKey } from './queries';
import './api-keys.css';

const lastUsedWords = (key: ApiKey) => (key.lastUsedAt ? `last used ${formatDateTime(key.lastUsedAt)}` : 'never used');

/** When a key stops working: never, a time ahead, or a time passed (marked expired: it answers 401). */
function Expiry({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  if (apiKey.expiresAt === null) return <span className="muted">Never</span>;
  if (!isExpired(apiKey, now)) return <>{formatDateTime(apiKey.expiresAt)}</>;
  return (
    <>
      <span className="badge badge-danger">expired</span> <span className="key-expired">{formatDateTime(apiKey.expiresAt)}</span>
    </>
  );
}

export function ApiKeysPage() {
  const pages = useCursorStack();
  const list = useApiKeys(pages.cursor);
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoked, setRevoked] = useState<ApiKey | null>(null);
  const keys = list.data?.apiKeys ?? [];
  const allShown = pages.page === 1 && !list.data?.hasMore;
  const projects = useProjectChoices();
  const projectNames = useMemo(() => (projects.data ? new Map(projects.data.map((project) => [project.id, project.name])) : undefined), [projects.data]);
  // When the list was read: a key whose expiry passed since is marked expired at the next refetch.
  const now = list.dataUpdatedAt;

  const columns: Column<ApiKey>[] = [
    {
      header: 'Name',
      cell: (key) => (
        <>
          <span className="key-name">{key.name}</span>
          <code className="mono key-prefix">{key.prefix}…</code>
          <span className="key-meta narrow-only">{lastUsedWords(key)}</span>
          <span className="key-meta narrow-only">
            {accessLabel(key.access)} · {scopeWords(key.projectIds, projectNames)} ·{' '}
            {key.expiresAt === null ? 'never expires' : `${isExpired(key, now) ? 'expired' : 'expires'} ${formatDateTime(key.expiresAt)}`}
          </span>
        </>
      ),
    },
    {
      header: 'Access',
      cell: (key) => <span className={`badge ${key.access === 'read' ? 'badge-info' : 'badge-neutral'}`}>{accessLabel(key.access)}</span>,
      nowrap: true,
      wide: true,
    },
    {
      header: 'Projects',
      cell: (key) => (key.projectIds === null ? <span className="muted">Whole organisation</span> : scopeWords(key.projectIds, projectNames)),
      wide: true,
    },
    { header: 'Expires', cell: (key) => <Expiry apiKey={key} now={now} />, wide: true },
    {
      header: 'Created',
      cell: (key) => (
        <>
          <span className="key-date">{formatDateTime(key.createdAt)}</span>
          <span className="key-meta">{key.createdBy ? `by ${key.createdBy}` : 'by an unrecorded member'}</span>
        </>
      ),
      wide: true,
    },
    {
      header: 'Last used',
      cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : <span className="muted">Never</span>),
      nowrap: true,
      wide: true,
    },
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
        description="Keys for your servers and scripts, the organisation’s rather than yours: a write key works with tasks, projects, golden tasks, exports, events, webhooks and money, a read key only reads; either may be limited to some projects and given a last day. A password change does not end them."
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
  const [localErrors, setLocalErrors] = useState<{ projectIds?: string | undefined; expiresAt?: string | undefined }>({});
  const [access, setAccess] = useState<ApiKeyAccess>('write');
  const [projectIds, setProjectIds] = useState<string[]>([]);
  const projects = useProjectChoices();
  const ids = useId();
  const apiErrors = mapFieldErrors(create.error, {
    fields: ['name', 'projectIds', 'expiresAt'] as const,
    codeFields: { INVALID_PROJECT: 'projectIds' },
    rules: {
      projectIds: () =>
        'One of the ticked projects is not this organisation’s any more (it may have been deleted meanwhile). Reload the page, then tick the projects again.',
      expiresAt: () => 'The last day must still be ahead: choose today or a later day, or leave it empty for a key that never expires.',
    },
  });
  const limitReached = create.error instanceof ApiError && create.error.code === 'LIMIT_EXCEEDED';
  const projectsError = localErrors.projectIds ?? apiErrors.fields.projectIds;

  const toggleProject = (id: string, ticked: boolean) =>
    setProjectIds((current) => (ticked ? [...current.filter((other) => other !== id), id] : current.filter((other) => other !== id)));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get('name') ?? '').trim();
    const expiryDay = String(form.get('expiresOn') ?? '');
    const problem = !name
      ? 'Name the key after what will use it, e.g. “Production ingest”.'
      : (tooLong(name, API_KEY_NAME_MAX_LENGTH, 'The name') ?? undefined);
    const found = { projectIds: projectsProblem(projectIds), expiresAt: expiryProblem(expiryDay) };
    setLocalError(problem);
    setLocalErrors(found);
    create.reset();
    if (problem || found.projectIds || found.expiresAt) {
      focusFirstInvalid(formElement);
      return;
    }
    const body = keyBody({ name, access, projectIds, expiryDay });
    try {
      const result = await create.mutateAsync({ body, idempotencyKey: idempotency.keyFor(body) });
      idempotency.forget();
      formElement.reset();
      setAccess('write');
      setProjectIds([]);
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
      <fieldset className="key-access">
        <legend>Access</legend>
        {ACCESS_CHOICES.map((choice) => (
          <label key={choice.value} className="key-choice">
            <input
              type="radio"
              name="access"
              value={choice.value}
              checked={access === choice.value}
              onChange={() => setAccess(choice.value)}
              aria-describedby={`${ids}-${choice.value}`}
            />
            <span>
              {choice.label}
              <span id={`${ids}-${choice.value}`} className="key-choice-hint">
                {choice.hint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="key-projects" aria-describedby={projectsError ? `${ids}-projects ${ids}-projects-error` : `${ids}-projects`}>
        <legend>Projects (optional)</legend>
        <p id={`${ids}-projects`} className="field-hint">
          Tick none for the whole organisation, or up to {API_KEY_MAX_PROJECTS} projects to limit the key to their tasks: other tasks are not found for it, and
          what spans the organisation (events, webhooks, money) answers it 403.
        </p>
        {projects.isPending ? <Loading label="Loading projects…" /> : null}
        <ErrorNote error={projects.error} />
        {projects.data && projects.data.length === 0 ? <p className="field-hint">No projects yet: the key reaches the whole organisation.</p> : null}
        {projects.data && projects.data.length > 0 ? (
          <div className="key-project-list">
            {projects.data.map((project) => (
              <label key={project.id} className="checkbox">
                <input
                  type="checkbox"
                  name="projectIds"
                  value={project.id}
                  checked={projectIds.includes(project.id)}
                  onChange={(event) => toggleProject(project.id, event.currentTarget.checked)}
                  aria-invalid={projectsError ? true : undefined}
                />
                {project.name}
              </label>
            ))}
          </div>
        ) : null}
        {projectsError ? (
          <p id={`${ids}-projects-error`} className="field-error">
            {projectsError}
          </p>
        ) : null}
      </fieldset>
      <TextField
        label="Last day (optional)"
        name="expiresOn"
        type="date"
        min={todayUtc()}
        hint="The key stops working at the end of this day, UTC; it stays listed until you revoke it. Empty: it never expires."
        error={localErrors.expiresAt ?? apiErrors.fields.expiresAt}
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
          A read-only key gets 403 on every change; a key limited to projects sees and creates only their tasks (others are not found for it) and gets 403 on
          what spans the organisation; an expired key gets 401 and stays listed until you revoke it.
        </li>
        <li>
          A key cannot manage the account: changing the password and creating, listing or revoking keys need this signed-in session (the API answers a key with
          403).
        </li>
      </ul>
    </div>
  );
}
