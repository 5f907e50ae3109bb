// For buyers: tasks, projects, golden tasks, results, exports, webhooks, events, money and API keys,
// signed in with a password JWT or a buyer API key. Methods are grouped by resource
// (`client.tasks.create(…)`, `client.webhooks.list()`), each taking RequestOptions last.
import { HttpClient, type ClientOptions, type CreateOptions, type HttpRequest, type RequestOptions } from './http.ts';
import { ConcordError } from './errors.ts';
import { EventStream, type EventStreamOptions } from './event-stream.ts';
import { PageList, type Page, type PageParams } from './pagination.ts';
import type {
  ApiKey,
  ApiKeyInput,
  Balance,
  CurrentBuyer,
  ChangePasswordInput,
  CreatedApiKey,
  CsvImport,
  Deposit,
  DepositInput,
  ConcordEvent,
  EventListParams,
  ExportDownload,
  ExportParams,
  GoldenTask,
  GoldenTaskInput,
  LedgerEntry,
  LoginInput,
  MonthlyCap,
  ProjectCap,
  ProjectCapInput,
  SpendingCaps,
  AcceptedInvitation,
  AcceptInvitationInput,
  AuditEntry,
  AuditLogParams,
  Invitation,
  InvitationInput,
  Member,
  Membership,
  Project,
  ProjectDistribution,
  ProjectPairwise,
  QualityReport,
  OptionSetsQuality,
  ProjectInput,
  ProjectUpdate,
  ProjectWithStats,
  RegisterInput,
  ResponseOf,
  ServiceMeta,
  SignedIn,
  Spend,
  Task,
  TaskBatchCreated,
  TaskCountFilters,
  TaskCounts,
  TaskAtRisk,
  AtRiskParams,
  TaskCreated,
  TaskInput,
  TaskListItem,
  TaskListParams,
  TaskUpdate,
  WebhookConfig,
  WebhookConfigCreate,
  WebhookConfigUpdate,
  WebhookConfigWithSecret,
  WebhookDelivery,
  WebhookTestResult,
} from './types.ts';
import { generateWebhookSecret } from './webhooks.ts';
import { ORGANISATION_HEADER } from '@concord/contract';

/**
 * A buyer client signs in with exactly one credential: a password JWT (`token`) or an API key (`apiKey`).
 * `organisationId` makes a JWT act for another organisation its person belongs to, on every request
 * (sent as `X-Concord-Organisation`; an API key belongs to one organisation and ignores it).
 */
export type BuyerClientOptions = ClientOptions & { organisationId?: string } & ({ token: string; apiKey?: undefined } | { apiKey: string; token?: undefined });

const id = (value: string) => encodeURIComponent(value);

/** The shared plumbing of every resource: the transport and a paginated-list builder. */
class Resource {
  constructor(protected readonly http: HttpClient) {}

  /** A PageList over `GET path`, whose response holds its items under `key`. */
  protected paginate<T>(key: string, path: string, params: PageParams & Record<string, unknown>, options: RequestOptions): PageList<T> {
    const { limit: _limit, cursor: _cursor, ...filters } = params;
    return new PageList<T>(
      async (paging, callOptions) => {
        const body = await this.http.json<Record<string, unknown> & { nextCursor: string | null; hasMore: boolean }>({
          method: 'GET',
          path,
          query: { ...(filters as HttpRequest['query']), limit: paging.limit, cursor: paging.cursor },
          options: callOptions,
        });
        return { data: (body[key] ?? []) as T[], nextCursor: body.nextCursor, hasMore: body.hasMore } satisfies Page<T>;
      },
      { limit: params.limit, cursor: params.cursor },
      options,
    );
  }
}

export class AuthResource extends Resource {
  constructor(
    http: HttpClient,
    private readonly usesJwt: () => boolean,
  ) {
    super(http);
  }

