// The forms that set spending caps (money:write): the monthly cap (set, change, remove) and a project's
// budget cap with what a task past it meets (refuse or hold, each said in one line). Amounts are typed in
// dollars and checked as the API checks them (caps.ts, the contract's capCentsSchema) before anything is
// sent; the API's own refusals are said next to the field they name. Every save tells the page what it
// did (onSaved), held tasks released included.
import { CAP_ACTIONS, MAX_CAP_CENTS } from '@concord/contract';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { mapFieldErrors } from '../api/fieldErrors';
import { Button } from '../ui/Button';
import { ConfirmButton } from '../ui/Dialog';
import { ErrorNote } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { formatCents, formatCount } from '../ui/format';
import { CAP_ACTION_WORDS, CAP_RANGE_HINT, capDollarsText, monthlyCapSaved, projectCapSaved, readCapDollars, type CapAction } from './caps';
import { useSetMonthlyCap, useSetProjectCap, type MonthlyCap } from './queries';
import './billing.css';

const CAP_FIELDS = ['capCents', 'capAction'] as const;

/** The API's refusal of a cap, next to its fields (its own wording of a range is technical). */
function capErrors(error: unknown) {
  return mapFieldErrors(error, {
    fields: CAP_FIELDS,
    rules: { capCents: `Enter an amount from $0.00 to ${formatCents(MAX_CAP_CENTS)}.`, capAction: 'Choose to refuse or to hold new tasks.' },
  });
}

/** The cap's amount, as typed, with the range it must be in. */
function CapAmountField({ label, value, onChange, error }: { label: string; value: string; onChange: (text: string) => void; error: string | undefined }) {
  return (
    <TextField
      label={label}
      name="capDollars"
      inputMode="decimal"
      autoComplete="off"
      placeholder="2000.00"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hint={CAP_RANGE_HINT}
      error={error}
    />
  );
}

