// TODO(dashboard): built by the page's owner in this session.
import { PageHeader } from '../ui/Misc';

export function WebhooksPage() {
  return <PageHeader title="WebhooksPage" />;
}
