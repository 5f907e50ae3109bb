// How the export is split: one file, "train only" (the API's one plain file), or train/validation/test
// files in a ZIP with their ratios (checked as the API checks them) and an optional seed.
import { useId } from 'react';
import { ApiError, describeError } from '../api/errors';
import { TextField } from '../ui/Field';
import type { checkSplit, ExportRequest, RatioField, SplitMode } from './exportRequest';

export const SEED_MAX = 200;

interface SplitSettingsProps {
  request: ExportRequest;
  split: ReturnType<typeof checkSplit>;
  /** Ratio problems are shown once the person has left a ratio field or sent the form. */
  revealed: boolean;
  onReveal: () => void;
  onChange: <K extends 'mode' | 'ratios' | 'seed'>(key: K, value: ExportRequest[K]) => void;
  apiError: ApiError | null;
  apiFields: Record<string, string>;
}

export function SplitSettings({ request, split, revealed, onReveal, onChange, apiError, apiFields }: SplitSettingsProps) {
  const ratioError = (name: RatioField) => (revealed ? split.fields[name] : undefined);
  const invalid = revealed && split.sum !== null;
  const ratio = (name: RatioField, label: string) => (
    <TextField
      label={label}
      name={name}
      inputMode="decimal"
      autoComplete="off"
      value={request.ratios[name]}
      onChange={(event) => onChange('ratios', { ...request.ratios, [name]: event.target.value })}
      error={ratioError(name)}
      {...(invalid && !ratioError(name) ? { 'aria-invalid': true } : {})}
    />
  );
  const mode = (value: SplitMode, label: string, hint: string) => (
    <SplitOption mode={value} current={request.mode} label={label} hint={hint} onChange={(next) => onChange('mode', next)} />
  );
  return (
    <>
      <fieldset className="plain-fieldset">
        <legend className="sr-only">Split</legend>
        <div className="split-modes">
          {mode('none', 'No split', 'One file of every selected record')}
          {mode('train', 'Train only', 'One plain file: the API does not split off anything')}
          {mode('three', 'Train, validation and test', 'A ZIP of three files')}
        </div>
      </fieldset>
      {request.mode !== 'none' ? (
        <div className="ratio-grid" onBlur={onReveal}>
          {ratio('trainRatio', 'Train ratio')}
          {request.mode === 'three' ? (
            <>
              {ratio('valRatio', 'Validation ratio')}
              {ratio('testRatio', 'Test ratio')}
            </>
          ) : null}
        </div>
      ) : null}
      {revealed && split.sum ? (
        <p className="field-error ratio-sum" role="alert">
          {split.sum}
        </p>
      ) : null}
      {apiError?.code === 'INVALID_RATIOS' ? (
        <p className="field-error ratio-sum" role="alert">
          {describeError(apiError)} The API said: {apiError.message}.
        </p>
      ) : null}
      {request.mode === 'train' ? (
        <p className="field-hint">A train ratio alone is accepted (and checked) by the API, which answers with one plain file of every selected record.</p>
      ) : null}
      {request.mode === 'three' ? (
        <TextField
          label="Seed"
          name="seed"
          value={request.seed}
          maxLength={SEED_MAX}
          autoComplete="off"
          onChange={(event) => onChange('seed', event.target.value)}
          hint="Optional. The same seed and filters give the same split every time; another seed shuffles differently."
          error={apiFields.seed}
        />
      ) : null}
    </>
  );
}

function SplitOption({ mode, current, label, hint, onChange }: { mode: SplitMode; current: SplitMode; label: string; hint: string; onChange: (mode: SplitMode) => void }) {
  const hintId = useId();
  return (
    <label className={`split-option${mode === current ? ' checked' : ''}`}>
      <input type="radio" name="split" value={mode} checked={mode === current} onChange={() => onChange(mode)} aria-label={label} aria-describedby={hintId} />
      <span>
        {label}
        <span id={hintId} className="split-hint">
          {hint}
        </span>
      </span>
    </label>
  );
}