  /**
   * The organisation the credential acts for, with the balance, the reserved cents and what is available,
   * and the caller's own e-mail and role there.
   */
  async me(options: RequestOptions = {}): Promise<CurrentBuyer> {
    const me = await this.http.json<ResponseOf<'/auth/me', 'get'>>({ method: 'GET', path: '/auth/me', options });
    if (!('buyer' in me) || !me.buyer) {
      throw new ConcordError({ message: "This credential is not a buyer's", code: 'NOT_A_BUYER', status: 200 });
    }
    return me.buyer;
  }

  /**
   * Changes the password and returns the fresh JWT: every older JWT of the account stops working at once.
   * A client signed in with a JWT switches to the fresh one itself. Refused (403) with an API key.
   */
  async changePassword(input: ChangePasswordInput, options: RequestOptions = {}): Promise<{ token: string }> {
    const result = await this.http.json<{ token: string }>({ method: 'POST', path: '/auth/change-password', body: input, options });
    if (this.usesJwt()) this.http.credential = result.token;
    return result;
  }
}

/** The organisations a person belongs to (docs/organisations.md), and acting for another of them. */
export class OrganisationsResource extends Resource {
  /** The caller's organisations, their own first, with their role in each. */
  async list(options: RequestOptions = {}): Promise<Membership[]> {
    const body = await this.http.json<{ organisations: Membership[] }>({ method: 'GET', path: '/organisations', options });
    return body.organisations;
  }

  /**
   * A JWT acting for another organisation the person belongs to; this client uses it from then on.
   * Refused (403) with an API key, or where the person is no member.
   */
  async switch(organisationId: string, options: RequestOptions = {}): Promise<{ token: string; organisation: Membership }> {
    const result = await this.http.json<{ token: string; organisation: Membership }>({
      method: 'POST',
      path: '/auth/switch',
      body: { organisationId },
      options,
    });
    this.http.credential = result.token;
    delete this.http.defaultHeaders[ORGANISATION_HEADER.toLowerCase()];
    return result;
  }

  /** The members of the organisation acted for, oldest first (needs members:write: owners and admins). */
  async members(options: RequestOptions = {}): Promise<Member[]> {
    return (await this.http.json<{ members: Member[] }>({ method: 'GET', path: '/members', options })).members;
  }

  /** Changes a member's role; making, changing or ending an owner is an owner's to do. */
  updateMember(accountId: string, role: Member['role'], options: RequestOptions = {}): Promise<Member> {
    return this.http.json({ method: 'PATCH', path: `/members/${id(accountId)}`, body: { role }, options });
  }

  /** Removes a member: their tokens stop acting for the organisation at once. */
  async removeMember(accountId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/members/${id(accountId)}`, options });
  }

  /** Invites an address with a role: the service e-mails a one-use link, valid 7 days. Not retried. */
  async invite(input: InvitationInput, options: RequestOptions = {}): Promise<Invitation> {
    return (await this.http.json<{ invitation: Invitation }>({ method: 'POST', path: '/invitations', body: input, options })).invitation;
  }

  /** The pending invitations, newest first. */
  async invitations(options: RequestOptions = {}): Promise<Invitation[]> {
    return (await this.http.json<{ invitations: Invitation[] }>({ method: 'GET', path: '/invitations', options })).invitations;
  }

  /** Revokes a pending invitation: its link stops working. */
  async revokeInvitation(invitationId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/invitations/${id(invitationId)}`, options });
  }

  /**
   * The audit log, newest first (audit:read: owners and admins): every change made to the organisation, by
   * whom (a person, an API key or the operator), from which address, with the settings before and after.
   */
  auditLog(params: AuditLogParams = {}, options: RequestOptions = {}): PageList<AuditEntry> {
    const { from, to, ...rest } = params;
    const iso = (at: Date | string | undefined) => (at instanceof Date ? at.toISOString() : at);
    return this.paginate('entries', '/audit-log', { ...rest, from: iso(from), to: iso(to) }, options);
  }
}

export class TasksResource extends Resource {
  /** Creates one task and reserves its maxCents. Retried safely: it carries an Idempotency-Key. */
  create(task: TaskInput, options: CreateOptions = {}): Promise<TaskCreated> {
    return this.http.json({ method: 'POST', path: '/tasks', body: task, idempotent: true, options });
  }

