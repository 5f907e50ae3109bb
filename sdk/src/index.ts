// @concord/sdk: typed clients for the Concord data-labelling API (see sdk/README.md).
export { AnnotationClient, type AnnotationClientOptions } from './annotation-client.ts';
export {
  ApiKeysResource,
  AuthResource,
  BillingResource,
  BuyerClient,
  DepositsResource,
  EventsResource,
  ExportsResource,
  GoldenTasksResource,
  OrganisationsResource,
  ProjectsResource,
  TasksResource,
  WebhooksResource,
  type BuyerClientOptions,
} from './buyer-client.ts';
export {
  ConcordAbortError,
  ConcordAuthenticationError,
  ConcordConflictError,
  ConcordError,
  ConcordInsufficientCreditsError,
  ConcordNetworkError,
  ConcordNotFoundError,
  ConcordPermissionError,
  ConcordRateLimitError,
  ConcordServerError,
  ConcordTimeoutError,
  ConcordValidationError,
  ConcordWebhookVerificationError,
  type ApiErrorBody,
} from './errors.ts';
export { ConcordStreamResumeError, EventStream, SseParser, type EventStreamOptions, type SseMessage } from './event-stream.ts';
// The transport both clients use: retries, backoff, idempotency keys, timeouts and typed errors, for a call
// the typed methods do not cover (the concord CLI reads a batch's Idempotent-Replayed header with it).
export {
  HttpClient,
  newIdempotencyKey,
  type ClientOptions,
  type CreateOptions,
  type HttpMethod,
  type HttpRequest,
  type HttpResponse,
  type RequestOptions,
} from './http.ts';
export { PageList, type Page, type PageParams } from './pagination.ts';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SECRET_BYTES,
  generateWebhookSecret,
  signStandardWebhook,
  signWebhookBody,
  verifyWebhook,
  verifyWebhookSignature,
  webhookSecretProblem,
  type BudgetCapReachedEvent,
  type BudgetLowEvent,
  type PingEvent,
  type TaskCompletedEvent,
  type TaskFailedEvent,
  type TaskRejectedEvent,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks.ts';
export type * from './types.ts';
export type { components, paths } from './generated/openapi.ts';
