// A project's default deadline (docs/organisations.md, "Deadlines and priority"): the field of the create
// and settings forms, and the line of Details. Like its default kind and quality settings, tasks take it
// when they are created, so a change leaves the project's existing tasks as they are.
import { MAX_DEFAULT_DEADLINE_HOURS } from '@concord/contract';
import { TextField } from '../ui/Field';
import { formatCount } from '../ui/format';
import { defaultDeadlineWords } from './projectForm';

export function DefaultDeadlineField({ hours, error }: { hours?: number | null | undefined; error?: string | undefined }) {
  return (
    <TextField
      label="Default deadline (hours)"
      name="defaultDeadlineHours"
      // Text, not type="number": a browser reads a number field it cannot parse as empty, which here would
      // mean no deadline instead of an error.
      inputMode="numeric"
      autoComplete="off"
      defaultValue={hours ?? ''}
      error={error}
      hint={`Optional: 1 to ${formatCount(MAX_DEFAULT_DEADLINE_HOURS).replace(/,/g, ' ')}. A task created here without a deadline of its own gets one this many hours after its creation. Empty: none. A change applies to tasks created afterwards.`}
    />
  );
}

/** When the project's new tasks expire when they name no deadline. */
export function DefaultDeadlineFact({ hours }: { hours: number | null }) {
  return (
    <>
      <dt>Default deadline</dt>
      <dd>{defaultDeadlineWords(hours)}</dd>
    </>
  );
}
