// For buyers: tasks, results, exports, webhooks and top-ups, with the buyer's JWT.
import { HttpClient, newIdempotencyKey, type ClientOptions } from './http.ts';
import type {
  BodyOf, Deposit, ExportQuery, LedgerEntry, QueryOf, ResponseOf, Task, TaskFilters, TaskInput, TaskListItem, WebhookConfig, WebhookDelivery,
} from './types.ts';

type Page<K extends string, T> = { [key in K]: T[] } & { nextCursor: string | null; hasMore: boolean };

export class BuyerClient {
  private readonly http: HttpClient;

  constructor(private readonly options: ClientOptions & { token: string }) {
    this.http = new HttpClient(options, options.token);
  }

  /** Creates a buyer account and returns a client signed in as it. */
  static async register(options: ClientOptions, account: BodyOf<'/auth/register', 'post'>): Promise<BuyerClient> {
    const { token } = await new HttpClient(options).json<ResponseOf<'/auth/register', 'post'>>('post', '/auth/register', { body: account });
    return new BuyerClient({ ...options, token });
  }

  static async login(options: ClientOptions, credentials: BodyOf<'/auth/login', 'post'>): Promise<BuyerClient> {
    const { token } = await new HttpClient(options).json<ResponseOf<'/auth/login', 'post'>>('post', '/auth/login', { body: credentials });
    return new BuyerClient({ ...options, token });
  }

  get token(): string {
    return this.options.token;
  }

  me(): Promise<ResponseOf<'/auth/me', 'get'>> {
    return this.http.json('get', '/auth/me', { retry: true });
  }

  // Tasks. Creations carry an Idempotency-Key and are retried with it: a retry never creates twice.

  createTask(task: TaskInput, idempotencyKey = newIdempotencyKey()): Promise<ResponseOf<'/tasks', 'post'>> {
    return this.http.json('post', '/tasks', { body: task, headers: { 'idempotency-key': idempotencyKey }, retry: true });
  }

  createTasks(tasks: TaskInput[], idempotencyKey = newIdempotencyKey()): Promise<ResponseOf<'/tasks/batch', 'post'>> {
    return this.http.json('post', '/tasks/batch', { body: { tasks }, headers: { 'idempotency-key': idempotencyKey }, retry: true });
  }

  /** Uploads a CSV file (content,type,options[,locale,maxCents,projectId,validationsNeeded]). */
  uploadCsv(csv: string | Blob | Uint8Array<ArrayBuffer>, filename = 'tasks.csv', idempotencyKey = newIdempotencyKey()): Promise<ResponseOf<'/tasks/batch/csv', 'post'>> {
    const form = new FormData();
    const blob = csv instanceof Blob ? csv : new Blob([csv], { type: 'text/csv' });
    form.set('file', blob, filename);
    return this.http.json('post', '/tasks/batch/csv', { form, headers: { 'idempotency-key': idempotencyKey }, retry: true });
  }

  getTask(id: string): Promise<Task> {
    return this.http.json('get', `/tasks/${encodeURIComponent(id)}`, { retry: true });
  }

  updateTask(id: string, changes: BodyOf<'/tasks/{id}', 'patch'>): Promise<Task> {
    return this.http.json('patch', `/tasks/${encodeURIComponent(id)}`, { body: changes });
  }

  async deleteTask(id: string): Promise<void> {
    await this.http.send('delete', `/tasks/${encodeURIComponent(id)}`);
  }

  listTasks(filters: TaskFilters = {}, page: { limit?: number; cursor?: string } = {}): Promise<Page<'tasks', TaskListItem>> {
    return this.http.json('get', '/tasks', { query: { ...filters, limit: page.limit, cursor: page.cursor }, retry: true });
  }

  /** Every task matching the filters, newest first, fetched a page at a time. */
  async *allTasks(filters: TaskFilters = {}, pageSize = 100): AsyncGenerator<TaskListItem> {
    let cursor: string | undefined;
    do {
      const page = await this.listTasks(filters, { limit: pageSize, cursor });
      yield* page.tasks;
      cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
    } while (cursor);
  }

  // Exports.

  /** The export as a byte stream, with the file name the server gives it (a .zip for a split). */
  async exportStream(query: ExportQuery): Promise<{ filename: string; contentType: string; body: ReadableStream<Uint8Array> }> {
    const response = await this.http.send('get', '/exports', { query: query as Record<string, string | undefined>, retry: true });
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `export.${query.format}`;
    if (!response.body) throw new Error('The export response has no body');
    return { filename, contentType: response.headers.get('content-type') ?? '', body: response.body };
  }

  /** Streams the export into a file (Node.js); returns the path written. */
  async exportToFile(query: ExportQuery, path: string): Promise<string> {
    const [{ createWriteStream }, { Readable }, { pipeline }] = await Promise.all([
      import('node:fs'),
      import('node:stream'),
      import('node:stream/promises'),
    ]);
    const { body } = await this.exportStream(query);
    await pipeline(Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]), createWriteStream(path));
    return path;
  }

  // Webhooks.

  createWebhook(config: BodyOf<'/webhooks/configs', 'post'>): Promise<WebhookConfig> {
    return this.http.json('post', '/webhooks/configs', { body: config });
  }

  async listWebhooks(): Promise<WebhookConfig[]> {
    return (await this.http.json<{ webhooks: WebhookConfig[] }>('get', '/webhooks/configs', { retry: true })).webhooks;
  }

  updateWebhook(id: string, changes: BodyOf<'/webhooks/configs/{id}', 'patch'>): Promise<WebhookConfig> {
    return this.http.json('patch', `/webhooks/configs/${encodeURIComponent(id)}`, { body: changes });
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.http.send('delete', `/webhooks/configs/${encodeURIComponent(id)}`);
  }

  webhookDeliveries(id: string, page: { limit?: number; cursor?: string } = {}): Promise<Page<'deliveries', WebhookDelivery>> {
    return this.http.json('get', `/webhooks/configs/${encodeURIComponent(id)}/deliveries`, { query: page, retry: true });
  }

  async redeliver(deliveryId: string): Promise<void> {
    await this.http.send('post', `/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
  }

  // Money.

  /** Starts a top-up; send the buyer to `checkoutUrl` to pay. The balance moves once the provider confirms. */
  createDeposit(deposit: BodyOf<'/billing/deposits', 'post'>): Promise<Deposit> {
    return this.http.json('post', '/billing/deposits', { body: deposit });
  }

  getDeposit(id: string): Promise<Deposit> {
    return this.http.json('get', `/billing/deposits/${encodeURIComponent(id)}`, { retry: true });
  }

  listDeposits(page: QueryOf<'/billing/deposits', 'get'> = {}): Promise<Page<'deposits', Deposit>> {
    return this.http.json('get', '/billing/deposits', { query: page, retry: true });
  }

  ledger(page: QueryOf<'/billing/ledger', 'get'> = {}): Promise<Page<'entries', LedgerEntry>> {
    return this.http.json('get', '/billing/ledger', { query: page, retry: true });
  }
}
