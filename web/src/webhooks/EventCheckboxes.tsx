// The events a configuration subscribes to: one checkbox per event, at least one required.
import { useId } from 'react';
import type { WebhookEvent } from './queries';
import { EVENTS } from './webhookRules';

/** One checkbox per event, named by the event itself ("task.completed"), at least one required. */
export function EventCheckboxes({
  value,
  onChange,
  error,
}: {
  value: readonly WebhookEvent[];
  onChange: (events: WebhookEvent[]) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const toggle = (event: WebhookEvent, checked: boolean) => {
    const next = checked ? [...value, event] : value.filter((e) => e !== event);
    onChange(EVENTS.map((e) => e.value).filter((e) => next.includes(e)));
  };
  return (
    <fieldset className={`wh-events${error ? ' field-invalid' : ''}`}>
      <legend>Events</legend>
      {EVENTS.map((event) => (
        <div key={event.value} className="wh-event">
          <input
            type="checkbox"
            id={`${id}-${event.value}`}
            checked={value.includes(event.value)}
            onChange={(e) => toggle(event.value, e.currentTarget.checked)}
            aria-describedby={[`${id}-${event.value}-hint`, error ? errorId : ''].filter(Boolean).join(' ')}
            aria-invalid={error ? true : undefined}
          />
          <label htmlFor={`${id}-${event.value}`} className="mono">
            {event.value}
          </label>
          <span id={`${id}-${event.value}-hint`} className="field-hint">
            {event.description}
          </span>
        </div>
      ))}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