  /** Creates 1–1 000 tasks, all or none (INVALID_TASK names the refused one by `taskIndex`). */
  createBatch(tasks: TaskInput[], options: CreateOptions = {}): Promise<TaskBatchCreated> {
    return this.http.json({ method: 'POST', path: '/tasks/batch', body: { tasks }, idempotent: true, options });
  }

  /**
   * Imports a CSV (header type,content,options[,locale,maxCents,projectId,validationsNeeded]; options
   * separated by `|`; at most 5 MB). Valid rows are created, refused ones listed in `errors`.
   */
  uploadCsv(csv: string | Blob | Uint8Array, options: CreateOptions & { filename?: string } = {}): Promise<CsvImport> {
    const form = new FormData();
    // Bytes are copied onto an ArrayBuffer of their own (a Buffer may be a view of a larger or shared one).
    const blob = csv instanceof Blob ? csv : new Blob([typeof csv === 'string' ? csv : new Uint8Array(csv)], { type: 'text/csv' });
    form.set('file', blob, options.filename ?? 'tasks.csv');
    return this.http.json({ method: 'POST', path: '/tasks/batch/csv', form, idempotent: true, options });
  }

  /** One task with its answers (`responses`), `failureReason` and quality settings. */
  get(taskId: string, options: RequestOptions = {}): Promise<Task> {
    return this.http.json({ method: 'GET', path: `/tasks/${id(taskId)}`, options });
  }

  /**
   * Changes a task: its deadline (null removes it) and priority while it is open, its other fields while it
   * is PENDING (TASK_NOT_PENDING otherwise); a higher maxCents reserves the difference.
   */
  update(taskId: string, changes: TaskUpdate, options: RequestOptions = {}): Promise<Task> {
    return this.http.json({ method: 'PATCH', path: `/tasks/${id(taskId)}`, body: changes, options });
  }

  /**
   * Rejects a COMPLETED task's result (once, within 7 days of its decision): the task is decided again at a
   * higher target, its charge refunded and its budget reserved meanwhile. Never retried: a repeat is
   * ALREADY_REJECTED.
   */
  reject(taskId: string, reason: string, options: RequestOptions = {}): Promise<Task> {
    return this.http.json({ method: 'POST', path: `/tasks/${id(taskId)}/reject`, body: { reason }, options });
  }

