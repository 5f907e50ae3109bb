export { AnnotationClient, type Answer, type NextFilters, type TaskType } from './annotation-client.ts';
export { BuyerClient } from './buyer-client.ts';
export { ConcordError, newIdempotencyKey, type ClientOptions } from './http.ts';
export { verifyWebhookSignature } from './webhooks.ts';
export type * from './types.ts';
export type { components, paths } from './generated/openapi.ts';
