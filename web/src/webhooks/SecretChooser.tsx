// Choosing a signing secret: generated here or pasted, shown once, confirmed as copied before it is sent.
import { useId } from 'react';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { SecretReveal } from '../ui/SecretReveal';
import {
  generateWebhookSecret,
  isStandardSecret,
  WEBHOOK_SECRET_MAX_LENGTH,
  WEBHOOK_SECRET_MIN_LENGTH,
  WHSEC_MAX_BYTES,
  WHSEC_MIN_BYTES,
} from '@concord/contract';
import { checkSecret } from './webhookRules';

export interface SecretDraft {
  mode: 'generate' | 'paste';
  generated: string;
  pasted: string;
  copied: boolean;
}

export const newSecretDraft = (): SecretDraft => ({ mode: 'generate', generated: generateWebhookSecret(), pasted: '', copied: false });
export const draftSecret = (draft: SecretDraft): string => (draft.mode === 'generate' ? draft.generated : draft.pasted);

interface SecretChooserProps {
  draft: SecretDraft;
  onChange: (draft: SecretDraft) => void;
  secretError?: string | undefined;
  copiedError?: string | undefined;
  legend?: string;
}

/**
 * Generate (default: a Standard Webhooks secret, `whsec_` + 32 random bytes made here with
 * crypto.getRandomValues) or paste a secret; either way it is shown once and the buyer ticks "I have
 * copied the secret" before sending. Every change of the secret clears that tick.
 */
export function SecretChooser({ draft, onChange, secretError, copiedError, legend = 'Secret' }: SecretChooserProps) {
  const id = useId();
  const copiedHintId = `${id}-copied-hint`;
  const copiedErrorId = `${id}-copied-error`;
  return (
    <fieldset className={`wh-secret${secretError || copiedError ? ' field-invalid' : ''}`}>
      <legend>{legend}</legend>
      <div className="wh-modes">
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={draft.mode === 'generate'}
            onChange={() => onChange({ ...draft, mode: 'generate', copied: false })}
          />
          Generate a secret
        </label>
        <label className="checkbox">
          <input type="radio" name={`${id}-mode`} checked={draft.mode === 'paste'} onChange={() => onChange({ ...draft, mode: 'paste', copied: false })} />
          Paste my own secret
        </label>
      </div>
      {draft.mode === 'generate' ? (
        <>
          <SecretReveal
            label="Signing secret"
            value={draft.generated}
            note={
              <>
                <strong>Shown only now: copy it.</strong> The API never returns a secret, so Concord cannot show it again. It is a Standard Webhooks secret:
                your receiver can verify deliveries with the standardwebhooks libraries (Node, Python, Go, Ruby…) or the Concord SDK.
              </>
            }
          />
          <Button variant="ghost" className="wh-regenerate" onClick={() => onChange({ ...draft, generated: generateWebhookSecret(), copied: false })}>
            Generate another
          </Button>
        </>
      ) : (
        <TextField
          label="Your secret"
          value={draft.pasted}
          onChange={(e) => onChange({ ...draft, pasted: e.currentTarget.value, copied: false })}
          className="mono"
          autoComplete="off"
          spellCheck={false}
          hint={`${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters, sent once and never shown again. A whsec_ secret (whsec_ and padded base64 of ${WHSEC_MIN_BYTES}–${WHSEC_MAX_BYTES} bytes) also gets Standard Webhooks signatures; any other text gets x-service-signature only.`}
          error={secretError}
        />
      )}
      {draft.mode === 'paste' && !secretError && !checkSecret(draft.pasted) ? (
        <p className="field-hint wh-secret-kind">
          {isStandardSecret(draft.pasted)
            ? 'A Standard Webhooks secret: deliveries carry webhook-signature and x-service-signature.'
            : 'Not a whsec_ secret: deliveries carry x-service-signature only, with no timestamp to stop replays.'}
        </p>
      ) : null}
      {draft.mode === 'generate' && secretError ? <p className="field-error">{secretError}</p> : null}
      <div className="wh-confirm">
        <input
          type="checkbox"
          id={`${id}-copied`}
          checked={draft.copied}
          onChange={(e) => onChange({ ...draft, copied: e.currentTarget.checked })}
          aria-describedby={[copiedHintId, copiedError ? copiedErrorId : ''].filter(Boolean).join(' ')}
          aria-invalid={copiedError ? true : undefined}
        />
        <label htmlFor={`${id}-copied`}>I have copied the secret</label>
      </div>
      <p id={copiedHintId} className="field-hint">
        Store it where your receiver can read it. Without it you cannot verify deliveries; if you lose it, rotate it.
      </p>
      {copiedError ? (
        <p id={copiedErrorId} className="field-error">
          {copiedError}
        </p>
      ) : null}
    </fieldset>
  );
}