  /** Deletes a PENDING task and releases its reservation. */
  async delete(taskId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/tasks/${id(taskId)}`, options });
  }

  /** The buyer's tasks, newest first: `for await` walks them all, `.page()` reads one page. */
  list(params: TaskListParams = {}, options: RequestOptions = {}): PageList<TaskListItem> {
    return this.paginate('tasks', '/tasks', { ...params }, options);
  }

  /**
   * Open tasks whose deadline is nearer than their project's median completion time, soonest deadline
   * first: `for await` walks them all, `.page()` reads one page.
   */
  atRisk(params: AtRiskParams = {}, options: RequestOptions = {}): PageList<TaskAtRisk> {
    return this.paginate('tasks', '/tasks/at-risk', { ...params }, options);
  }

  /** How many of the buyer's tasks are in each status. */
  counts(filters: TaskCountFilters = {}, options: RequestOptions = {}): Promise<TaskCounts> {
    return this.http.json({ method: 'GET', path: '/tasks/counts', query: { ...filters }, options });
  }
}

export class ProjectsResource extends Resource {
  create(project: ProjectInput, options: CreateOptions = {}): Promise<Project> {
    return this.http.json({ method: 'POST', path: '/projects', body: project, idempotent: true, options });
  }

  /** A project with its task counts by status and what it has cost. */
  get(projectId: string, options: RequestOptions = {}): Promise<ProjectWithStats> {
    return this.http.json({ method: 'GET', path: `/projects/${id(projectId)}`, options });
  }

  /** Renames, describes or changes the quality settings (applied to tasks created afterwards). */
  update(projectId: string, changes: ProjectUpdate, options: RequestOptions = {}): Promise<Project> {
    return this.http.json({ method: 'PATCH', path: `/projects/${id(projectId)}`, body: changes, options });
  }

  /**
   * Sets the project's budget cap in cents (`capCents: null` removes it): what its tasks may commit over its
   * life. Past it a creation is refused with 402 BUDGET_CAP_REACHED, or with `capAction: 'hold'` its tasks
   * are created held (neither reserved nor served) until the cap is set again; `capAction` omitted keeps the
   * project's. Setting it releases held tasks that now fit. Needs money:write.
   */
  setBudgetCap(projectId: string, cap: ProjectCapInput, options: RequestOptions = {}): Promise<ProjectCap> {
    return this.http.json({ method: 'PUT', path: `/projects/${id(projectId)}/budget-cap`, body: cap, options });
  }

  /** Deletes a project without tasks (PROJECT_HAS_TASKS otherwise). */

  async delete(projectId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/projects/${id(projectId)}`, options });
  }

  list(params: PageParams = {}, options: RequestOptions = {}): PageList<Project> {
    return this.paginate('projects', '/projects', { ...params }, options);
  }

  /** Results and confidence of the project's completed tasks. */
  distribution(projectId: string, options: RequestOptions = {}): Promise<ProjectDistribution> {
    return this.http.json({ method: 'GET', path: `/projects/${id(projectId)}/distribution`, options });
  }

  /** The project's pairwise groups (ranking, win rates) and its annotators' position bias. */
  pairwise(projectId: string, options: RequestOptions = {}): Promise<ProjectPairwise> {
    return this.http.json({ method: 'GET', path: `/projects/${id(projectId)}/pairwise`, options });
  }

  /** How far the project's labels can be trusted: expected accuracy, the golden evidence behind it, warnings. */
  quality(projectId: string, options: RequestOptions = {}): Promise<QualityReport> {
    return this.http.json({ method: 'GET', path: `/projects/${id(projectId)}/quality`, options });
  }

  /** The same report for tasks without a project, one per option set. */
  optionSetsQuality(options: RequestOptions = {}): Promise<OptionSetsQuality> {
    return this.http.json({ method: 'GET', path: '/quality/option-sets', options });
  }
}

export class GoldenTasksResource extends Resource {
  /** A task whose answer you know, served blind to measure annotators; free, never exported. */
  create(golden: GoldenTaskInput, options: CreateOptions = {}): Promise<GoldenTask> {
    return this.http.json({ method: 'POST', path: '/golden-tasks', body: golden, idempotent: true, options });
  }

  list(params: PageParams = {}, options: RequestOptions = {}): PageList<GoldenTask> {
    return this.paginate('goldenTasks', '/golden-tasks', { ...params }, options);
  }

