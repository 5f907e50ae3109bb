// A project's quality settings (contract §3, §5): the two optional fields of the create and settings
// forms, and what the project's new tasks run with — its own value, or the service's default when it sets
// none. Tasks copy the settings when they are created, so the page says that changing them leaves the
// project's existing tasks alone.
import { useMeta } from '../api/meta';
import type { FieldMessages } from '../api/fieldErrors';
import { TextField } from '../ui/Field';
import { MAX_RESPONSES_MAX, MAX_RESPONSES_MIN, TARGET_CONFIDENCE_MAX, TARGET_CONFIDENCE_MIN } from '@concord/contract';

interface Settings {
  targetConfidence: number | null;
  maxResponses: number | null;
}

/** The service's default target (GET /meta's CONSENSUS_THRESHOLD) in words, once known. */
function useDefaultTarget(): string {
  const target = useMeta().data?.defaultTargetConfidence;
  return target === undefined ? 'the service’s CONSENSUS_THRESHOLD' : String(target);
}

const DEFAULT_MAX_RESPONSES = 'the larger of 10 and twice the task’s answers needed';

export function QualityFields({ project, errors }: { project?: Settings; errors: FieldMessages<'targetConfidence' | 'maxResponses'> }) {
  const defaultTarget = useDefaultTarget();
  return (
    <fieldset>
      <legend>Quality settings (optional)</legend>
      <TextField
        label="Target confidence"
        name="targetConfidence"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={project?.targetConfidence ?? ''}
        error={errors.targetConfidence}
        hint={`A decimal from ${TARGET_CONFIDENCE_MIN} to ${TARGET_CONFIDENCE_MAX}: a task completes once its most likely label is this probable. Empty: the service default (${defaultTarget}).`}
      />
      <TextField
        label="Most answers per task"
        name="maxResponses"
        // Text, not type="number": a browser reads a number field it cannot parse as empty, which here
        // would mean the default instead of an error.
        inputMode="numeric"
        autoComplete="off"
        defaultValue={project?.maxResponses ?? ''}
        error={errors.maxResponses}
        hint={`${MAX_RESPONSES_MIN} to ${MAX_RESPONSES_MAX}, never fewer than a task’s answers needed: a task without consensus by then fails (NO_CONSENSUS). Empty: the service default, ${DEFAULT_MAX_RESPONSES}.`}
      />
      <p className="field-hint">Tasks take these settings when they are created: a change applies to tasks created afterwards.</p>
    </fieldset>
  );
}

/** What the project's new tasks run with. */
export function QualityFacts({ project }: { project: Settings }) {
  const defaultTarget = useDefaultTarget();
  return (
    <>
      <dt>Target confidence</dt>
      <dd>{project.targetConfidence ?? `Service default (${defaultTarget})`}</dd>
      <dt>Most answers per task</dt>
      <dd>{project.maxResponses === null ? `Service default (${DEFAULT_MAX_RESPONSES})` : `${project.maxResponses}, or a task’s answers needed when more`}</dd>
    </>
  );
}
