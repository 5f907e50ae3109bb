// Labelled form controls: every control has a visible label, and its error (from the API's
// VALIDATION_ERROR details or a check in the page) is read out with it through aria-describedby. A field
// with a `limit` never cuts what is typed or pasted (maxLength would, silently): it counts the characters
// as the limit nears and says how many are too many, and the form refuses to send it.
import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { countText } from './limits';

interface FieldShellProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** The character count of a field with a limit, or null while it is far from it. */
  count?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

function FieldShell({ label, error, hint, count, children }: FieldShellProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const countId = count ? `${id}-count` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, countId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint || count ? (
        <div className="field-notes">
          {hint ? (
            <p id={hintId} className="field-hint">
              {hint}
            </p>
          ) : null}
          {count ? (
            <p id={countId} className="field-count">
              {count}
            </p>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The length of a field's text, whether the page controls its value or not (a form reset included). */
function useLength(value: unknown, defaultValue: unknown) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [typed, setTyped] = useState(() => String(defaultValue ?? '').length);
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    // A reset restores the default without an input event: read the field once it has happened.
    const reset = () => setTimeout(() => setTyped(ref.current?.value.length ?? 0));
    form.addEventListener('reset', reset);
    return () => form.removeEventListener('reset', reset);
  }, []);
  const length = value !== undefined && value !== null ? String(value).length : typed;
  return { ref, length, onTyped: (text: string) => setTyped(text.length) };
}

function Count({ length, limit }: { length: number; limit: number | undefined }) {
  if (limit === undefined) return null;
  const text = countText(length, limit);
  return text ? <span className={length > limit ? 'field-count-over' : undefined}>{text}</span> : null;
}

type Common = { label: string; error?: string | undefined; hint?: ReactNode; limit?: number };

export function TextField({ label, error, hint, limit, onInput, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const { ref, length, onTyped } = useLength(input.value, input.defaultValue);
  const count = <Count length={length} limit={limit} />;
  return (
    <FieldShell label={label} error={error} hint={hint} count={limit !== undefined && countText(length, limit) ? count : null}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          ref={ref}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onInput={(event) => {
            onTyped(event.currentTarget.value);
            onInput?.(event);
          }}
          {...input}
        />
      )}
    </FieldShell>
  );
}

export function TextAreaField({ label, error, hint, limit, onInput, ...area }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { ref, length, onTyped } = useLength(area.value, area.defaultValue);
  const count = <Count length={length} limit={limit} />;
  return (
    <FieldShell label={label} error={error} hint={hint} count={limit !== undefined && countText(length, limit) ? count : null}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          ref={ref}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onInput={(event) => {
            onTyped(event.currentTarget.value);
            onInput?.(event);
          }}
          {...area}
        />
      )}
    </FieldShell>
  );
}

export function SelectField({
  label,
  error,
  hint,
  options,
  ...select
}: Omit<Common, 'limit'> & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/**
 * After a refused submit, moves focus to the form's first field marked invalid — on the next frame, once
 * React has rendered the errors that mark it.
 */
export function focusFirstInvalid(form: HTMLElement | null | undefined): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
