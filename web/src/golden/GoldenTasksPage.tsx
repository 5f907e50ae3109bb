// TODO(dashboard): built by the page's owner in this session.
import { PageHeader } from '../ui/Misc';

export function GoldenTasksPage() {
  return <PageHeader title="GoldenTasksPage" />;
}
