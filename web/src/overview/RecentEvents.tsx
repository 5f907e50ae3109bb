// The last events of the account (task.completed, task.failed, task.rejected, budget.low,
// budget.cap_reached) with what became of their webhook deliveries, newest first. A task is named by the
// start of its content and opens in the drawer, a failed one with why (no consensus, or expired), a
// rejected one with the result sent back and the refund, and a decision of a reopened task (revision 2) says
// it decided it again; a cap reached names its cap (a project's by its name, linked) and what was committed.
import { Link } from 'react-router';
import { capReachedWords } from '../billing/caps';
import { useProjectChoices } from '../projects/queries';
import { TaskRef } from '../tasks/TaskRef';
import { formatResult } from '../tasks/taskFormat';
import { rejectedEventWords } from '../tasks/review';
import { failureReasonLabel } from '../tasks/vocabulary';
import { Table, type Column } from '../ui/Table';
import { formatCents, formatDateTime } from '../ui/format';
import type { RecentEvent } from './queries';

const TYPE_BADGES: Record<string, string> = {
  'task.completed': 'badge-success',
  'task.failed': 'badge-danger',
  'task.rejected': 'ov-badge-warning',
  'budget.low': 'ov-badge-warning',
  'budget.cap_reached': 'badge-danger',
};

type Delivery = RecentEvent['deliveries'][number];

/** "No webhook", "Delivered", "1 delivered · 1 failed (HTTP 404)", "Pending (2 attempts)". */
export function deliverySummary(deliveries: readonly Delivery[]): string {
  if (deliveries.length === 0) return 'No webhook subscribed';
  const of = (status: Delivery['status']) => deliveries.filter((d) => d.status === status);
  const delivered = of('DELIVERED');
  const failed = of('FAILED');
  const pending = of('PENDING');
  const codes = [...new Set(failed.map((d) => d.lastStatusCode).filter((code): code is number => typeof code === 'number'))];
  const failedText = `failed${codes.length ? ` (HTTP ${codes.join(', ')})` : ''}`;
  if (deliveries.length === 1) {
    const [only] = deliveries;
    if (only?.status === 'DELIVERED') return 'Delivered';
    if (only?.status === 'FAILED') return `Failed after ${only.attempts} attempt${only.attempts === 1 ? '' : 's'}${codes.length ? ` (HTTP ${codes[0]})` : ''}`;
    return only && only.attempts > 0 ? `Retrying (${only.attempts} attempt${only.attempts === 1 ? '' : 's'} so far)` : 'Pending';
  }
  return [
    delivered.length ? `${delivered.length} delivered` : '',
    failed.length ? `${failed.length} ${failedText}` : '',
    pending.length ? `${pending.length} pending` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

function deliveryTone(deliveries: readonly Delivery[]): string {
  if (deliveries.some((d) => d.status === 'FAILED')) return 'ov-delivery-failed';
  if (deliveries.some((d) => d.status === 'PENDING')) return 'ov-delivery-pending';
  return deliveries.length ? 'ov-delivery-ok' : 'ov-delivery-none';
}

function subject(event: RecentEvent) {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  if (event.taskId) {
    return (
      <>
        <TaskRef taskId={event.taskId} />
        {/* The result in the words of its kind (task.completed names every kind but single choice): "B is better". */}
        {typeof payload.result === 'string' ? (
          <span className="ov-muted"> → {formatResult(payload.result, typeof payload.answerKind === 'string' ? payload.answerKind : undefined)}</span>
        ) : null}
        {/* Why a task failed: "Expired" (its deadline passed) or "No consensus". */}
        {event.type === 'task.failed' && typeof payload.reason === 'string' ? <span className="ov-muted"> → {failureReasonLabel(payload.reason)}</span> : null}
        {event.type === 'task.rejected' ? <span className="ov-muted"> → {rejectedEventWords(payload)}</span> : null}
        {payload.revision === 2 ? <span className="ov-muted"> (decided again)</span> : null}
      </>
    );
  }
  if (event.type === 'budget.cap_reached') return <CapReached payload={payload} />;
  if (typeof payload.creditBalance === 'number') return <span>Balance {formatCents(payload.creditBalance)}</span>;
  return <span className="ov-muted">—</span>;
}

/** budget.cap_reached: which cap (a project's named from the project list, and linked), and what was committed. */
function CapReached({ payload }: { payload: Record<string, unknown> }) {
  const projects = useProjectChoices();
  const projectId = payload.scope === 'project' && typeof payload.projectId === 'string' ? payload.projectId : null;
  const name = projectId ? projects.data?.find((project) => project.id === projectId)?.name : undefined;
  const words = capReachedWords(payload, name);
  return projectId && name ? (
    <span>
      <Link to={`/projects/${projectId}`}>{name}</Link>
      {words.slice(name.length)}
    </span>
  ) : (
    <span>{words}</span>
  );
}

const columns: Column<RecentEvent>[] = [
  { header: 'Event', nowrap: true, cell: (event) => <span className={`badge ${TYPE_BADGES[event.type] ?? 'badge-neutral'}`}>{event.type}</span> },
  { header: 'Task', cell: subject },
  { header: 'Time', nowrap: true, cell: (event) => <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time> },
  { header: 'Webhook delivery', cell: (event) => <span className={deliveryTone(event.deliveries)}>{deliverySummary(event.deliveries)}</span> },
];

export function RecentEvents({ events }: { events: RecentEvent[] }) {
  return (
    <div className="ov-events">
      <Table caption="Recent events" columns={columns} rows={events} rowKey={(event) => event.id} />
    </div>
  );
}
