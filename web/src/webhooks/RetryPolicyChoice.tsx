// A configuration's retry policy: two radios, each with its one-line explanation.
import { useId } from 'react';
import type { RetryPolicy } from './queries';
import { RETRY_POLICIES } from './webhookRules';

export function RetryPolicyChoice({ value, onChange, error }: { value: RetryPolicy; onChange: (policy: RetryPolicy) => void; error?: string | undefined }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className={`wh-policies${error ? ' field-invalid' : ''}`}>
      <legend>Retries</legend>
      {RETRY_POLICIES.map((policy) => (
        <div key={policy.value} className="wh-policy">
          <input
            type="radio"
            id={`${id}-${policy.value}`}
            name={`${id}-policy`}
            value={policy.value}
            checked={value === policy.value}
            onChange={() => onChange(policy.value)}
            aria-describedby={[`${id}-${policy.value}-hint`, error ? errorId : ''].filter(Boolean).join(' ')}
            aria-invalid={error ? true : undefined}
          />
          <label htmlFor={`${id}-${policy.value}`}>{policy.label}</label>
          <span id={`${id}-${policy.value}-hint`} className="field-hint">
            {policy.description}
          </span>
        </div>
      ))}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
