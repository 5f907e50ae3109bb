// A data table with a caption for screen readers; on narrow screens it scrolls inside its own box, which
// shows that it does (ScrollArea).
import type { ReactNode } from 'react';
import { ScrollArea } from './ScrollArea';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** Hidden below 700 px to keep phones readable. */
  wide?: boolean;
  /** Short values (times, amounts, codes) kept on one line, so a long text in another column cannot squeeze them. */
  nowrap?: boolean;
}

const cellClass = <T,>(column: Column<T>) =>
  [column.align === 'right' ? 'num' : '', column.wide ? 'wide' : '', column.nowrap ? 'nowrap' : ''].filter(Boolean).join(' ') || undefined;

interface TableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  onRowClick?: (row: T) => void;
  rowLabel?: (row: T) => string;
}

export function Table<T>({ caption, columns, rows, rowKey, onRowClick, rowLabel }: TableProps<T>) {
  return (
    <ScrollArea label={caption}>
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={cellClass(column)}>
                {column.header}
              </th>
            ))}
            {onRowClick ? (
              <th scope="col" className="sr-only-col">
                <span className="sr-only">Open</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={onRowClick ? 'clickable' : undefined} onClick={onRowClick ? () => onRowClick(row) : undefined}>
              {columns.map((column) => (
                <td key={column.header} className={cellClass(column)}>
                  {column.cell(row)}
                </td>
              ))}
              {onRowClick ? (
                <td className="row-open">
                  <button
                    type="button"
                    className="link-button"
                    onClick={(event) => {
                      event.stopPropagation();
                      onRowClick(row);
                    }}
                  >
                    {rowLabel ? rowLabel(row) : 'Open'}
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
