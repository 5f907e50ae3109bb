// The live delivery log of a configuration, a page at a time, with redelivery of any delivery.
import { useState } from 'react';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { Card } from '../ui/Page';
import { Pager, useCursorStack } from '../ui/pagination';
import { DeliveryTable } from './DeliveryTable';
import { useDeliveries, useDeliveryTasks, useRedeliver } from './queries';
import { usePermission } from '../organisations/Permitted';

export function DeliveryLog({ configId }: { configId: string }) {
  const pages = useCursorStack();
  const log = useDeliveries(configId, pages.cursor);
  const redeliver = useRedeliver(configId);
  const redelivers = usePermission('webhooks:write').allowed;
  const [queued, setQueued] = useState<Map<string, number>>(new Map());
  const [errors, setErrors] = useState<Map<string, unknown>>(new Map());

  const onRedeliver = (id: string) => {
    setErrors((current) => withoutKey(current, id));
    redeliver.mutate(id, {
      onSuccess: () => setQueued((current) => new Map(current).set(id, Date.now())),
      onError: (error) => setErrors((current) => new Map(current).set(id, error)),
    });
  };
  const deliveries = log.data?.deliveries ?? [];
  const tasks = useDeliveryTasks(deliveries);
  return (
    <Card title="Delivery log" actions={log.isSuccess ? <span className="wh-live">Live · updates by itself</span> : null}>
      {log.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : log.isError ? (
        <ErrorNote error={log.error} />
      ) : deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet">
          <p>Each subscribed event creates a delivery here, with its status code and attempts.</p>
        </EmptyState>
      ) : (
        <>
          <DeliveryTable
            deliveries={deliveries}
            tasks={tasks.data}
            onRedeliver={redelivers ? onRedeliver : undefined}
            state={{
              sendingId: redeliver.isPending ? redeliver.variables : undefined,
              queued,
              errors,
            }}
          />
          <Pager
            page={pages.page}
            hasMore={Boolean(log.data?.hasMore)}
            onPrevious={pages.previous}
            onNext={() => pages.next(log.data?.nextCursor)}
            busy={log.isFetching && log.isPlaceholderData}
          />
        </>
      )}
    </Card>
  );
}

function withoutKey<V>(map: Map<string, V>, key: string): Map<string, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}
