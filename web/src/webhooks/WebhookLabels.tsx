// How a configuration's state and events read in the list and on its page.

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
