// TODO(dashboard): built by the page's owner in this session.
import { PageHeader } from '../ui/Misc';

export function OutboxPage() {
  return <PageHeader title="OutboxPage" />;
}