  async delete(goldenTaskId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/golden-tasks/${id(goldenTaskId)}`, options });
  }
}

export class WebhooksResource extends Resource {
  /**
   * Subscribes a URL to events, with its `retryPolicy` (`spec` unless set). The secret signs each
   * delivery and is never returned by the service: give yours, or leave it out and the SDK generates a
   * `whsec_` one (generateWebhookSecret), which also signs the Standard Webhooks headers. Either way the
   * result carries `secret` this once: store it for your receiver. Retried safely with an
   * Idempotency-Key; when you pass your own `idempotencyKey` to repeat a creation across runs, pass your
   * own secret too (a generated one differs each run, and the service refuses a key reused with another body).
   */
  async create(config: WebhookConfigCreate, options: CreateOptions = {}): Promise<WebhookConfigWithSecret> {
    const secret = config.secret ?? generateWebhookSecret();
    const created = await this.http.json<WebhookConfig>({ method: 'POST', path: '/webhooks/configs', body: { ...config, secret }, idempotent: true, options });
    return { ...created, secret };
  }

  get(configId: string, options: RequestOptions = {}): Promise<WebhookConfig> {
    return this.http.json({ method: 'GET', path: `/webhooks/configs/${id(configId)}`, options });
  }

  /** Changes url, events, isActive, retryPolicy or secret (replaced at once; rotateSecret keeps the old one signing for 24 h). */
  update(configId: string, changes: WebhookConfigUpdate, options: RequestOptions = {}): Promise<WebhookConfig> {
    return this.http.json({ method: 'PATCH', path: `/webhooks/configs/${id(configId)}`, body: changes, options });
  }

  async delete(configId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/webhooks/configs/${id(configId)}`, options });
  }

  list(params: PageParams = {}, options: RequestOptions = {}): PageList<WebhookConfig> {
    return this.paginate('webhooks', '/webhooks/configs', { ...params }, options);
  }

  /**
   * Replaces the secret without downtime: for 24 h (until the result's `rotationEndsAt`) deliveries carry
   * Standard Webhooks signatures under both the new and the old secret; x-service-signature uses the new
   * one at once. Without `secret`, the SDK generates a `whsec_` one; the result carries the new secret
   * this once. Not retried by the SDK (a repeat after a lost answer is refused: it is the current secret).
   */
  async rotateSecret(configId: string, secret?: string, options: RequestOptions = {}): Promise<WebhookConfigWithSecret> {
    const next = secret ?? generateWebhookSecret();
    const rotated = await this.http.json<WebhookConfig>({
      method: 'POST',
      path: `/webhooks/configs/${id(configId)}/rotate-secret`,
      body: { secret: next },
      options,
    });
    return { ...rotated, secret: next };
  }

  /**
   * Sends a signed `ping` event (`{event: 'ping', webhookId, sentAt}`) to the configuration now, active or
   * not, and reports how its URL answered: `delivered` (a 2xx in time), `statusCode`, `latencyMs`,
   * `responseHeaders`, `responseExcerpt` (from a public address only), `error`. 10 a minute per buyer (ConcordRateLimitError beyond); not retried by the SDK.
   */
  test(configId: string, options: RequestOptions = {}): Promise<WebhookTestResult> {
    return this.http.json({ method: 'POST', path: `/webhooks/configs/${id(configId)}/test`, body: {}, options });
  }

  /** A configuration's delivery log, newest first. */
  deliveries(configId: string, params: PageParams = {}, options: RequestOptions = {}): PageList<WebhookDelivery> {
    return this.paginate('deliveries', `/webhooks/configs/${id(configId)}/deliveries`, { ...params }, options);
  }

  /** Queues a delivery again (202). Not retried by the SDK: a repeat would queue it twice. */
  redeliver(deliveryId: string, options: RequestOptions = {}): Promise<{ queued: true }> {
    return this.http.json({ method: 'POST', path: `/webhooks/deliveries/${id(deliveryId)}/redeliver`, options });
  }
}

export class EventsResource extends Resource {
  /** The buyer's events of the last 30 days, newest first, with their deliveries' outcome. */
  list(params: EventListParams = {}, options: RequestOptions = {}): PageList<ConcordEvent> {
    const { since, ...rest } = params;
    return this.paginate('events', '/events', { ...rest, since: since instanceof Date ? since.toISOString() : since }, options);
  }

  get(eventId: string, options: RequestOptions = {}): Promise<ConcordEvent> {
    return this.http.json({ method: 'GET', path: `/events/${id(eventId)}`, options });
  }

  /**
   * The buyer's new events as they commit, in order, live (GET /events/stream): `for await (const event of
   * client.events.stream())`. From now on, or right after `lastEventId`. It reconnects by itself after any
   * disconnection (resuming after the last event it handed out, so nothing is missed or repeated), with
   * backoff and the service's Retry-After; it ends when `signal` aborts or you break out of the loop.
   * It throws ConcordAuthenticationError / ConcordPermissionError (the credential is refused, or was
   * revoked), ConcordStreamResumeError (the `lastEventId` is not one of your events of the last 30 days:
   * reconcile with events.list({since}), then stream from now), or the error of a service without the stream (404).
   */
  stream(options: EventStreamOptions = {}): EventStream {
    return new EventStream(this.http, options);
  }
}

export class BillingResource extends Resource {
  /** Balance, reserved and available cents (from GET /auth/me). */
  async balance(options: RequestOptions = {}): Promise<Balance> {
    const me = await new AuthResource(this.http, () => false).me(options);
    return { creditBalance: me.creditBalance, reservedCents: me.reservedCents, availableCents: me.availableCents };
  }

