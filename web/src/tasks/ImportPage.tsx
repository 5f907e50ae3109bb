// TODO(dashboard): built by the page's owner in this session.
import { PageHeader } from '../ui/Misc';

export function ImportPage() {
  return <PageHeader title="ImportPage" />;
}
