// How a configuration's state, retry policy and events read in the list and on its page.
import type { WebhookConfig } from './queries';
import { retryPolicyLabel } from './webhookRules';

/** Active, Paused (switched off by the buyer) or Disabled (switched off by Concord after 3 days of failures). */
export function ActiveBadge({ config }: { config: Pick<WebhookConfig, 'isActive' | 'disabledAt'> }) {
  if (config.isActive) return <span className="badge badge-success wh-nowrap">Active</span>;
  if (config.disabledAt) return <span className="badge badge-danger wh-nowrap">Disabled</span>;
  return <span className="badge badge-neutral wh-nowrap">Paused</span>;
}

export function RetryPolicyLabel({ policy }: { policy: WebhookConfig['retryPolicy'] }) {
  return <span className="wh-nowrap">{retryPolicyLabel(policy)}</span>;
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
