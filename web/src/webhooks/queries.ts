// TanStack Query hooks of the webhooks area: configurations (list, one, create, change, delete, secret
// rotation, test send) and the delivery log of a configuration (live) with redelivery. Keys start with
// 'webhooks'.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../api/client';
import { liveInterval } from '../ui/live';

export type WebhookConfig = Schemas['WebhookConfig'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookEvent = WebhookConfig['events'][number];
export type RetryPolicy = WebhookConfig['retryPolicy'];
export type WebhookTestResult = Schemas['WebhookTestResult'];

/** A page of configurations: 20 is the most an account can have, so one page usually holds them all. */
const CONFIG_PAGE_SIZE = 20;
const DELIVERY_PAGE_SIZE = 25;

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => ['webhooks', 'list'] as const,
  list: (cursor: string | undefined) => ['webhooks', 'list', cursor ?? null] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
  deliveryPage: (id: string, cursor: string | undefined) => ['webhooks', 'deliveries', id, cursor ?? null] as const,
  deliveryTasks: (deliveryIds: readonly string[]) => ['webhooks', 'delivery-tasks', deliveryIds] as const,
};

/** Events read to find the task of a page of deliveries: at most this many pages of 100. */
const EVENT_PAGES_FOR_DELIVERIES = 3;
/** An event and its deliveries are written in one transaction; a minute's margin covers any clock step. */
const EVENT_MARGIN_MS = 60_000;

export function useWebhooks(cursor: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.list(cursor),
    queryFn: () => call(api.GET('/webhooks/configs', { params: { query: { limit: CONFIG_PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
}

export function useWebhook(id: string) {
  return useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: () => call(api.GET('/webhooks/configs/{id}', { params: { path: { id } } })),
  });
}

/** The delivery log, newest first; polls with back-off so new deliveries and retries show by themselves. */
export function useDeliveries(id: string, cursor: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.deliveryPage(id, cursor),
    queryFn: () =>
      call(
        api.GET('/webhooks/configs/{id}/deliveries', {
          params: { path: { id }, query: { limit: DELIVERY_PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: liveInterval,
  });
}

/**
 * Which task each delivery of a page is for. GET /webhooks/configs/:id/deliveries does not say (its rows
 * carry neither the event nor the task), but GET /events lists each event with its deliveries' ids: the
 * events since the page's oldest delivery are read (at most 300) and joined here. A delivery maps to its
 * event's taskId (null for budget.low); one not found among them is left out of the map.
 */
export function useDeliveryTasks(deliveries: readonly WebhookDelivery[]) {
  const ids = deliveries.map((delivery) => delivery.id);
  const oldest = deliveries.reduce((min, delivery) => Math.min(min, Date.parse(delivery.createdAt)), Number.POSITIVE_INFINITY);
  return useQuery({
    queryKey: webhookKeys.deliveryTasks(ids),
    enabled: ids.length > 0 && Number.isFinite(oldest),
    // Which task an event is for never changes.
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const wanted = new Set(ids);
      const tasks = new Map<string, string | null>();
      const since = new Date(oldest - EVENT_MARGIN_MS).toISOString();
      let cursor: string | undefined;
      for (let page = 0; page < EVENT_PAGES_FOR_DELIVERIES && tasks.size < wanted.size; page += 1) {
        const result = await call(api.GET('/events', { params: { query: { since, limit: 100, ...(cursor ? { cursor } : {}) } } }));
        for (const event of result.events) {
          for (const delivery of event.deliveries) if (wanted.has(delivery.id)) tasks.set(delivery.id, event.taskId);
        }
        if (!result.hasMore || !result.nextCursor) break;
        cursor = result.nextCursor;
      }
      return tasks;
    },
  });
}

export interface NewWebhook {
  url: string;
  events: WebhookEvent[];
  secret: string;
  retryPolicy: RetryPolicy;
}

/** Creates a configuration; the Idempotency-Key makes a retry after a lost response create nothing twice. */
export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: NewWebhook; idempotencyKey: string }) =>
      call(api.POST('/webhooks/configs', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } })),
    onSuccess: (created) => {
      client.setQueryData(webhookKeys.detail(created.id), created);
      return client.invalidateQueries({ queryKey: webhookKeys.lists() });
    },
  });
}

export interface WebhookChanges {
  url?: string;
  events?: WebhookEvent[];
  isActive?: boolean;
  retryPolicy?: RetryPolicy;
}

export function useUpdateWebhook(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookChanges) => call(api.PATCH('/webhooks/configs/{id}', { params: { path: { id } }, body })),
    onSuccess: (updated) => {
      client.setQueryData(webhookKeys.detail(id), updated);
      return client.invalidateQueries({ queryKey: webhookKeys.lists() });
    },
  });
}

export function useDeleteWebhook(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/webhooks/configs/{id}', { params: { path: { id } } })),
    // The page leaves right after; its detail and log queries are not refetched meanwhile (that would
    // only fetch a 404) and are garbage-collected once unused. Coming back shows "does not exist".
    onSuccess: async () => {
      await client.cancelQueries({ queryKey: webhookKeys.deliveries(id) });
      return client.invalidateQueries({ queryKey: webhookKeys.lists() });
    },
  });
}

/** Queues a delivery again (202); the live log then shows it PENDING and its new attempts. */
export function useRedeliver(configId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => call(api.POST('/webhooks/deliveries/{id}/redeliver', { params: { path: { id: deliveryId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(configId) }),
  });
}

/**
 * Rotates the secret (POST rotate-secret): the new one signs at once, the old one keeps signing the
 * Standard Webhooks header beside it until the configuration's rotationEndsAt (24 h).
 */
export function useRotateSecret(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (secret: string) => call(api.POST('/webhooks/configs/{id}/rotate-secret', { params: { path: { id } }, body: { secret } })),
    onSuccess: (updated) => {
      client.setQueryData(webhookKeys.detail(id), updated);
      return client.invalidateQueries({ queryKey: webhookKeys.lists() });
    },
  });
}

/** Sends a signed ping now and answers with its outcome; the ping then shows in the delivery log. */
export function useTestSend(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/webhooks/configs/{id}/test', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
