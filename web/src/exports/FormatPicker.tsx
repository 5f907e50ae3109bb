// The export's format: one radio per format the API writes, each with what its file holds; for the
// preference format, whether the pairs decided as a tie are written too.
import { useId } from 'react';
import { ApiError, describeError } from '../api/errors';
import type { ExportFormat } from '@concord/contract';
import { FORMATS } from './exportRequest';

interface FormatPickerProps {
  value: ExportFormat | '';
  onChange: (format: ExportFormat) => void;
  /** No format chosen (or the link's one is unknown) and the form was sent. */
  missing: boolean;
  apiError: ApiError | null;
}

export function FormatPicker({ value, onChange, missing, apiError }: FormatPickerProps) {
  const refused = apiError?.code === 'INVALID_FORMAT';
  return (
    <fieldset className="plain-fieldset" aria-describedby={missing || refused ? 'export-format-error' : undefined}>
      <legend className="sr-only">Format</legend>
      <div className="format-grid">
        {FORMATS.map((format) => (
          <FormatOption key={format.id} id={format.id} description={format.description} checked={value === format.id} onChange={() => onChange(format.id)} />
        ))}
      </div>
      {missing ? (
        <p id="export-format-error" className="field-error">
          Choose an export format.
        </p>
      ) : refused && apiError ? (
        <p id="export-format-error" className="field-error" role="alert">
          {describeError(apiError)} ({apiError.message})
        </p>
      ) : null}
    </fieldset>
  );
}

function FormatOption({ id, description, checked, onChange }: { id: ExportFormat; description: string; checked: boolean; onChange: () => void }) {
  const descriptionId = useId();
  return (
    <label className={`format-option${checked ? ' checked' : ''}`}>
      <span className="format-head">
        <input type="radio" name="format" value={id} checked={checked} onChange={onChange} aria-label={id} aria-describedby={descriptionId} />
        <span className="format-name mono">{id}</span>
      </span>
      <span id={descriptionId} className="format-description">
        {description}
      </span>
    </label>
  );
}

/** The preference format's one setting: ties are left out unless asked for (includeTies=true). */
export function IncludeTies({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const hintId = useId();
  return (
    <div className="export-ties">
      <label className="checkbox">
        <input type="checkbox" name="includeTies" checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} aria-describedby={hintId} />
        Include ties
      </label>
      <p id={hintId} className="field-hint">
        A pair decided as a tie is written with A as chosen, B as rejected and <code>"tie": true</code>. Left out, the file holds only pairs with a winner.
      </p>
    </div>
  );
}