  /** Every money movement, newest first; each row's balanceAfterCents follows from the older one's. */
  ledger(params: PageParams = {}, options: RequestOptions = {}): PageList<LedgerEntry> {
    return this.paginate('entries', '/billing/ledger', { ...params }, options);
  }

  /** The monthly cap and the projects' budget caps, each with what is committed under it. */
  caps(options: RequestOptions = {}): Promise<SpendingCaps> {
    return this.http.json({ method: 'GET', path: '/billing/caps', options });
  }

  /** Sets the monthly cap in cents (null removes it): what the tasks created in a calendar month (UTC) may commit. */
  setMonthlyCap(capCents: number | null, options: RequestOptions = {}): Promise<MonthlyCap> {
    return this.http.json({ method: 'PUT', path: '/billing/caps/monthly', body: { capCents }, options });
  }

  /** Charges, deposits and adjustments per UTC day, over the last `days` days (30 unless set, at most 366). */
  spend(params: { days?: number } = {}, options: RequestOptions = {}): Promise<Spend> {
    return this.http.json({ method: 'GET', path: '/billing/spend', query: { days: params.days }, options });
  }
}

export class DepositsResource extends Resource {
  /** Starts a top-up: send the buyer to `checkoutUrl`; the balance moves when the provider confirms. */
  create(deposit: DepositInput, options: CreateOptions = {}): Promise<Deposit> {
    return this.http.json({ method: 'POST', path: '/billing/deposits', body: deposit, idempotent: true, options });
  }

  get(depositId: string, options: RequestOptions = {}): Promise<Deposit> {
    return this.http.json({ method: 'GET', path: `/billing/deposits/${id(depositId)}`, options });
  }

  list(params: PageParams = {}, options: RequestOptions = {}): PageList<Deposit> {
    return this.paginate('deposits', '/billing/deposits', { ...params }, options);
  }
}

export class ExportsResource extends Resource {
  /**
   * The export as a byte stream with the server's file name (a .zip for a split). The timeout covers
   * the wait for the response's headers; the signal can still cancel the download afterwards.
   */
  async stream(params: ExportParams, options: RequestOptions = {}): Promise<ExportDownload> {
    const { response, headers, requestId } = await this.http.send({ method: 'GET', path: '/exports', query: { ...params }, stream: true, options });
    const disposition = headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `export.${params.format}`;
    if (!response.body) throw new ConcordError({ message: 'The export response has no body', code: 'INVALID_RESPONSE', status: response.status, requestId });
    return { filename, contentType: headers.get('content-type') ?? '', body: response.body, requestId, headers };
  }

  /** Streams the export into a file (Node.js): memory stays flat whatever its size. */
  async toFile(
    params: ExportParams,
    path: string,
    options: RequestOptions = {},
  ): Promise<{ path: string; filename: string; contentType: string; bytes: number }> {
    const [{ createWriteStream }, { Readable, Transform }, { pipeline }] = await Promise.all([
      import('node:fs'),
      import('node:stream'),
      import('node:stream/promises'),
    ]);
    const download = await this.stream(params, options);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(download.body as Parameters<typeof Readable.fromWeb>[0]), counter, createWriteStream(path));
    return { path, filename: download.filename, contentType: download.contentType, bytes };
  }
}

export class ApiKeysResource extends Resource {
  /**
   * Creates a named buyer API key for server-to-server use; `secret` is shown this once. Needs a
   * password JWT: an API key cannot manage keys (403).
   */
  async create(input: ApiKeyInput, options: CreateOptions = {}): Promise<CreatedApiKey> {
    const { apiKey } = await this.http.json<{ apiKey: CreatedApiKey }>({ method: 'POST', path: '/api-keys', body: input, idempotent: true, options });
    return apiKey;
  }

  /** The buyer's keys (never their secrets). */
  list(params: PageParams = {}, options: RequestOptions = {}): PageList<ApiKey> {
    return this.paginate('apiKeys', '/api-keys', { ...params }, options);
  }

