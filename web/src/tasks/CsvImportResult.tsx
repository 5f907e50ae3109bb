// The service's answer to a CSV upload: what was created and what it cost, and each refused row with its
// error in plain words next to the content it came from, numbered as the API numbers rows (csv.ts) with
// the file's line beside it, since that is what an editor shows; or, when the whole file was refused, why.
import { Link } from 'react-router';
import { ApiError, describeCode, describeError } from '../api/errors';
import { taskErrorSentence } from '../api/fieldErrors';
import { StatCard } from '../ui/Charts';
import { Notice } from '../ui/Feedback';
import { ScrollArea } from '../ui/ScrollArea';
import { formatCents, formatCount } from '../ui/format';
import { recordFields, type CsvParseResult, type CsvRecord } from './csv';
import type { CsvImportResult as ImportAnswer } from './queries';
import { excerpt } from './taskFormat';
import { CapRefusalHelp } from './Held';
import { heldCount, heldCreatedWords } from './held';

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
      {code === 'BUDGET_CAP_REACHED' ? <p>Nothing was created: a refused import is refused whole.</p> : null}
      <CapRefusalHelp error={error} instead="import fewer rows or lower their maxCents" />
    </div>
  );
}

/** The record the browser read for an API row number, when it read the same file. */
function recordOf(parsed: CsvParseResult | null, row: number): CsvRecord | null {
  const record: CsvRecord | undefined = parsed?.records[row - 1];
  return record && record.row === row ? record : null;
}

function contentOf(parsed: CsvParseResult | null, record: CsvRecord | null): string | null {
  if (!parsed?.header || !record) return null;
  return recordFields(parsed.header, record).content ?? null;
}

/** `replayed`: the service answered with an earlier import of the same file (nothing was created now). */
export function CsvImportResult({ result, parsed, replayed = false }: { result: ImportAnswer; parsed: CsvParseResult | null; replayed?: boolean }) {
  const failed = result.errors.length;
  const held = heldCreatedWords(heldCount(result.tasks), result.created);
  return (
    <section aria-label="Import result">
      <div className="import-summary">
        <StatCard label="Tasks created" value={formatCount(result.created)} />
        <StatCard label="Total cost" value={formatCents(result.totalCostCents)} hint="Charged as the tasks complete." />
        <StatCard label="Rows with errors" value={formatCount(failed)} tone={failed > 0 ? 'warning' : undefined} />
      </div>
      {result.created > 0 ? (
        <Notice tone={replayed ? 'info' : 'success'}>
          {formatCount(result.created)} {result.created === 1 ? 'task was' : 'tasks were'} created{replayed ? ' by that first import' : ''}.{' '}
          <Link to="/tasks">See them on the Tasks page</Link>.{held ? ` ${held}` : ''}
        </Notice>
      ) : (
        <Notice tone="warning">No task was created: every row has an error. Fix the rows below and upload the file again.</Notice>
      )}
      {failed > 0 ? (
        <>
          <h3 className="import-section-title" id="import-errors-title">
            {formatCount(failed)} {failed === 1 ? 'row was' : 'rows were'} not imported
          </h3>
          <ScrollArea label="Rows not imported">
            <table className="import-table import-errors" role="table" aria-labelledby="import-errors-title">
              <thead>
                <tr>
                  <th scope="col" className="import-row-num">
                    Row, line
                  </th>
                  <th scope="col">Content</th>
                  <th scope="col">Error</th>
                  <th scope="col">Code</th>
                </tr>
              </thead>
              <tbody>
                {result.errors.map((rowError) => {
                  const record = recordOf(parsed, rowError.row);
                  const content = contentOf(parsed, record);
                  const sentence = taskErrorSentence(rowError.error, rowError.code);
                  return (
                    <tr
                      key={rowError.row}
                      role="row"
                      data-row={rowError.row}
                      aria-label={`Row ${rowError.row}: ${sentence}${record ? ` (line ${record.line} of the file)` : ''}`}
                    >
                      <th scope="row" role="rowheader" className="import-row-num">
                        Row {rowError.row}
                        {record ? <span className="import-line">line {record.line}</span> : null}
                      </th>
                      <td role="cell" className="import-content-cell">
                        {content === null ? (
                          <span className="task-muted">—</span>
                        ) : content.trim() === '' ? (
                          <span className="task-muted">(empty)</span>
                        ) : (
                          excerpt(content, 80)
                        )}
                      </td>
                      <td role="cell" className="import-error-text import-error-cell">
                        {sentence}
                      </td>
                      <td role="cell" className="import-code-cell">
                        <code title={describeCode(rowError.code)}>{rowError.code}</code>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollArea>
        </>
      ) : null}
      <p className="import-file-facts">Choose another file to import more.</p>
    </section>
  );
}
