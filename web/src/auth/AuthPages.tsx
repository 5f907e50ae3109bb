// Sign up, log in (buyer and admin). Errors are the API's codes in words, next to the form.
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { useSession } from './session';

export function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} /> Concord
        </p>
        <h1>{title}</h1>
        {children}
        {footer ? <div className="auth-footer">{footer}</div> : null}
      </div>
    </main>
  );
}

function useAfterLogin(fallback: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return () => navigate(from && from !== '/login' ? from : fallback, { replace: true });
}

export function LoginPage() {
  const { signIn } = useSession();
  const done = useAfterLogin('/');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const body = { email: String(form.get('email')), password: String(form.get('password')) };
      const result = await call(api.POST('/auth/login', { body }));
      signIn({ token: result.token, role: 'buyer', email: result.buyer.email });
      done();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
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
      <form onSubmit={submit} noValidate>
        <TextField label="E-mail" name="email" type="email" autoComplete="email" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" busy={busy} className="wide">
          Log in
        </Button>
      </form>
    </AuthFrame>
  );
}

export function RegisterPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fields = error instanceof ApiError ? error.fieldErrors() : {};
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const body = { email: String(form.get('email')), password: String(form.get('password')), companyName: String(form.get('companyName')) };
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
    <AuthFrame title="Create your account" footer={<p>Already have an account? <Link to="/login">Log in</Link></p>}>
      <form onSubmit={submit} noValidate>
        <TextField label="Company name" name="companyName" autoComplete="organization" required maxLength={200} error={fields.companyName} />
        <TextField label="E-mail" name="email" type="email" autoComplete="email" required error={fields.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          hint="8 to 128 characters."
          error={fields.password}
        />
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" busy={busy} className="wide">
          Create account
        </Button>
      </form>
    </AuthFrame>
  );
}

export function AdminLoginPage() {
  const { signIn } = useSession();
  const done = useAfterLogin('/admin');
  const meta = useQuery({ queryKey: ['meta'], queryFn: () => call(api.GET('/meta')), staleTime: Infinity });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const body = { email: String(form.get('email')), password: String(form.get('password')) };
      const result = await call(api.POST('/admin/login', { body }));
      signIn({ token: result.token, role: 'admin', email: result.admin.email });
      done();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const localAdmin = meta.data?.localAdmin;
  return (
    <AuthFrame title="Administrator log-in" footer={<p><Link to="/login">Buyer log-in</Link></p>}>
      {localAdmin ? (
        <Notice>
          First run in development: the service created <strong>{localAdmin.email}</strong>. Its password is printed in
          the start-up log and kept in <code>{localAdmin.file}</code>.
        </Notice>
      ) : null}
      <form onSubmit={submit} noValidate>
        <TextField label="E-mail" name="email" type="email" autoComplete="username" required defaultValue={localAdmin?.email} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" busy={busy} className="wide">
          Log in
        </Button>
      </form>
    </AuthFrame>
  );
}
