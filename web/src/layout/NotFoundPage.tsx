import { Link } from 'react-router';
import { PageHeader } from '../ui/Page';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" description="There is no page at this address." />
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </>
  );
}
