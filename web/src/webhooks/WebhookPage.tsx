// /webhooks/:webhookId: one configuration — its settings (URL, events, active), secret rotation (a new
// secret made here, shown once, confirmed as copied, then sent), deletion, and the live delivery log
// with redelivery.
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/errors';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { formatDateTime } from '../ui/format';
import { DeliveryLog } from './DeliveryLog';
import { useDeleteWebhook, useUpdateWebhook, useWebhook, type WebhookConfig } from './queries';
import { RotateSecretForm } from './RotateSecretForm';
import { SignatureHelp } from './SignatureHelp';
import { ActiveBadge } from './WebhookLabels';
import { WebhookSettingsForm } from './WebhookSettingsForm';
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
  return <WebhookDetail config={webhook.data} />;
}

function WebhookDetail({ config }: { config: WebhookConfig }) {
  const navigate = useNavigate();
  const settings = useUpdateWebhook(config.id);
  const rotation = useUpdateWebhook(config.id);
  const remove = useDeleteWebhook(config.id);
  return (
    <>
      <p className="wh-back">
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <PageHeader
        title="Webhook"
        description={<span className="wh-url">{config.url}</span>}
        actions={<ActiveBadge active={config.isActive} />}
      />
      {config.isActive ? null : (
        <Notice tone="warning">
          This webhook is paused: new events create no deliveries for it, and a redelivery fails with “configuration inactive” until you
          turn it back on.
        </Notice>
      )}
      <div className="grid-2">
        <Card title="Settings">
          <dl className="facts wh-facts">
            <dt>Created</dt>
            <dd>{formatDateTime(config.createdAt)}</dd>
            <dt>Id</dt>
            <dd className="mono">{config.id}</dd>
          </dl>
          <WebhookSettingsForm
            key={`${config.url}|${config.events.join(',')}|${config.isActive}`}
            config={config}
            busy={settings.isPending}
            error={settings.error}
            saved={settings.isSuccess}
            onSave={(changes) => settings.mutate(changes)}
          />
        </Card>
        <div>
          <Card title="Secret">
            <RotateSecretForm
              busy={rotation.isPending}
              error={rotation.error}
              onSave={(secret) => rotation.mutateAsync({ secret })}
              onStart={() => rotation.reset()}
              rotatedAt={rotation.isSuccess ? rotation.submittedAt : null}
            />
            <SignatureHelp compact />
          </Card>
          <Card title="Delete">
            <p className="wh-section-text">Concord stops sending events to this URL at once, and its delivery log is deleted with it.</p>
            <ConfirmButton
              label="Delete webhook"
              title="Delete this webhook?"
              message={
                <p>
                  Events will no longer be sent to <span className="wh-url">{config.url}</span>, and its delivery log is deleted. This cannot be
                  undone.
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
      </div>
      <DeliveryLog configId={config.id} />
    </>
  );
}
