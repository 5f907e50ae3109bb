// Developers (the apps whose annotators answer tasks): the list, a new developer (its API key shown
// once, an invite e-mail queued), a regenerated key (shown once; the old one stops at once) and
// disabling or enabling an account.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { ConfirmButton, Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card, PageHeader, SecretReveal } from '../ui/Misc';
import type { Column } from '../ui/Table';
import { AdminTable } from './AdminTable';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { describeAdminError, isHttpUrl, newIdempotencyKey } from './common';
import {
  useCreateDeveloper,
  useDevelopers,
  useEnvironment,
  useRegenerateDeveloperKey,
  useSetDeveloperActive,
  type Developer,
  type NewDeveloper,
} from './queries';
import './admin.css';

export function DevelopersPage() {
  const [creating, setCreating] = useState(false);
  const [newKey, setNewKey] = useState<{ appName: string; apiKey: string } | null>(null);
  const pages = useCursorStack();
  const developers = useDevelopers(pages.cursor);
  const regenerate = useRegenerateDeveloperKey();
  const setActive = useSetDeveloperActive();

  return (
    <>
      <PageHeader
        title="Developers"
        description="Apps whose annotators answer tasks through the SDK. Each has one API key; its developer sets a password from the invite e-mail."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New developer
          </Button>
        }
      />
      <Card>
        {developers.isPending ? (
          <Loading label="Loading developers…" />
        ) : developers.isError ? (
          <ErrorNote error={developers.error} />
        ) : developers.data.developers.length === 0 && pages.page === 1 ? (
          <EmptyState title="No developers yet">
            <p>Create one to hand an app its API key.</p>
          </EmptyState>
        ) : (
          <>
            <DeveloperTable
              developers={developers.data.developers}
              onRegenerate={async (developer) => {
                const result = await regenerate.mutateAsync(developer.id);
                setNewKey({ appName: developer.appName, apiKey: result.apiKey });
              }}
              onSetActive={(developer, isActive) => setActive.mutateAsync({ id: developer.id, isActive })}
            />
            <Pager
              page={pages.page}
              hasMore={developers.data.hasMore}
              busy={developers.isFetching}
              onPrevious={pages.previous}
              onNext={() => pages.next(developers.data.nextCursor)}
            />
          </>
        )}
      </Card>
      <NewDeveloperDialog open={creating} onClose={() => setCreating(false)} />
      <Dialog open={newKey !== null} title={`${newKey?.appName ?? ''} has a new key`} onClose={() => setNewKey(null)}>
        {newKey ? (
          <>
            <SecretReveal
              label="API key"
              value={newKey.apiKey}
              note="Shown once: copy it now and hand it to the developer. The old key already stopped working."
            />
            <div className="actions">
              <Button variant="primary" onClick={() => setNewKey(null)}>
                Done
              </Button>
            </div>
          </>
        ) : null}
      </Dialog>
    </>
  );
}

interface DeveloperTableProps {
  developers: Developer[];
  onRegenerate: (developer: Developer) => Promise<unknown>;
  onSetActive: (developer: Developer, isActive: boolean) => Promise<unknown>;
}

function DeveloperTable({ developers, onRegenerate, onSetActive }: DeveloperTableProps) {
  const columns: Column<Developer>[] = [
    {
      header: 'App',
      cell: (d) => (
        <>
          <strong>{d.appName}</strong>
          <br />
          <span className="muted small">{d.email}</span>
        </>
      ),
    },
    {
      header: 'App URL',
      wide: true,
      cell: (d) => (
        <a href={d.appUrl} target="_blank" rel="noreferrer noopener" className="truncate">
          {d.appUrl}
        </a>
      ),
    },
    {
      header: 'Status',
      cell: (d) => (
        <span className="badges nowrap">
          {d.isActive ? <span className="badge badge-success">Active</span> : <span className="badge badge-danger">Disabled</span>}
          {d.hasPassword ? null : (
            <span className="badge badge-neutral" title="The developer has not used the invite to set a password yet">
              Invite pending
            </span>
          )}
        </span>
      ),
    },
    { header: 'Created', wide: true, cell: (d) => <span className="nowrap">{formatDateTime(d.createdAt)}</span> },
    {
      header: 'Actions',
      align: 'right',
      cell: (d) => <DeveloperActions developer={d} onRegenerate={onRegenerate} onSetActive={onSetActive} />,
    },
  ];
  return <AdminTable caption="Developers" columns={columns} rows={developers} rowKey={(d) => d.id} />;
}

