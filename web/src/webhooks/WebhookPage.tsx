// /webhooks/:webhookId: one configuration — its settings (URL, events, retry policy, active), a test send,
// secret rotation (a new secret made here, shown once, confirmed as copied, then sent to rotate-secret,
// with 24 hours during which both secrets sign), deletion, the live delivery log with redelivery, and,
// when Concord disabled it after 3 days of failures, why and when, with a way to turn it back on.
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/errors';
import { BreakableAddress } from '../ui/BreakableAddress';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { formatDateTime } from '../ui/format';
import { DeliveryLog } from './DeliveryLog';
import { useDeleteWebhook, useUpdateWebhook, useWebhook, type WebhookConfig } from './queries';
import { SecretSection } from './RotateSecret';
import { SignatureHelp } from './SignatureHelp';
import { TestSend } from './TestSend';
import { ActiveBadge, EventList, RetryPolicyLabel } from './WebhookLabels';
import { WebhookSettingsForm } from './WebhookSettingsForm';
import { GatedButton, RoleNote, usePermission } from '../organisations/Permitted';
import './webhooks.css';

export function WebhookPage() {
  const { webhookId = '' } = useParams();
  const webhook = useWebhook(webhookId);

  if (webhook.isPending) return <Loading label="Loading the webhook…" />;
  if (webhook.isError) {
    const missing = webhook.error instanceof ApiError && webhook.error.code === 'WEBHOOK_NOT_FOUND';
    return (
      <>
        <PageHeader title="Webhook" />
        {missing ? (
          <Card>
            <EmptyState title="This webhook does not exist">
              <p>It may have been deleted, or the link belongs to another account.</p>
              <p>
                <Link to="/webhooks">Back to webhooks</Link>
              </p>
            </EmptyState>
          </Card>
        ) : (
          <ErrorNote error={webhook.error} />
        )}
      </>
    );
  }
  return <WebhookDetail config={webhook.data} readAt={webhook.dataUpdatedAt} />;
}

function WebhookDetail({ config, readAt }: { config: WebhookConfig; readAt: number }) {
  const navigate = useNavigate();
  const settings = useUpdateWebhook(config.id);
  const enable = useUpdateWebhook(config.id);
  const remove = useDeleteWebhook(config.id);
  const manages = usePermission('webhooks:write').allowed;
  return (
    <>
      <p className="wh-back">
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <PageHeader
        title="Webhook"
        description={
          <span className="wh-url">
            <BreakableAddress address={config.url} />
          </span>
        }
        actions={<ActiveBadge config={config} />}
      />
      {config.isActive ? null : config.disabledAt ? (
        <section className="wh-disabled" aria-label="Disabled by Concord">
          <h2>Disabled by Concord on {formatDateTime(config.disabledAt)}</h2>
          <p className="wh-disabled-reason">{config.disabledReason ?? 'Every delivery attempt failed for 3 days.'}</p>
          <p>
            New events create no deliveries for it, and its queued deliveries fail without a request (the events are still recorded). Fix the endpoint, check it
            with <em>Send test event</em>, then turn it back on.
          </p>
          <GatedButton permission="webhooks:write" variant="primary" busy={enable.isPending} onClick={() => enable.mutate({ isActive: true })}>
            Re-enable webhook
          </GatedButton>
          <ErrorNote error={enable.error} />
        </section>
      ) : (
        <Notice tone="warning">
          This webhook is paused: new events create no deliveries for it, and a redelivery fails with “configuration inactive” until you turn it back on.
        </Notice>
      )}
      {enable.isSuccess && config.isActive ? <Notice tone="success">Webhook re-enabled: new events are delivered again.</Notice> : null}
      <div className="grid-2">
        <Card title="Settings">
          <dl className="facts wh-facts">
            <dt>Created</dt>
            <dd>{formatDateTime(config.createdAt)}</dd>
            <dt>Id</dt>
            <dd className="mono">{config.id}</dd>
          </dl>
          {manages ? (
            <WebhookSettingsForm
              key={`${config.url}|${config.events.join(',')}|${config.isActive}|${config.retryPolicy}`}
              config={config}
              busy={settings.isPending}
              error={settings.error}
              saved={settings.isSuccess}
              onSave={(changes) => settings.mutate(changes)}
            />
          ) : (
            <>
              <WebhookFacts config={config} />
              <RoleNote permission="webhooks:write" />
            </>
          )}
        </Card>
        {manages ? (
          <div>
            <Card title="Test">
              <TestSend configId={config.id} isActive={config.isActive} />
            </Card>
            <Card title="Secret">
              <SecretSection config={config} readAt={readAt} />
              <SignatureHelp compact />
            </Card>
            <Card title="Delete">
              <p className="wh-section-text">Concord stops sending events to this URL at once, and its delivery log is deleted with it.</p>
              <ConfirmButton
                label="Delete webhook"
                title="Delete this webhook?"
                message={
                  <p>
                    Events will no longer be sent to <span className="wh-url">{config.url}</span>, and its delivery log is deleted. This cannot be undone.
                  </p>
                }
                confirmLabel="Delete webhook"
                onConfirm={async () => {
                  await remove.mutateAsync();
                  navigate('/webhooks', { state: { deletedUrl: config.url } });
                }}
              />
            </Card>
          </div>
        ) : (
          <Card title="Verifying signatures">
            <SignatureHelp compact />
          </Card>
        )}
      </div>
      <DeliveryLog configId={config.id} />
    </>
  );
}

/** The settings as they are, for a role that may read webhooks but not change them. */
function WebhookFacts({ config }: { config: WebhookConfig }) {
  return (
    <dl className="facts wh-facts">
      <dt>URL</dt>
      <dd className="wh-url">
        <BreakableAddress address={config.url} />
      </dd>
      <dt>Events</dt>
      <dd>
        <EventList events={config.events} />
      </dd>
      <dt>Retries</dt>
      <dd>
        <RetryPolicyLabel policy={config.retryPolicy} />
      </dd>
      <dt>Status</dt>
      <dd>
        <ActiveBadge config={config} />
      </dd>
    </dl>
  );
}
