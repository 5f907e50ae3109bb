// The delivery log of a configuration: one row per delivery, newest first, with the task it is for and a
// Redeliver button each.
import { describeError } from '../api/errors';
import { TaskRef } from '../tasks/TaskRef';
import { Button } from '../ui/Button';
import { StatusBadge } from '../ui/StatusBadge';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import { LongText } from '../ui/LongText';
import type { WebhookDelivery } from './queries';

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' });

export interface RedeliverState {
  /** The delivery whose redelivery request is in flight. */
  sendingId: string | undefined;
  /** Deliveries queued again by this page, with when (the log itself shows what became of them). */
  queued: ReadonlyMap<string, number>;
  errors: ReadonlyMap<string, unknown>;
}

interface DeliveryTableProps {
  deliveries: WebhookDelivery[];
  /** Each delivery's task (null: a budget.low event), once known; see useDeliveryTasks. */
  tasks: ReadonlyMap<string, string | null> | undefined;
  /** Absent for a role that may not redeliver (webhooks:write): the table then has no Action column. */
  onRedeliver?: ((id: string) => void) | undefined;
  state: RedeliverState;
}

function subject(row: WebhookDelivery, tasks: DeliveryTableProps['tasks']) {
  if (row.event === 'budget.low') return <span className="muted">Your balance</span>;
  if (row.event === 'budget.cap_reached') return <span className="muted">A spending cap</span>;
  if (row.event === 'ping') return <span className="muted">Test event</span>;
  const taskId = tasks?.get(row.id);
  if (taskId) {
    return (
      <span className="wh-task">
        <TaskRef taskId={taskId} length={40} />
      </span>
    );
  }
  return (
    <span className="muted" title={tasks ? 'Its event is not among your latest 300 events.' : undefined}>
      {tasks ? '—' : '…'}
    </span>
  );
}

/** The delivery log: one row per delivery, newest first, with a Redeliver button each. */
export function DeliveryTable({ deliveries, tasks, onRedeliver, state }: DeliveryTableProps) {
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', cell: (row) => <span className="mono wh-nowrap">{row.event}</span> },
    { header: 'Task', cell: (row) => subject(row, tasks) },
    {
      header: 'Status',
      cell: (row) => (
        <span className="wh-nowrap">
          <StatusBadge status={row.status} />
        </span>
      ),
    },
    { header: 'Attempts', cell: (row) => row.attempts, align: 'right' },
    { header: 'Last status code', cell: (row) => (row.lastStatusCode ? <span className="mono">{row.lastStatusCode}</span> : '—'), align: 'right' },
    { header: 'Last error', cell: (row) => (row.lastError ? <LongText text={row.lastError} limit={80} /> : '—') },
    { header: 'Created', cell: (row) => <span className="wh-nowrap">{formatDateTime(row.createdAt)}</span>, wide: true },
    { header: 'Delivered', cell: (row) => <span className="wh-nowrap">{formatDateTime(row.deliveredAt)}</span>, wide: true },
  ];
  if (onRedeliver)
    columns.push({
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
    });
  return <Table caption="Delivery log" columns={columns} rows={deliveries} rowKey={(row) => row.id} />;
}
