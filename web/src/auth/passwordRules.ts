// A new password as the API accepts it (8 to 128 characters), typed twice: one check for every form that
// sets one (sign-up, the account page's change, a developer's invite setup). Both fields follow the same
// rules and neither cuts what is pasted, so a long password is refused in words, never shortened.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@concord/contract';

export const PASSWORD_HINT = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`;

export interface NewPasswordProblems {
  password?: string;
  confirm?: string;
}

/** What is wrong with a new password, or undefined when the API will take it. */
export function checkPassword(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Choose a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters (this one has ${password.length}).`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `A password has at most ${PASSWORD_MAX_LENGTH} characters; this one has ${password.length}. Choose a shorter one.`;
  return undefined;
}

/** What is wrong with a new password and its repetition; empty when it can be sent. */
export function checkNewPassword(password: string, confirm: string): NewPasswordProblems {
  const problems: NewPasswordProblems = {};
  const problem = checkPassword(password);
  if (problem) problems.password = problem;
  if (password !== confirm) problems.confirm = 'The two passwords differ.';
  return problems;
}