/** What a task past a project's cap meets: two radios, each with its one line. */
export function CapActionChoice({ value, onChange, error }: { value: CapAction; onChange: (action: CapAction) => void; error?: string | undefined }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className={`cap-actions${error ? ' field-invalid' : ''}`}>
      <legend>Past the cap</legend>
      {CAP_ACTIONS.map((action) => (
        <div key={action} className="cap-action">
          <input
            type="radio"
            id={`${id}-${action}`}
            name={`${id}-action`}
            value={action}
            checked={value === action}
            onChange={() => onChange(action)}
            aria-describedby={[`${id}-${action}-hint`, error ? errorId : ''].filter(Boolean).join(' ')}
            aria-invalid={error ? true : undefined}
          />
          <label htmlFor={`${id}-${action}`}>{CAP_ACTION_WORDS[action].label}</label>
          <span id={`${id}-${action}-hint`} className="field-hint">
            {CAP_ACTION_WORDS[action].description}
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

/** The monthly cap: set or change it, or remove it (behind a confirmation: it is a safety limit). */
export function MonthlyCapForm({ monthly, onSaved }: { monthly: MonthlyCap; onSaved: (message: string) => void }) {
  const save = useSetMonthlyCap();
  const [text, setText] = useState(capDollarsText(monthly.capCents));
  const [problem, setProblem] = useState<string | null>(null);
  const errors = capErrors(save.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const amount = readCapDollars(text);
    setProblem(amount.problem);
    save.reset();
    if (amount.cents === null) {
      event.currentTarget.querySelector<HTMLInputElement>('input[name="capDollars"]')?.focus();
      return;
    }
    save.mutate(amount.cents, {
      onSuccess: (saved) => {
        setText(capDollarsText(saved.capCents));
        onSaved(monthlyCapSaved(saved.capCents));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Monthly cap" className="cap-form">
      <CapAmountField
        label={monthly.capCents === null ? 'Monthly cap (USD)' : 'New monthly cap (USD)'}
        value={text}
        onChange={(value) => {
          setText(value);
          setProblem(null);
        }}
        error={problem ?? errors.fields.capCents}
      />
      <ErrorNote error={errors.general} />
      <div className="cap-form-buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {monthly.capCents === null ? 'Set monthly cap' : 'Change cap'}
        </Button>
        {monthly.capCents !== null ? (
          <ConfirmButton
            label="Remove cap"
            triggerVariant="secondary"
            title="Remove the monthly cap?"
            confirmLabel="Remove the monthly cap"
            message={
              <p>
                Tasks created this month will be limited only by the available balance and the projects’ own caps. {formatCents(monthly.committedCents)} is
                committed so far this month.
              </p>
            }
            onConfirm={async () => {
              const saved = await save.mutateAsync(null);
              setText('');
              setProblem(null);
              onSaved(monthlyCapSaved(saved.capCents));
            }}
          />
        ) : null}
      </div>
    </form>
  );
}

/** A project's cap as the form starts from it. */
export interface CapStart {
  capCents: number | null;
  capAction: CapAction;
  /** Tasks it holds now: setting the cap may release them. */
  heldTasks: number;
}

interface ProjectCapFormProps {
  /** The project the cap is for; null while none is chosen (`picker` chooses it). */
  project: { id: string; name: string } | null;
  /** The cap now (undefined: none). */
  current?: CapStart | undefined;
  /** The add form's project choice, shown first; given the message of a submit without a project. */
  picker?: (error: string | undefined) => ReactNode;
  formLabel: string;
  submitLabel: string;
  /** Offers "Remove cap" too, when the project has one (the project page; the Billing list has its own). */
  removable?: boolean;
  onSaved: (message: string) => void;
  onCancel?: () => void;
}

/** A project's budget cap and what it does past it: set, changed or, with `removable`, removed. */
export function ProjectCapForm({ project, current, picker, formLabel, submitLabel, removable = false, onSaved, onCancel }: ProjectCapFormProps) {
  const save = useSetProjectCap();
  const [text, setText] = useState(capDollarsText(current?.capCents ?? null));
  const [action, setAction] = useState<CapAction>(current?.capAction ?? 'refuse');
  const [problem, setProblem] = useState<string | null>(null);
  const [projectProblem, setProjectProblem] = useState<string | undefined>(undefined);
  const errors = capErrors(save.error);
  const held = current?.heldTasks ?? 0;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const amount = readCapDollars(text);
    setProblem(amount.problem);
    setProjectProblem(project ? undefined : 'Choose the project to cap.');
    save.reset();
    if (!project || amount.cents === null) {
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    save.mutate({ projectId: project.id, capCents: amount.cents, capAction: action }, { onSuccess: (saved) => onSaved(projectCapSaved(saved, held)) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={formLabel} className="cap-form">
      {/* Side by side where the form has room (Billing's add form), one column in a dialog or on a phone. */}
      <div className="cap-form-grid">
        <div>
          {picker ? picker(projectProblem) : null}
          <CapAmountField
            label="Budget cap (USD)"
            value={text}
            onChange={(value) => {
              setText(value);
              setProblem(null);
            }}
            error={problem ?? errors.fields.capCents}
          />
          <p className="field-hint cap-form-note">
            What the project’s tasks may commit over its whole life: budgets reserved for open tasks plus what completed ones were charged.
          </p>
        </div>
        <div>
          <CapActionChoice value={action} onChange={setAction} error={errors.fields.capAction} />
          {held > 0 ? (
            <p className="field-hint cap-form-note">
              {formatCount(held)} {held === 1 ? 'task is' : 'tasks are'} held now: saving releases them, oldest first, as far as the caps and the available
              balance allow.
            </p>
          ) : null}
        </div>
      </div>
      <ErrorNote error={errors.general} />
      <div className="cap-form-buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {submitLabel}
        </Button>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        {removable && project && current && current.capCents !== null ? (
          <RemoveProjectCap project={project} capAction={current.capAction} heldTasks={held} onSaved={onSaved} />
        ) : null}
      </div>
    </form>
  );
}

/** Removes a project's cap (behind a confirmation), keeping its action for when one is set again. */
export function RemoveProjectCap({
  project,
  capAction,
  heldTasks,
  onSaved,
}: {
  project: { id: string; name: string };
  capAction: CapAction;
  heldTasks: number;
  onSaved: (message: string) => void;
}) {
  const save = useSetProjectCap();
  return (
    <ConfirmButton
      label="Remove cap"
      accessibleLabel={`Remove cap of ${project.name}`}
      triggerVariant="secondary"
      title={`Remove the budget cap of ${project.name}?`}
      confirmLabel="Remove the cap"
      message={
        <p>
          Its tasks will be limited only by the monthly cap and the available balance.
          {heldTasks > 0
            ? ` Its ${formatCount(heldTasks)} held ${heldTasks === 1 ? 'task is' : 'tasks are'} released, oldest first, as far as the monthly cap and the balance allow.`
            : ''}
        </p>
      }
      onConfirm={async () => {
        const saved = await save.mutateAsync({ projectId: project.id, capCents: null, capAction });
        onSaved(projectCapSaved(saved, heldTasks));
      }}
    />
  );
}
