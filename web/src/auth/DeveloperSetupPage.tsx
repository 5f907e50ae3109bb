// Where a developer's invite e-mail leads: /developer/setup#token=… (the token rides in the fragment, so
// it never reaches a server log or a Referer header). Sets the password with POST /dev/setup-password;
// once it is set the token, now used, leaves the address bar and the history entry.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { mapFieldErrors } from '../api/fieldErrors';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { AuthFrame } from './AuthFrame';
import { NewPasswordFields } from './NewPasswordFields';
import { checkNewPassword, type NewPasswordProblems } from './passwordRules';

const tokenFromHash = () => new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';

export function DeveloperSetupPage() {
  const [token] = useState(tokenFromHash);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [problems, setProblems] = useState<NewPasswordProblems>({});
  const apiErrors = mapFieldErrors(error, { fields: ['password'] as const });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    // Each try starts clean: the last answer of the service says nothing about this one.
    setError(null);
    const found = checkNewPassword(password, String(form.get('confirm')));
    setProblems(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    try {
      await call(api.POST('/dev/setup-password', { body: { token, password } }));
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
      setDone(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title="Set your developer password">
      {done ? (
        <Notice tone="success">
          Your password is set. Log in with <code>POST /api/v1/dev/login</code> to get a developer token, and replace your API key yourself with{' '}
          <code>POST /api/v1/auth/regenerate-api-key</code>. The <a href="/docs">API reference</a> has the details.
        </Notice>
      ) : !token ? (
        <Notice tone="warning">This link has no invite token. Open the link from your invite e-mail again.</Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>Your application's API key was handed to the administrator who invited you. With a password you can log in and rotate it yourself.</p>
          <NewPasswordFields
            names={{ password: 'password', confirm: 'confirm' }}
            confirmLabel="Repeat the password"
            problems={problems}
            serviceError={apiErrors.fields.password}
          />
          <ErrorNote error={apiErrors.general} />
          <Button type="submit" variant="primary" busy={busy} className="wide">
            Set password
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
