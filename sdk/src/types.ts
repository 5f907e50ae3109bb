// Public types. Resources and request bodies come from the generated OpenAPI types, so they follow the
// server; query parameters are written here, with numbers as numbers (the SDK turns them into the query
// string), whatever type the document gives a query string.
import type { components, paths } from './generated/openapi.ts';
import type { PageParams } from './pagination.ts';

export type Schemas = components['schemas'];
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of an operation. */
export type BodyOf<P extends keyof paths, M extends Method> = JsonContent<NonNullable<Operation<P, M>['requestBody']>>;
/** The JSON body of an operation's success response (200, 201 or 202). */
export type ResponseOf<P extends keyof paths, M extends Method> = Operation<P, M>['responses'] extends infer R
  ? R extends { 200: infer S }
    ? JsonContent<S>
    : R extends { 201: infer S }
      ? JsonContent<S>
      : R extends { 202: infer S }
        ? JsonContent<S>
        : never
  : never;

// Enumerations.
export type TaskType = Schemas['TaskInput']['type'];
export type TaskStatus = Schemas['Task']['status'];
export type Locale = NonNullable<Schemas['TaskInput']['locale']>;
export type EventType = Schemas['Event']['type'];
import type { ExportFormat } from '@concord/contract';

export type { ExportFormat };

// Accounts.
export type Buyer = Schemas['Buyer'];
/** GET /auth/me for a buyer: the organisation the credential acts for, with the caller's e-mail and role there. */
export type CurrentBuyer = Schemas['CurrentBuyer'];
/** A buyer with its money (CurrentBuyer without the caller's role). */
export type BuyerAccount = Omit<CurrentBuyer, 'role'>;
/** One organisation the caller belongs to, with their role there. */
export type Membership = Schemas['Membership'];
/** A member of the organisation a credential acts for. */
export type Member = Schemas['Member'];
/** A pending invitation (never its link). */
export type Invitation = Schemas['Invitation'];
export type InvitationInput = BodyOf<'/invitations', 'post'>;
export type AcceptInvitationInput = BodyOf<'/invitations/accept', 'post'>;
export type AcceptedInvitation = ResponseOf<'/invitations/accept', 'post'>;
/** One change made to the organisation: who (a person, a key or the operator), from where, what, before and after. */
export type AuditEntry = Schemas['AuditEntry'];
export type DeveloperProfile = Schemas['DeveloperProfile'];
export type ServiceMeta = Schemas['ServiceMeta'];
export type RegisterInput = BodyOf<'/auth/register', 'post'>;
export type LoginInput = BodyOf<'/auth/login', 'post'>;
export type ChangePasswordInput = BodyOf<'/auth/change-password', 'post'>;
/** What register and login return: the JWT, the buyer, and a client signed in with that JWT. */
export interface SignedIn<C> {
  token: string;
  buyer: Buyer;
  client: C;
}
/** The money side of GET /auth/me. */
export interface Balance {
  /** Money held, in cents. */
  creditBalance: number;
  /** Cents reserved by open tasks. */
  reservedCents: number;
  /** creditBalance − reservedCents: what new tasks may reserve. */
  availableCents: number;
}

// Tasks.
export type Task = Schemas['Task'];
export type TaskListItem = Schemas['TaskListItem'];
export type TaskInput = Schemas['TaskInput'];
export type TaskUpdate = BodyOf<'/tasks/{id}', 'patch'>;
export type TaskCreated = ResponseOf<'/tasks', 'post'>;
export type TaskBatchCreated = ResponseOf<'/tasks/batch', 'post'>;
export type CsvImport = ResponseOf<'/tasks/batch/csv', 'post'>;
export type TaskCounts = Schemas['TaskCounts'];
/** An open task likely to miss its deadline (GET /tasks/at-risk), with the median completion time it was compared with. */
export type TaskAtRisk = Schemas['TasksAtRisk']['tasks'][number];
export interface AtRiskParams extends PageParams {
  projectId?: string;
}
export interface TaskFilters {
  status?: TaskStatus;
  type?: TaskType;
  projectId?: string;
  locale?: Locale;
}
export type TaskListParams = TaskFilters & PageParams;
export type TaskCountFilters = Omit<TaskFilters, 'status'>;

// Projects and golden tasks.
export type Project = Schemas['Project'];
export type ProjectWithStats = Schemas['ProjectWithStats'];
export type ProjectDistribution = Schemas['ProjectDistribution'];
export type ProjectPairwise = Schemas['ProjectPairwise'];
/** How far a batch's labels can be trusted: expected accuracy, golden evidence, shares, cost, warnings. */
export type QualityReport = Schemas['QualityReport'];
export type OptionSetsQuality = Schemas['OptionSetsQuality'];
export type ProjectInput = BodyOf<'/projects', 'post'>;
export type ProjectUpdate = BodyOf<'/projects/{id}', 'patch'>;
export type GoldenTask = Schemas['GoldenTask'];
export type GoldenTaskInput = Schemas['GoldenTaskInput'];

