// A project's default answer kind (docs/answer-kinds.md, "A project's default kind"): the select of the
// create and settings forms, and the line of Details. Like the quality settings, tasks take it when they
// are created, so a change leaves the project's existing tasks as they are.
import type { ProjectDefaultKind } from '@concord/contract';
import { answerKindLabel, PROJECT_DEFAULT_KIND_CHOICES } from '../tasks/vocabulary';
import { SelectField } from '../ui/Field';
import { defaultKindValue } from './projectForm';

export const DEFAULT_KIND_HINT = 'Tasks created in this project that name no answer kind take this one.';

export function DefaultKindField({ kind, error }: { kind?: ProjectDefaultKind | null | undefined; error?: string | undefined }) {
  return (
    <SelectField
      label="Default answer kind"
      name="defaultAnswerKind"
      defaultValue={defaultKindValue(kind)}
      options={PROJECT_DEFAULT_KIND_CHOICES}
      hint={DEFAULT_KIND_HINT}
      error={error}
    />
  );
}

/** The kind the project's new tasks take when they name none. */
export function DefaultKindFact({ kind }: { kind: ProjectDefaultKind | null }) {
  return (
    <>
      <dt>Default answer kind</dt>
      <dd>{kind === null || kind === 'single' ? 'Single choice (the service’s default)' : `${answerKindLabel(kind)}, for tasks that name no kind`}</dd>
    </>
  );
}
