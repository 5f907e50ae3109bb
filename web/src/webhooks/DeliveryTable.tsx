// The delivery log of a configuration: one row per delivery, newest first, with a Redeliver button each.
import { describeError } from '../api/errors';
import { Button } from '../ui/Button';
import { StatusBadge } from '../ui/StatusBadge';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import type { WebhookDelivery } from './queries';

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