function DeveloperActions({ developer, onRegenerate, onSetActive }: { developer: Developer } & Omit<DeveloperTableProps, 'developers'>) {
  const [enableError, setEnableError] = useState<unknown>(null);
  const [enabling, setEnabling] = useState(false);
  const enable = async () => {
    setEnabling(true);
    setEnableError(null);
    try {
      await onSetActive(developer, true);
    } catch (caught) {
      setEnableError(caught);
    } finally {
      setEnabling(false);
    }
  };
  return (
    <div className="row-actions">
      <ConfirmButton
        label="Regenerate key"
        title={`Regenerate the API key of ${developer.appName}?`}
        message={
          <p>
            A new key is made and shown once. <strong>The old key stops working at once</strong>: {developer.appName} fails every SDK call until
            it is given the new one.
          </p>
        }
        confirmLabel="Regenerate key"
        onConfirm={() => onRegenerate(developer)}
      />
      {developer.isActive ? (
        <ConfirmButton
          label="Disable"
          title={`Disable ${developer.appName}?`}
          message={
            <p>
              Its API key gets 401 from now on, so its annotators cannot fetch or answer tasks, and {developer.email} cannot log in. You can
              enable it again later; the key stays the same.
            </p>
          }
          confirmLabel="Disable developer"
          onConfirm={() => onSetActive(developer, false)}
        />
      ) : (
        <Button onClick={enable} busy={enabling}>
          Enable
        </Button>
      )}
      {enableError ? <p className="field-error">{describeAdminError(enableError)}</p> : null}
    </div>
  );
}

interface Created {
  email: string;
  appName: string;
  apiKey: string;
}

function NewDeveloperDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateDeveloper();
  const environment = useEnvironment();
  const [created, setCreated] = useState<Created | null>(null);
  const [localErrors, setLocalErrors] = useState<Partial<Record<keyof NewDeveloper, string>>>({});
  // One key per filled-in form: a retry after a lost response does not create a second developer.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const close = () => {
    onClose();
    setCreated(null);
    setLocalErrors({});
    create.reset();
    setIdempotencyKey(newIdempotencyKey());
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body: NewDeveloper = {
      email: String(form.get('email') ?? '').trim(),
      appName: String(form.get('appName') ?? '').trim(),
      appUrl: String(form.get('appUrl') ?? '').trim(),
    };
    const errors: Partial<Record<keyof NewDeveloper, string>> = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(body.email)) errors.email = 'Enter the developer’s e-mail address.';
    if (!body.appName) errors.appName = 'Enter the app’s name.';
    if (!isHttpUrl(body.appUrl)) errors.appUrl = 'Enter an absolute address starting with http:// or https://.';
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    create.reset();
    try {
      const result = await create.mutateAsync({ body, idempotencyKey });
      setCreated({ email: result.developer.email, appName: result.developer.appName, apiKey: result.developer.apiKey });
    } catch {
      // Shown next to the fields below; a changed form gets a fresh key.
      setIdempotencyKey(newIdempotencyKey());
    }
  };

  const apiError = create.error instanceof ApiError ? create.error : null;
  const fields = apiError?.fieldErrors() ?? {};
  const emailTaken = apiError?.code === 'EMAIL_TAKEN';
  const fieldError = (name: keyof NewDeveloper) => localErrors[name] ?? (name === 'email' && emailTaken ? describeAdminError(apiError) : fields[name]);
  const generalError = create.error && !emailTaken && !(apiError?.code === 'VALIDATION_ERROR' && Object.keys(fields).length > 0) ? create.error : null;

  return (
    <Dialog open={open} title={created ? `${created.appName} is ready` : 'New developer'} onClose={close}>
      {created ? (
        <>
          <SecretReveal
            label="API key"
            value={created.apiKey}
            note="Shown once: copy it now and hand it to the developer. It cannot be shown again, only regenerated."
          />
          <Notice tone="info">
            An invite e-mail was queued to <strong>{created.email}</strong>: its single-use link lets the developer set a password and rotate the key
            themselves.
            {environment.data && environment.data !== 'production' ? (
              <>
                {' '}
                Without SMTP it stays in the <Link to="/admin/outbox">e-mail outbox</Link>.
              </>
            ) : null}
          </Notice>
          <div className="actions">
            <Button variant="primary" onClick={close}>
              Done
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate aria-label="New developer">
          <TextField label="E-mail" name="email" type="email" autoComplete="off" required maxLength={254} error={fieldError('email')} />
          <TextField label="App name" name="appName" required maxLength={200} error={fieldError('appName')} />
          <TextField
            label="App URL"
            name="appUrl"
            type="url"
            required
            maxLength={2048}
            placeholder="https://"
            hint="The app’s public address, starting with http:// or https://."
            error={fieldError('appUrl')}
          />
          {generalError ? <p className="error-note" role="alert">{describeAdminError(generalError)}</p> : null}
          <div className="actions">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary" busy={create.isPending}>
              Create developer
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
