// A new password typed twice, with the same rules on both fields: the account page's change and a
// developer's invite setup.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@concord/contract';
import { TextField } from '../ui/Field';
import { PASSWORD_HINT, type NewPasswordProblems } from './passwordRules';

interface NewPasswordFieldsProps {
  /** Form field names of the password and of its repetition. */
  names: { password: string; confirm: string };
  confirmLabel: string;
  problems: NewPasswordProblems;
  /** The service's message about the password, when it refused one. */
  serviceError?: string | undefined;
}

export function NewPasswordFields({ names, confirmLabel, problems, serviceError }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="New password"
        name={names.password}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        limit={PASSWORD_MAX_LENGTH}
        hint={PASSWORD_HINT}
        error={problems.password ?? serviceError}
      />
      <TextField
        label={confirmLabel}
        name={names.confirm}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        limit={PASSWORD_MAX_LENGTH}
        error={problems.confirm}
      />
    </>
  );
}
