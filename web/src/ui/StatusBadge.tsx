// A status of the API (a task's, a deposit's, a delivery's, a payout's) as a coloured badge.
const STATUS_TONES: Record<string, string> = {
  PENDING: 'neutral',
  VALIDATING: 'info',
  COMPLETED: 'success',
  SUCCEEDED: 'success',
  DELIVERED: 'success',
  PAID: 'success',
  FAILED: 'danger',
  REJECTED: 'danger',
  CANCELLED: 'neutral',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${STATUS_TONES[status] ?? 'neutral'}`}>{status}</span>;
}
