// What the browser read of a chosen CSV file before it is sent: the problems the service would refuse
// it for (syntax, header), and its first rows numbered as the service numbers them, with their lines.
import { Notice } from '../ui/Feedback';
import { ScrollArea } from '../ui/ScrollArea';
import { formatCount } from '../ui/format';
import { CSV_COLUMNS, type CsvHeaderCheck } from '@concord/contract';
import { emptyOptionsWords, previewRows, recordFields, type CsvParseResult } from './csv';
import { excerpt } from './taskFormat';

const PREVIEW_ROWS = 5;

export function CsvLocalChecks({ parsed, problems }: { parsed: CsvParseResult; problems: CsvHeaderCheck | null }) {
  if (parsed.error) {
    return <Notice tone="warning">This file is not valid CSV, so the service will refuse it as a whole (INVALID_CSV): {parsed.error.message}</Notice>;
  }
  if (!parsed.header) return <Notice tone="warning">The file is empty. It needs a header line: type,content,options.</Notice>;
  if (!problems) return null;
  const parts: string[] = [];
  if (problems.missing.length) parts.push(`missing required column${problems.missing.length > 1 ? 's' : ''} ${problems.missing.join(', ')}`);
  if (problems.unknown.length) parts.push(`unknown column${problems.unknown.length > 1 ? 's' : ''} ${problems.unknown.join(', ')}`);
  if (problems.duplicate.length) parts.push(`duplicate column${problems.duplicate.length > 1 ? 's' : ''} ${problems.duplicate.join(', ')}`);
  if (parts.length === 0) {
    return parsed.records.length === 0 ? <Notice tone="warning">The file has a header but no data rows.</Notice> : null;
  }
  return (
    <Notice tone="warning">
      The header has {parts.join('; ')}. The service will refuse the file (INVALID_CSV). Accepted columns: {CSV_COLUMNS.join(', ')}.
    </Notice>
  );
}

const optionsText = (cell: string) => cell.split('|').join(' · ');

/** The columns a person reads rather than scans: they keep a readable width, and the table scrolls on a phone. */
const TEXT_COLUMNS: Record<string, string> = {
  content: 'import-content',
  candidateA: 'import-content',
  candidateB: 'import-content',
  options: 'import-options',
};

/**
 * A cell as the preview shows it: options joined by dots, a pairwise row's empty options as its answers
 * and a text row's as its written answer, texts cut short.
 */
function cellText(column: string, fields: Record<string, string>) {
  const value = fields[column] ?? '';
  if (column !== 'options') return excerpt(value, 80);
  const kindWords = emptyOptionsWords(fields);
  return kindWords ? <span className="task-muted">{kindWords}</span> : optionsText(value);
}

export function CsvPreview({ parsed }: { parsed: CsvParseResult }) {
  const header = parsed.header;
  if (!header || parsed.records.length === 0) return null;
  const rows = previewRows(parsed, PREVIEW_ROWS);
  const columns = header.filter((column) => column !== '');
  return (
    <>
      <h3 className="import-section-title">
        Preview: the first {rows.length} of {formatCount(parsed.records.length)} rows
      </h3>
      <ScrollArea label="Preview of the file">
        <table className="import-table">
          <caption className="sr-only">The first rows of the chosen file, as the service will number them</caption>
          <thead>
            <tr>
              <th scope="col" className="import-row-num">
                Row, line
              </th>
              {columns.map((column, index) => (
                <th key={`${column}-${index}`} scope="col" className="import-column">
                  <code>{column}</code>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((record) => {
              const fields = recordFields(header, record);
              return (
                <tr key={record.row}>
                  <th scope="row" className="import-row-num">
                    {record.row}
                    <span className="import-line">line {record.line}</span>
                  </th>
                  {columns.map((column, index) => (
                    <td key={`${column}-${index}`} className={TEXT_COLUMNS[column]}>
                      {cellText(column, fields)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollArea>
    </>
  );
}
