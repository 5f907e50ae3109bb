// Sign up, log in (buyer and admin). Errors are the API's codes in words, next to the form.
import { COMPANY_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, call } from '../api/client';
import { mapFieldErrors } from '../api/fieldErrors';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { AuthFrame } from './AuthFrame';
import { tooLong } from '../ui/limits';
import { checkPassword, PASSWORD_HINT } from './passwordRules';
import { useSession, useSessionEndedNotice, type Role } from './session';

interface Credentials {
  email: string;
  password: string;
}

/** Each role's log-in: its endpoint, and where the session goes when no page asked for it. */
const LOGINS: Record<Role, { home: string; logIn: (body: Credentials) => Promise<{ token: string; email: string }> }> = {
  buyer: {
    home: '/',
    logIn: async (body) => {
      const result = await call(api.POST('/auth/login', { body }));
      return { token: result.token, email: result.buyer.email };
    },
  },
  admin: {
    home: '/admin',
    logIn: async (body) => {
      const result = await call(api.POST('/admin/login', { body }));
      return { token: result.token, email: result.admin.email };
    },
  },
};

/** Said on a log-in page reached because the service ended the session (see session.tsx). */
function SessionEndedNotice() {
  const ended = useSessionEndedNotice();
  return ended ? <Notice tone="warning">Your session ended: the password was changed or the token expired. Log in again.</Notice> : null;
}

/** The e-mail and password form of one role: signs in, then goes back to the page that asked for it. */
function LoginForm({ role, defaultEmail }: { role: Role; defaultEmail?: string | undefined }) {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const login = LOGINS[role];
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const result = await login.logIn({ email: String(form.get('email')), password: String(form.get('password')) });
      signIn({ token: result.token, role, email: result.email });
      navigate(from && from !== '/login' ? from : login.home, { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <TextField label="E-mail" name="email" type="email" autoComplete={role === 'admin' ? 'username' : 'email'} required defaultValue={defaultEmail} />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      <ErrorNote error={error} />
      <Button type="submit" variant="primary" busy={busy} className="wide">
        Log in
      </Button>
    </form>
  );
}

export function LoginPage() {
  return (
    <AuthFrame
      title="Log in"
      footer={
        <>
          <p>
            New to Concord? <Link to="/register">Create an account</Link>
          </p>
          <p>
            <Link to="/admin/login">Administrator log-in</Link>
          </p>
        </>
      }
    >
      <SessionEndedNotice />
      <LoginForm role="buyer" />
    </AuthFrame>
  );
}

export function RegisterPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<'companyName' | 'password', string>>>({});
  const apiErrors = mapFieldErrors(error, { fields: ['companyName', 'email', 'password'] as const });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { email: String(form.get('email')), password: String(form.get('password')), companyName: String(form.get('companyName')) };
    setError(null);
    const companyName = body.companyName.trim();
    const found = {
      companyName: companyName === '' ? 'Give your company’s name.' : (tooLong(companyName, COMPANY_NAME_MAX_LENGTH, 'The name') ?? undefined),
      password: checkPassword(body.password),
    };
    setProblems(found);
    if (found.companyName || found.password) return;
    setBusy(true);
    try {
      const result = await call(api.POST('/auth/register', { body }));
      signIn({ token: result.token, role: 'buyer', email: result.buyer.email });
      navigate('/', { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthFrame
      title="Create your account"
      footer={
        <p>
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      }
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Company name"
          name="companyName"
          autoComplete="organization"
          required
          limit={COMPANY_NAME_MAX_LENGTH}
          error={problems.companyName ?? apiErrors.fields.companyName}
        />
        <TextField label="E-mail" name="email" type="email" autoComplete="email" required error={apiErrors.fields.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          limit={PASSWORD_MAX_LENGTH}
          hint={PASSWORD_HINT}
          error={problems.password ?? apiErrors.fields.password}
        />
        <ErrorNote error={apiErrors.general} />
        <Button type="submit" variant="primary" busy={busy} className="wide">
          Create account
        </Button>
      </form>
    </AuthFrame>
  );
}

export function AdminLoginPage() {
  const localAdmin = useMeta().data?.localAdmin;
  return (
    <AuthFrame
      title="Administrator log-in"
      footer={
        <p>
          <Link to="/login">Buyer log-in</Link>
        </p>
      }
    >
      {localAdmin ? (
        <Notice>
          First run in development: the service created <strong>{localAdmin.email}</strong>. Its password is printed in the start-up log and kept in{' '}
          <code>{localAdmin.file}</code>.
        </Notice>
      ) : null}
      <SessionEndedNotice />
      {/* Keyed by the e-mail, so the field is filled in once GET /meta has answered. */}
      <LoginForm key={localAdmin?.email ?? ''} role="admin" defaultEmail={localAdmin?.email} />
    </AuthFrame>
  );
}