// Webhooks and events.
/** A configuration as read: `retryPolicy`, `rotationEndsAt`, `disabledAt` and `disabledReason` included; never its secret. */
export type WebhookConfig = Schemas['WebhookConfig'];
/** `spec` (the default: one retry 30 s later) or `extended` (8 attempts over about a day; disabled after 3 days of failures). */
export type RetryPolicy = WebhookConfig['retryPolicy'];
/** The body of POST /webhooks/configs as the service takes it (`secret` required). */
export type WebhookConfigInput = BodyOf<'/webhooks/configs', 'post'>;
/** What webhooks.create takes: without `secret`, the SDK generates a `whsec_` one (generateWebhookSecret). */
export type WebhookConfigCreate = Omit<WebhookConfigInput, 'secret'> & { secret?: string };
/**
 * A configuration just created, or whose secret was just rotated, with the secret that now signs its
 * deliveries: the one you gave, or the one the SDK generated. Returned this once; the service never
 * returns a secret.
 */
export type WebhookConfigWithSecret = WebhookConfig & { secret: string };
export type WebhookConfigUpdate = BodyOf<'/webhooks/configs/{id}', 'patch'>;
/** What a test send (POST /webhooks/configs/:id/test) reports: the ping's event id, and how the receiver answered. */
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** An event of the buyer's log (GET /events): its payload and its deliveries' outcome. */
export type ConcordEvent = Schemas['Event'];
/** An event as GET /events/stream sends it: the log's event without its deliveries (not attempted yet). */
export type StreamedEvent = Omit<ConcordEvent, 'deliveries'>;
export interface EventListParams extends PageParams {
  type?: EventType;
  /** Events created at or after this time (the log reaches back 30 days). */
  since?: Date | string;
  /** Events about this task. */
  taskId?: string;
}

/** Filters of the audit log (every one optional; together they all hold). */
export interface AuditLogParams extends PageParams {
  /** A member's account id or an API key's id. */
  actor?: string;
  /** The operation, e.g. `updateProject`. */
  action?: AuditEntry['action'];
  targetType?: AuditEntry['target']['type'];
  /** The changed resource's id. */
  target?: string;
  /** Entries at or after this time. */
  from?: Date | string;
  /** Entries before this time. */
  to?: Date | string;
}

// Money.
export type LedgerEntry = Schemas['LedgerEntry'];
export type Spend = Schemas['Spend'];
/** A project's budget cap and what its tasks commit (README, "Spending caps"). */
export type ProjectCap = Schemas['ProjectCap'];
/** The organisation's monthly cap and what this month's tasks commit. */
export type MonthlyCap = Schemas['MonthlyCap'];
export type SpendingCaps = ResponseOf<'/billing/caps', 'get'>;
export type ProjectCapInput = BodyOf<'/projects/{id}/budget-cap', 'put'>;
export type Deposit = Schemas['Deposit'];
export type DepositInput = BodyOf<'/billing/deposits', 'post'>;

// Exports.
export interface ExportParams {
  format: ExportFormat;
  /** COMPLETED unless set. */
  status?: TaskStatus;
  projectId?: string;
  type?: TaskType;
  locale?: Locale;
  /** Alone: one plain file. With valRatio and testRatio (summing to 1): a ZIP of train, val and test. */
  trainRatio?: number;
  valRatio?: number;
  testRatio?: number;
  /** Changes the deterministic shuffle of a split. */
  seed?: string;
  /** Only tasks whose (calibrated) confidence is at least this, 0–1. */
  minConfidence?: number;
  /** The preference format: also write pairs decided as a tie (chosen A, rejected B, tie: true). */
  includeTies?: boolean;
}
export interface ExportDownload {
  /** The server's file name: tasks-<format>.<ext>, or .zip for a split. */
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
  requestId: string | undefined;
  /** The response's headers: a split's `x-export-split` (records per file) and `x-export-empty-parts`. */
  headers: Headers;
}

// Buyer API keys (server-to-server credentials: `cnc_live_…` / `cnc_test_…`).
/** A key as listed: its id, name, `prefix` (the secret's first characters) and last use; never the secret. */
export type ApiKey = Schemas['BuyerApiKey'];
/** A key just created: `secret` is the key itself, shown this once. Use it as a BuyerClient's `apiKey`. */
export type CreatedApiKey = Schemas['BuyerApiKeyWithSecret'];
export type ApiKeyInput = BodyOf<'/api-keys', 'post'>;

// The developer (SDK) side.
export type Assignment = ResponseOf<'/sdk/tasks/next', 'get'>;
export type Reputation = Schemas['Reputation'];
export type Earnings = Schemas['Earnings'];
export type Payout = Schemas['Payout'];
export type PayoutInput = BodyOf<'/sdk/annotators/{annotatorId}/payouts', 'post'>;
type CompleteBody = BodyOf<'/sdk/tasks/{id}/complete', 'post'>;
/** An answer: the annotator, one of the task's options, and the time spent on it. */
export type Answer = Omit<CompleteBody, 'next'>;
/** The filters of GET /sdk/tasks/next (and of answerAndNext's next assignment). */
export interface NextFilters {
  locale?: Locale;
  types?: TaskType[];
}
export type CompleteResult = ResponseOf<'/sdk/tasks/{id}/complete', 'post'>;
