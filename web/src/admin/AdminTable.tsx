// The shared Table, laid out for phones: below 700 px each row becomes a small card, every value under
// its column's name (the headers are kept for screen readers), and no column is hidden.
import type { ReactNode } from 'react';
import { Table, type Column } from '../ui/Table';

interface AdminTableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
}

export function AdminTable<T>({ caption, columns, rows, rowKey }: AdminTableProps<T>) {
  const labelled = columns.map((column) => ({
    ...column,
    cell: (row: T): ReactNode => (
      <>
        {column.header === 'Actions' ? null : <span className="cell-label">{column.header}</span>}
        {column.cell(row)}
      </>
    ),
  }));
  return (
    <div className="admin-table">
      <Table caption={caption} columns={labelled} rows={rows} rowKey={rowKey} />
    </div>
  );
}
