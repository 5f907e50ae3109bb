// Where an invitation e-mail leads: /invitation#token=… (the token rides in the fragment, so it never
// reaches a server log or a Referer header). The link is tried at once with its token alone: an address
// with a buyer account joins there and then ("You joined … as …", then it logs in as ever); an address
// without one is asked for a password (and, optionally, its own organisation's name), and the link is
// sent again with it: the new account's token is kept as the session, acting for the organisation, and
// the dashboard opens. Once used, the token leaves the address bar and the history entry.
import { COMPANY_NAME_MAX_LENGTH } from '@concord/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../api/client';
import { mapFieldErrors } from '../api/fieldErrors';
import { AuthFrame } from '../auth/AuthFrame';
import { NewPasswordFields } from '../auth/NewPasswordFields';
import { checkNewPassword, type NewPasswordProblems } from '../auth/passwordRules';
import { useSession } from '../auth/session';
import { Button } from '../ui/Button';
import { ErrorNote, Loading, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { tooLong } from '../ui/limits';
import { acceptInvitation, invitationErrorSentence, passwordBody, tokenFromHash, type AcceptBody, type InvitationStep } from './invitation';
import { organisationKeys } from './queries';

type PageState = InvitationStep | { step: 'accepting' } | { step: 'opening' };

const send = (body: AcceptBody) => call(api.POST('/invitations/accept', { body }));

/** The used token leaves the address bar and this history entry. */
const forgetToken = () => window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);

export function InvitationPage() {
  const [token] = useState(() => tokenFromHash(window.location.hash));
  const [state, setState] = useState<PageState>({ step: 'accepting' });
  const { session, signIn } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Tried once per page, even where React runs an effect twice (StrictMode): a link works once.
  const tried = useRef(false);

  const settle = useCallback(
    async (step: InvitationStep) => {
      if (step.step !== 'created') {
        if (step.step === 'joined') {
          forgetToken();
          void queryClient.invalidateQueries({ queryKey: organisationKeys.list });
        }
        setState(step);
        return;
      }
      forgetToken();
      setState({ step: 'opening' });
      // The session shows the person's e-mail: the new token's own account says it.
      const me = await call(api.GET('/auth/me', { headers: { authorization: `Bearer ${step.token}` } })).catch(() => null);
      signIn({ token: step.token, role: 'buyer', email: me && 'buyer' in me ? me.buyer.email : '' });
      navigate('/', { replace: true });
    },
    [navigate, queryClient, signIn],
  );

  const tryLink = useCallback(() => {
    setState({ step: 'accepting' });
    void acceptInvitation(send, { token }).then(settle);
  }, [settle, token]);

  useEffect(() => {
    if (!token || tried.current) return;
    tried.current = true;
    void acceptInvitation(send, { token }).then(settle);
  }, [settle, token]);

  let body;
  if (!token) {
    body = <Notice tone="warning">This link has no invitation token. Open the link from your invitation e-mail again, or copy the whole address.</Notice>;
  } else if (state.step === 'accepting') {
    body = <Loading label="Opening your invitation…" />;
  } else if (state.step === 'opening' || state.step === 'created') {
    body = <Loading label="Your account is ready. Opening the dashboard…" />;
  } else if (state.step === 'password') {
    body = <PasswordForm token={token} error={state.error} onStep={settle} />;
  } else if (state.step === 'joined') {
    const { name, role } = state.organisation;
    body = (
      <>
        <Notice tone="success">
          You joined <strong>{name}</strong> as {role}.
        </Notice>
        <p>
          {session?.role === 'buyer'
            ? `Choose ${name} in the organisation menu at the top of the dashboard to work in it.`
            : `Log in with your e-mail and password as usual, then choose ${name} in the organisation menu at the top of the dashboard.`}
        </p>
        {session?.role === 'buyer' ? (
          <Link className="btn btn-primary wide" to="/">
            Open the dashboard
          </Link>
        ) : (
          <Link className="btn btn-primary wide" to="/login">
            Log in
          </Link>
        )}
      </>
    );
  } else if (state.step === 'failed') {
    body = (
      <>
        <p className="error-note" role="alert">
          {invitationErrorSentence(state.error)}
        </p>
        {state.final ? null : (
          <Button variant="primary" className="wide" onClick={tryLink}>
            Try again
          </Button>
        )}
      </>
    );
  }

  return (
    <AuthFrame
      title={state.step === 'password' ? 'Create your account to join' : 'Your invitation'}
      footer={
        <p>
          Have an account? <Link to="/login">Log in</Link>
        </p>
      }
    >
      {body}
    </AuthFrame>
  );
}

interface CompanyProblem {
  companyName?: string;
}

/** A new account's password (typed twice) and, optionally, the name of its own organisation. */
function PasswordForm({ token, error, onStep }: { token: string; error: unknown; onStep: (step: InvitationStep) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<NewPasswordProblems & CompanyProblem>({});
  const apiErrors = mapFieldErrors(error, { fields: ['password', 'companyName'] as const });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const companyName = String(form.get('companyName') ?? '');
    const found: NewPasswordProblems & CompanyProblem = checkNewPassword(password, String(form.get('confirm') ?? ''));
    const nameProblem = tooLong(companyName.trim(), COMPANY_NAME_MAX_LENGTH, 'The name');
    if (nameProblem) found.companyName = nameProblem;
    setProblems(found);
    if (found.password || found.confirm || found.companyName) return;
    setBusy(true);
    try {
      await onStep(await acceptInvitation(send, passwordBody(token, password, companyName)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create your account">
      <p>
        No Concord account uses the invited address yet. Choose a password to create one: you join the organisation as soon as it exists, and log in with that
        address and this password from then on.
      </p>
      <NewPasswordFields
        names={{ password: 'password', confirm: 'confirm' }}
        confirmLabel="Repeat the password"
        problems={problems}
        serviceError={apiErrors.fields.password}
      />
      <TextField
        label="Your own organisation’s name (optional)"
        name="companyName"
        autoComplete="organization"
        limit={COMPANY_NAME_MAX_LENGTH}
        hint="Every account also has an organisation of its own. Left empty, it is named after your e-mail address."
        error={problems.companyName ?? apiErrors.fields.companyName}
      />
      <ErrorNote error={apiErrors.general} />
      <Button type="submit" variant="primary" busy={busy} className="wide">
        Create account and join
      </Button>
    </form>
  );
}
