// /webhooks: the buyer's webhook configurations (cursor-paginated), the "New webhook" form in a
// drawer, and how to verify a delivery's signature.
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { Table, type Column } from '../ui/Table';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { SignatureHelp } from './SignatureHelp';
import { ActiveBadge, EventList, RetryPolicyLabel } from './WebhookLabels';
import { NewWebhookForm } from './NewWebhookForm';
import { useCreateWebhook, useWebhooks, type WebhookConfig } from './queries';
import { MAX_WEBHOOK_CONFIGS } from '@concord/contract';
import { BreakableAddress } from '../ui/BreakableAddress';
import { GatedButton } from '../organisations/Permitted';
import './webhooks.css';

const columns: Column<WebhookConfig>[] = [
  {
    header: 'URL',
    cell: (row) => (
      <Link to={`/webhooks/${row.id}`} className="wh-url">
        <BreakableAddress address={row.url} />
      </Link>
    ),
  },
  { header: 'Events', cell: (row) => <EventList events={row.events} /> },
  { header: 'Status', cell: (row) => <ActiveBadge config={row} /> },
  { header: 'Retries', cell: (row) => <RetryPolicyLabel policy={row.retryPolicy} />, wide: true },
  { header: 'Created', cell: (row) => <span className="wh-nowrap">{formatDateTime(row.createdAt)}</span>, wide: true },
];

export function WebhooksPage() {
  const pages = useCursorStack();
  const list = useWebhooks(pages.cursor);
  const create = useCreateWebhook();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<WebhookConfig | null>(null);
  const deleted = (useLocation().state as { deletedUrl?: string } | null)?.deletedUrl;

  const openForm = () => {
    create.reset();
    setCreated(null);
    setOpen(true);
  };
  const webhooks = list.data?.webhooks ?? [];
  const atLimit = pages.page === 1 && !list.data?.hasMore && webhooks.length >= MAX_WEBHOOK_CONFIGS;

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Concord sends a signed POST to your endpoints when a task completes or fails and when your balance runs low."
        actions={
          <GatedButton permission="webhooks:write" variant="primary" onClick={openForm}>
            New webhook
          </GatedButton>
        }
      />
      {created ? (
        <Notice tone="success">
          Webhook created for <span className="wh-url">{created.url}</span>. Its secret will not be shown again.{' '}
          <Link to={`/webhooks/${created.id}`}>Open its delivery log</Link>
        </Notice>
      ) : deleted ? (
        <Notice tone="success">
          Webhook for <span className="wh-url">{deleted}</span> deleted.
        </Notice>
      ) : null}
      {atLimit ? <Notice tone="info">You have {MAX_WEBHOOK_CONFIGS} webhooks, the most an account can have. Delete one before adding another.</Notice> : null}
      <Card title="Endpoints">
        {list.isPending ? (
          <Loading label="Loading webhooks…" />
        ) : list.isError ? (
          <ErrorNote error={list.error} />
        ) : webhooks.length === 0 ? (
          <EmptyState title="No webhooks yet">
            <p>Add an endpoint to hear about finished tasks without polling.</p>
          </EmptyState>
        ) : (
          <>
            <Table caption="Webhook endpoints" columns={columns} rows={webhooks} rowKey={(row) => row.id} />
            <Pager
              page={pages.page}
              hasMore={Boolean(list.data?.hasMore)}
              onPrevious={pages.previous}
              onNext={() => pages.next(list.data?.nextCursor)}
              busy={list.isFetching}
            />
            {pages.page === 1 && !list.data?.hasMore ? (
              <p className="field-hint">
                {webhooks.length} of {MAX_WEBHOOK_CONFIGS} webhooks used.
              </p>
            ) : null}
          </>
        )}
      </Card>
      <Card title="Verifying signatures">
        <SignatureHelp />
      </Card>
      <Dialog open={open} title="New webhook" variant="drawer" onClose={() => setOpen(false)}>
        <NewWebhookForm
          busy={create.isPending}
          error={create.error}
          onCancel={() => setOpen(false)}
          onSubmit={(body, idempotencyKey) =>
            create.mutate(
              { body, idempotencyKey },
              {
                onSuccess: (config) => {
                  setCreated(config);
                  setOpen(false);
                },
              },
            )
          }
        />
      </Dialog>
    </>
  );
}
