// The developers list: each app with its URL, whether it is active and has set its password, and the
// actions on it (regenerate its key, disable or enable it).
import { useState } from 'react';
import { describeError } from '../api/errors';
import { BreakableAddress } from '../ui/BreakableAddress';
import { Button } from '../ui/Button';
import { ConfirmButton } from '../ui/Dialog';
import { formatDateTime } from '../ui/format';
import type { Column } from '../ui/Table';
import { AdminTable } from './AdminTable';
import type { Developer } from './queries';

interface DeveloperTableProps {
  developers: Developer[];
  onRegenerate: (developer: Developer) => Promise<unknown>;
  onSetActive: (developer: Developer, isActive: boolean) => Promise<unknown>;
}

export function DeveloperTable({ developers, onRegenerate, onSetActive }: DeveloperTableProps) {
  const columns: Column<Developer>[] = [
    {
      header: 'App',
      cell: (d) => (
        <>
          <strong>{d.appName}</strong>
          <br />
          <span className="muted small">
            <BreakableAddress address={d.email} />
          </span>
        </>
      ),
    },
    {
      header: 'App URL',
      wide: true,
      cell: (d) => (
        <a href={d.appUrl} target="_blank" rel="noreferrer noopener" className="truncate">
          <BreakableAddress address={d.appUrl} />
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
            A new key is made and shown once. <strong>The old key stops working at once</strong>: {developer.appName} fails every SDK call until it is given the
            new one.
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
              Its API key gets 401 from now on, so its annotators cannot fetch or answer tasks, and {developer.email} cannot log in. You can enable it again
              later; the key stays the same.
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
      {enableError ? <p className="field-error">{describeError(enableError)}</p> : null}
    </div>
  );
}
