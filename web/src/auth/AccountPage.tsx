// The profile (for a buyer: the organisation the session acts for and the person's role there) and the
// password change: the API returns a fresh token and revokes every older one, so this tab keeps working
// and every other session of the account ends.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { mapFieldErrors } from '../api/fieldErrors';
import { Button } from '../ui/Button';
import { ErrorNote, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { formatDateTime } from '../ui/format';
import { ROLE_SUMMARIES } from '../organisations/permissions';
import { NewPasswordFields } from './NewPasswordFields';
import { checkNewPassword, type NewPasswordProblems } from './passwordRules';
import { useSession } from './session';

export function AccountPage() {
  const { replaceToken } = useSession();
  const me = useQuery({ queryKey: ['me'], queryFn: () => call(api.GET('/auth/me')) });
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<NewPasswordProblems>({});
  const apiErrors = mapFieldErrors(error, { fields: ['currentPassword', 'newPassword'] as const });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const newPassword = String(form.get('newPassword'));
    setDone(false);
    setError(null);
    const found = checkNewPassword(newPassword, String(form.get('confirmPassword')));
    setProblems(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    try {
      const result = await call(api.POST('/auth/change-password', { body: { currentPassword: String(form.get('currentPassword')), newPassword } }));
      replaceToken(result.token);
      formElement.reset();
      setDone(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const buyer = me.data && 'buyer' in me.data ? me.data.buyer : undefined;
  const admin = me.data && 'admin' in me.data ? me.data.admin : undefined;
  return (
    <>
      <PageHeader title="Account" />
      <div className="grid-2">
        <Card title="Profile">
          <dl className="facts">
            <dt>E-mail</dt>
            <dd>{buyer?.email ?? admin?.email ?? '…'}</dd>
            {buyer ? (
              <>
                <dt>Organisation</dt>
                <dd>{buyer.companyName}</dd>
                <dt>Your role</dt>
                <dd>
                  {buyer.role ? (
                    <>
                      <span className="badge badge-neutral">{buyer.role}</span> <span className="muted">{ROLE_SUMMARIES[buyer.role]}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </dd>
                <dt>Organisation since</dt>
                <dd>{formatDateTime(buyer.createdAt)}</dd>
                <dt>Organisation id</dt>
                <dd className="mono">{buyer.id}</dd>
              </>
            ) : null}
          </dl>
        </Card>
        <Card title="Change password">
          <form onSubmit={submit} noValidate>
            <TextField
              label="Current password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              required
              error={apiErrors.fields.currentPassword}
            />
            <NewPasswordFields
              names={{ password: 'newPassword', confirm: 'confirmPassword' }}
              confirmLabel="Repeat the new password"
              problems={problems}
              serviceError={apiErrors.fields.newPassword}
            />
            <ErrorNote error={apiErrors.general} />
            {done ? <Notice tone="success">Password changed. Every other session of this account has been signed out.</Notice> : null}
            <Button type="submit" variant="primary" busy={busy}>
              Change password
            </Button>
          </form>
        </Card>
      </div>
    </>
  );
}