  /** Revokes a key: refused at once everywhere. */
  async delete(apiKeyId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/api-keys/${id(apiKeyId)}`, options });
  }
}

export class BuyerClient {
  readonly auth: AuthResource;
  readonly tasks: TasksResource;
  readonly projects: ProjectsResource;
  readonly goldenTasks: GoldenTasksResource;
  readonly webhooks: WebhooksResource;
  readonly events: EventsResource;
  readonly billing: BillingResource;
  readonly deposits: DepositsResource;
  readonly exports: ExportsResource;
  readonly apiKeys: ApiKeysResource;
  readonly organisations: OrganisationsResource;
  private readonly http: HttpClient;
  private readonly usesJwt: boolean;

  constructor(options: BuyerClientOptions) {
    const credential = options.apiKey ?? options.token;
    if (!credential) throw new TypeError('A BuyerClient needs a credential: `token` (a password JWT) or `apiKey` (a buyer API key)');
    const organisation = options.organisationId ? { [ORGANISATION_HEADER.toLowerCase()]: options.organisationId } : {};
    this.http = new HttpClient({ ...options, headers: { ...options.headers, ...organisation } }, credential);
    this.usesJwt = options.apiKey === undefined;
    this.auth = new AuthResource(this.http, () => this.usesJwt);
    this.tasks = new TasksResource(this.http);
    this.projects = new ProjectsResource(this.http);
    this.goldenTasks = new GoldenTasksResource(this.http);
    this.webhooks = new WebhooksResource(this.http);
    this.events = new EventsResource(this.http);
    this.billing = new BillingResource(this.http);
    this.deposits = new DepositsResource(this.http);
    this.exports = new ExportsResource(this.http);
    this.apiKeys = new ApiKeysResource(this.http);
    this.organisations = new OrganisationsResource(this.http);
  }

  /** Creates a buyer account: its JWT, the buyer, and a client signed in with that JWT. Not retried. */
  static async register(options: ClientOptions, account: RegisterInput, request: RequestOptions = {}): Promise<SignedIn<BuyerClient>> {
    const { token, buyer } = await new HttpClient(options).json<ResponseOf<'/auth/register', 'post'>>({
      method: 'POST',
      path: '/auth/register',
      body: account,
      anonymous: true,
      options: request,
    });
    return { token, buyer, client: new BuyerClient({ ...options, token }) };
  }

  /** Signs in with e-mail and password: the JWT (30 days), the buyer, and a client using it. Not retried. */
  static async login(options: ClientOptions, credentials: LoginInput, request: RequestOptions = {}): Promise<SignedIn<BuyerClient>> {
    const { token, buyer } = await new HttpClient(options).json<ResponseOf<'/auth/login', 'post'>>({
      method: 'POST',
      path: '/auth/login',
      body: credentials,
      anonymous: true,
      options: request,
    });
    return { token, buyer, client: new BuyerClient({ ...options, token }) };
  }

  /**
   * Uses an invitation's link (its token): the address's buyer account joins the organisation, or, with a
   * `password`, a new account is made for it and the answer carries its token. No credential needed.
   */
  static acceptInvitation(options: ClientOptions, input: AcceptInvitationInput, request: RequestOptions = {}): Promise<AcceptedInvitation> {
    return new HttpClient(options).json({ method: 'POST', path: '/invitations/accept', body: input, anonymous: true, options: request });
  }

  /** How the service runs (environment, payment provider, price); public, no credential needed. */
  static meta(options: ClientOptions, request: RequestOptions = {}): Promise<ServiceMeta> {
    return new HttpClient(options).json({ method: 'GET', path: '/meta', anonymous: true, options: request });
  }

  /** The credential in use: the JWT (the fresh one after auth.changePassword) or the API key. */
  get credential(): string {
    return this.http.credential ?? '';
  }

  /** Whether the credential is a buyer API key (`cnc_…`) rather than a password JWT. */
  get usesApiKey(): boolean {
    return !this.usesJwt;
  }
}
