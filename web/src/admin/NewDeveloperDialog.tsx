// "New developer": e-mail, app name and URL through POST /admin/developers; the answer's API key is
// shown once (the dialog closes only once "I have copied the API key" is ticked), and an invite e-mail
// is queued for the developer to set a password.
import { APP_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH, URL_MAX_LENGTH } from '@concord/contract';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { mapFieldErrors } from '../api/fieldErrors';
import { useIdempotencyKey } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorNote, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { tooLong } from '../ui/limits';
import { SecretDone, SecretReveal } from '../ui/SecretReveal';
import { isHttpUrl } from '../ui/url';
import { useCreateDeveloper, type NewDeveloper } from './queries';

interface Created {
  email: string;
  appName: string;
  apiKey: string;
}

export function NewDeveloperDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateDeveloper();
  const environment = useMeta().data?.environment;
  const [created, setCreated] = useState<Created | null>(null);
  const [copied, setCopied] = useState(false);
  const [localErrors, setLocalErrors] = useState<Partial<Record<keyof NewDeveloper, string>>>({});
  // One key per distinct form content, kept after an error: a retry after a lost response replays the
  // first answer (the developer and its once-shown API key) instead of failing with EMAIL_TAKEN.
  const idempotency = useIdempotencyKey();

  const close = () => {
    onClose();
    setCreated(null);
    setCopied(false);
    setLocalErrors({});
    create.reset();
    idempotency.forget();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body: NewDeveloper = {
      email: String(form.get('email') ?? '').trim(),
      appName: String(form.get('appName') ?? '').trim(),
      appUrl: String(form.get('appUrl') ?? '').trim(),
    };
    const errors: Partial<Record<keyof NewDeveloper, string>> = {};
    const long = {
      email: tooLong(body.email, EMAIL_MAX_LENGTH, 'The e-mail'),
      appName: tooLong(body.appName, APP_NAME_MAX_LENGTH, 'The name'),
      appUrl: tooLong(body.appUrl, URL_MAX_LENGTH, 'The address'),
    };
    if (long.email) errors.email = long.email;
    else if (!/^[^\s@]+@[^\s@]+$/.test(body.email)) errors.email = 'Enter the developer’s e-mail address.';
    if (!body.appName) errors.appName = 'Enter the app’s name.';
    else if (long.appName) errors.appName = long.appName;
    if (long.appUrl) errors.appUrl = long.appUrl;
    else if (!isHttpUrl(body.appUrl)) errors.appUrl = 'Enter an absolute address starting with http:// or https://.';
    setLocalErrors(errors);
    // The last answer of the service says nothing about this try.
    create.reset();
    if (Object.keys(errors).length > 0) return;
    try {
      const result = await create.mutateAsync({ body, idempotencyKey: idempotency.keyFor(body) });
      idempotency.forget();
      setCreated({ email: result.developer.email, appName: result.developer.appName, apiKey: result.developer.apiKey });
    } catch {
      // Shown next to the fields below; the same content sent again keeps its key.
    }
  };

  const apiErrors = mapFieldErrors(create.error, { fields: ['email', 'appName', 'appUrl'] as const });
  const fieldError = (name: keyof NewDeveloper) => localErrors[name] ?? apiErrors.fields[name];

  return (
    <Dialog
      open={open}
      title={created ? `${created.appName} is ready` : 'New developer'}
      onClose={close}
      dismissible={!created || copied}
      blockedMessage="Copy the key first: it is shown only once. Once it is copied, or “I have copied the API key” is ticked, Escape closes this."
    >
      {created ? (
        <>
          <SecretReveal
            label="API key"
            value={created.apiKey}
            onCopied={() => setCopied(true)}
            note="Shown once: copy it now and hand it to the developer. It cannot be shown again, only regenerated."
          />
          <Notice tone="info">
            An invite e-mail was queued to <strong>{created.email}</strong>: its single-use link lets the developer set a password and rotate the key
            themselves.
            {environment && environment !== 'production' ? (
              <>
                {' '}
                Without SMTP it stays in the <Link to="/admin/outbox">e-mail outbox</Link>.
              </>
            ) : null}
          </Notice>
          <SecretDone what="the API key" copied={copied} onCopiedChange={setCopied} onDone={close} />
        </>
      ) : (
        <form onSubmit={submit} noValidate aria-label="New developer">
          <TextField label="E-mail" name="email" type="email" autoComplete="off" required limit={EMAIL_MAX_LENGTH} error={fieldError('email')} />
          <TextField label="App name" name="appName" required limit={APP_NAME_MAX_LENGTH} error={fieldError('appName')} />
          <TextField
            label="App URL"
            name="appUrl"
            type="url"
            required
            limit={URL_MAX_LENGTH}
            placeholder="https://"
            hint="The app’s public address, starting with http:// or https://."
            error={fieldError('appUrl')}
          />
          <ErrorNote error={apiErrors.general} />
          <div className="actions">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary" busy={create.isPending}>
              Create developer
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
