// A project's name and description as the API accepts them (name 1–200 characters, description at most
// 5 000, empty meaning none), checked before the create and settings forms send them.
import { mapFieldErrors, type FieldMessages, type FormErrors } from '../api/fieldErrors';
import { tooLong } from '../ui/limits';

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 5000;

export type ProjectField = 'name' | 'description';

export interface ProjectFields {
  name: string;
  description: string | null;
}

/** The form's values trimmed (an empty description is none), and what is wrong with them. */
export function readProjectFields(form: FormData): { values: ProjectFields; errors: FieldMessages<ProjectField> } {
  const name = String(form.get('name') ?? '').trim();
  const description = String(form.get('description') ?? '').trim();
  const errors: FieldMessages<ProjectField> = {};
  const nameTooLong = tooLong(name, NAME_MAX, 'The name');
  const descriptionTooLong = tooLong(description, DESCRIPTION_MAX, 'The description');
  if (!name) errors.name = 'Give the project a name.';
  else if (nameTooLong) errors.name = nameTooLong;
  if (descriptionTooLong) errors.description = descriptionTooLong;
  return { values: { name, description: description || null }, errors };
}

/** The API's refusal of a project form, next to its fields. */
export const projectFormErrors = (error: unknown): FormErrors<ProjectField> => mapFieldErrors(error, { fields: ['name', 'description'] });
