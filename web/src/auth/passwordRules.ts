// A new password as the API accepts it (8 to 128 characters), typed twice: one check for every form that
// sets one (the account page's change, a developer's invite setup).
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PASSWORD_HINT = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`;

export interface NewPasswordProblems {
  password?: string;
  confirm?: string;
}

/** What is wrong with a new password and its repetition; empty when it can be sent. */
export function checkNewPassword(password: string, confirm: string): NewPasswordProblems {
  const problems: NewPasswordProblems = {};
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) problems.password = `Choose a password of ${PASSWORD_HINT.toLowerCase()}`;
  if (password !== confirm) problems.confirm = 'The two passwords differ.';
  return problems;
}
