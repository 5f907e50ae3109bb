// The service's answer to a CSV upload: what was created and what it cost, and each refused row with its
// error next to the content it came from (rows numbered as the API numbers them, csv.ts); or, when the
// whole file was refused, why.
import { Link } from 'react-router';
import { ApiError, describeCode, describeError } from '../api/errors';
import { StatCard } from '../ui/Charts';
import { Notice } from '../ui/Feedback';
import { formatCents, formatCount } from '../ui/format';
import { recordFields, type CsvParseResult, type CsvRecord } from './csv';
import type { CsvImportResult as ImportAnswer } from './queries';
import { excerpt } from './taskFormat';

export function CsvUploadError({ error }: { error: unknown }) {
  const code = error instanceof ApiError ? error.code : '';
  return (
    <div role="alert" className="error-note import-upload-error">
      <p>{describeError(error)}</p>
      {/* INVALID_CSV names the problem (a missing column, an unclosed quote): show the service's words too. */}
      {code === 'INVALID_CSV' && error instanceof ApiError ? <p>{error.message}</p> : null}
      {code === 'INSUFFICIENT_CREDITS' ? (
        <p>
          Nothing was created. <Link to="/billing">Add credits</Link>, or lower the rows' <code>maxCents</code>.
        </p>
      ) : null}
    </div>
  );
}

function contentOf(parsed: CsvParseResult | null, row: number): string | null {
  if (!parsed?.header) return null;
  const record: CsvRecord | undefined = parsed.records[row - 1];
  if (!record || record.row !== row) return null;
  const fields = recordFields(parsed.header, record);
  return fields.content ?? null;
}

/** The service's message for a row, as a sentence. */
const rowSentence = (message: string, code: string) => {
  const text = message.replace(/^Invalid task: /, '').trim() || describeCode(code);
  return /[.!?]$/.test(text) ? text : `${text}.`;
};

export function CsvImportResult({ result, parsed }: { result: ImportAnswer; parsed: CsvParseResult | null }) {
  const failed = result.errors.length;
  return (
    <section aria-label="Import result">
      <div className="import-summary">
        <StatCard label="Tasks created" value={formatCount(result.created)} />
        <StatCard label="Total cost" value={formatCents(result.totalCostCents)} hint="Charged as the tasks complete." />
        <StatCard label="Rows with errors" value={formatCount(failed)} tone={failed > 0 ? 'warning' : undefined} />
      </div>
      {result.created > 0 ? (
        <Notice tone="success">
          {formatCount(result.created)} {result.created === 1 ? 'task was' : 'tasks were'} created. <Link to="/tasks">See them on the Tasks page</Link>.
        </Notice>
      ) : (
        <Notice tone="warning">No task was created: every row has an error. Fix the rows below and upload the file again.</Notice>
      )}
      {failed > 0 ? (
        <>
          <h3 className="import-section-title" id="import-errors-title">
            {formatCount(failed)} {failed === 1 ? 'row was' : 'rows were'} not imported
          </h3>
          <div className="table-scroll">
            <table className="import-table import-errors" role="table" aria-labelledby="import-errors-title">
              <thead>
                <tr>
                  <th scope="col" className="import-row-num">
                    Row
                  </th>
                  <th scope="col">Content</th>
                  <th scope="col">Error</th>
                  <th scope="col">Code</th>
                </tr>
              </thead>
              <tbody>
                {result.errors.map((rowError) => {
                  const content = contentOf(parsed, rowError.row);
                  const sentence = rowSentence(rowError.error, rowError.code);
                  return (
                    <tr key={rowError.row} role="row" data-row={rowError.row} aria-label={`Row ${rowError.row}: ${sentence}`}>
                      <th scope="row" role="rowheader" className="import-row-num">
                        Row {rowError.row}
                      </th>
                      <td role="cell" className="import-content-cell">{content === null ? <span className="task-muted">—</span> : content.trim() === '' ? <span className="task-muted">(empty)</span> : excerpt(content, 80)}</td>
                      <td role="cell" className="import-error-text import-error-cell">{sentence}</td>
                      <td role="cell" className="import-code-cell">
                        <code title={describeCode(rowError.code)}>{rowError.code}</code>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <p className="import-file-facts">Choose another file to import more.</p>
    </section>
  );
}
