// How the export is split: one file, or train/validation/test files in a ZIP with their ratios (checked
// as the API checks them) and an optional seed. The API's "train ratio alone" is not offered: it answers
// with the same one file, so its ratio would change nothing.
import { EXPORT_SEED_MAX_LENGTH } from '@concord/contract';
import { useId } from 'react';
import { ApiError, describeError } from '../api/errors';
import { TextField } from '../ui/Field';
import { tooLong } from '../ui/limits';
import type { checkSplit, ExportRequest, RatioField, SplitMode } from './exportRequest';

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
          {mode('three', 'Train, validation and test', 'A ZIP of three files')}
        </div>
      </fieldset>
      {request.mode === 'none' ? (
        <p className="field-hint">
          Want only a training file? Export without a split: the API answers a train ratio given alone with this same single file of every record, so there is
          no ratio to choose.
        </p>
      ) : (
        <div className="ratio-grid" onBlur={onReveal}>
          {ratio('trainRatio', 'Train ratio')}
          {ratio('valRatio', 'Validation ratio')}
          {ratio('testRatio', 'Test ratio')}
        </div>
      )}
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
      {request.mode === 'three' ? (
        <TextField
          label="Seed"
          name="seed"
          value={request.seed}
          limit={EXPORT_SEED_MAX_LENGTH}
          autoComplete="off"
          onChange={(event) => onChange('seed', event.target.value)}
          hint="Optional. The same seed and filters give the same split every time; another seed shuffles differently."
          error={(revealed ? tooLong(request.seed, EXPORT_SEED_MAX_LENGTH, 'The seed') : null) ?? apiFields.seed}
        />
      ) : null}
    </>
  );
}

function SplitOption({
  mode,
  current,
  label,
  hint,
  onChange,
}: {
  mode: SplitMode;
  current: SplitMode;
  label: string;
  hint: string;
  onChange: (mode: SplitMode) => void;
}) {
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
