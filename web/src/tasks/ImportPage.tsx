// Import: many tasks at once, from a CSV file (partial import: valid rows are created, invalid rows are
// listed against their content) or from a pasted JSON batch (all or nothing).
import { Link } from 'react-router';
import { PageHeader } from '../ui/Page';
import { CsvImport } from './CsvImport';
import { JsonBatch } from './JsonBatch';
import './tasks.css';

export function ImportPage() {
  return (
    <>
      <PageHeader
        title="Import tasks"
        description="Create many tasks at once. Each task reserves its budget from your available balance when it is created."
        actions={
          <Link className="btn btn-secondary" to="/tasks">
            Back to tasks
          </Link>
        }
      />
      <CsvImport />
      <JsonBatch />
    </>
  );
}
