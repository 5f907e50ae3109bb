import { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import type { Database, Repositories } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequestError, InsufficientCreditsError, NotFoundError } from '../../lib/errors.ts';
import { decodeCursor, encodeCursor, type Page } from '../../lib/pagination.ts';
import { requestFingerprint, type IdempotencyService, type Outcome } from '../idempotency/idempotency.service.ts';
import { readTaskCsv } from './task-csv.ts';
import { validateTaskInput, type TaskInput, type TaskRuleError, type TaskType } from './task-rules.ts';
import type { TaskFilters, TaskRecord, TaskResponseRecord } from './tasks.repository.ts';

/** contract: estimatedCompletionMs when a type has no completed task in the last 24 hours. */
const DEFAULT_ESTIMATE_MS = 300_000;
const ESTIMATE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_BATCH = 1_000;
/** Large batches insert thousands of rows: give their transaction more room than the default. */
const BULK_TIMEOUT_MS = 60_000;

export const taskNotFound = () => new NotFoundError('TASK_NOT_FOUND', 'Task not found');
const taskNotPending = (status: string) => new BadRequestError('TASK_NOT_PENDING', `Only PENDING tasks can be changed; this task is ${status}`);
const invalidProject = () => new BadRequestError('INVALID_PROJECT', 'projectId is not one of your projects');

export interface CreatedTaskView {
  taskId: string;
  type: TaskType;
  status: 'PENDING';
  costCents: number;
}

export interface CsvImportResult {
  created: number;
  tasks: Array<{ taskId: string; type: TaskType; status: 'PENDING' }>;
  errors: Array<{ row: number; error: string; code: string }>;
  totalCostCents: number;
}

export interface TaskDetail extends TaskRecord {
  responses: TaskResponseRecord[];
}

const ruleError = (error: TaskRuleError) => new AppError(400, error.code, error.message, error.details);

export class TasksService {
  constructor(
    private readonly db: Database,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  async create(buyerId: string, raw: unknown, idempotencyKey?: string) {
    const validation = validateTaskInput(raw, this.config.priceCents);
    if (!validation.ok) throw ruleError(validation.error);
    const task = validation.task;
    return this.idempotency.run(buyerId, idempotencyKey, requestFingerprint('POST /tasks', raw), 201, async (repos) => {
      if (task.projectId && !(await repos.projects.ownedIds(buyerId, [task.projectId])).has(task.projectId)) throw invalidProject();
      const [created] = await this.insertAndReserve(repos, buyerId, [task]);
      if (!created) throw new Error('task insert returned no row');
      return {
        taskId: created.taskId,
        status: created.status,
        type: created.type,
        costCents: created.costCents,
        estimatedCompletionMs: await this.estimateCompletionMs(repos, task.type),
      };
    });
  }

  /** JSON batch: all or nothing. The first invalid item names itself with INVALID_TASK and its index. */
  async createBatch(buyerId: string, raw: unknown, idempotencyKey?: string) {
    const items = this.batchItems(raw);
    const tasks = items.map((item, index) => {
      const validation = validateTaskInput(item, this.config.priceCents);
      if (!validation.ok) throw invalidTask(index, validation.error);
      return validation.task;
    });
    return this.idempotency.run(
      buyerId,
      idempotencyKey,
      requestFingerprint('POST /tasks/batch', raw),
      201,
      async (repos) => {
        const owned = await repos.projects.ownedIds(buyerId, projectIdsOf(tasks));
        const foreign = tasks.findIndex((task) => task.projectId !== null && !owned.has(task.projectId));
        if (foreign >= 0) throw invalidTask(foreign, { code: 'INVALID_PROJECT', message: 'projectId is not one of your projects' });
        const created = await this.insertAndReserve(repos, buyerId, tasks);
        return { created: created.length, tasks: created, totalCostCents: sumCost(created) };
      },
      { timeoutMs: BULK_TIMEOUT_MS },
    );
  }

  /**
   * CSV import: invalid rows are reported and skipped, valid rows are created together in one
   * transaction — or none of them when the balance cannot cover their budgets (402).
   */
  async importCsv(buyerId: string, file: Buffer, idempotencyKey?: string): Promise<Outcome<CsvImportResult>> {
    const valid: Array<{ row: number; task: TaskInput }> = [];
    const errors: CsvImportResult['errors'] = [];
    for await (const record of readTaskCsv(Readable.from([file]))) {
      if (!record.ok) {
        errors.push({ row: record.row, error: record.error, code: 'VALIDATION_ERROR' });
        continue;
      }
      const validation = validateTaskInput(record.task, this.config.priceCents);
      if (validation.ok) valid.push({ row: record.row, task: validation.task });
      else errors.push({ row: record.row, error: validation.error.message, code: validation.error.code });
    }
    return this.idempotency.run(
      buyerId,
      idempotencyKey,
      requestFingerprint('POST /tasks/batch/csv', file),
      201,
      async (repos) => {
        const owned = await repos.projects.ownedIds(buyerId, projectIdsOf(valid.map((v) => v.task)));
        const accepted = valid.filter(({ row, task }) => {
          if (task.projectId === null || owned.has(task.projectId)) return true;
          errors.push({ row, error: 'projectId is not one of your projects', code: 'INVALID_PROJECT' });
          return false;
        });
        errors.sort((a, b) => a.row - b.row);
        const created = accepted.length > 0 ? await this.insertAndReserve(repos, buyerId, accepted.map((v) => v.task)) : [];
        return {
          created: created.length,
          tasks: created.map(({ taskId, type, status }) => ({ taskId, type, status })),
          errors,
          totalCostCents: sumCost(created),
        };
      },
      { timeoutMs: BULK_TIMEOUT_MS },
    );
  }

  async list(buyerId: string, filters: TaskFilters, limit: number, cursor?: string): Promise<Page<TaskRecord, 'tasks'>> {
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.db.repos.tasks.list(buyerId, filters, limit, after);
    const tasks = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const last = tasks.at(-1);
    return { tasks, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
  }

  async get(buyerId: string, id: string): Promise<TaskDetail> {
    const task = await this.db.repos.tasks.findForBuyer(buyerId, id);
    if (!task) throw taskNotFound();
    return { ...task, responses: await this.db.repos.tasks.responses(id) };
  }

  /**
   * Changes a PENDING task. The row is locked for the transaction, so an answer arriving at the same
   * moment either sees the old task or waits. A higher maxCents reserves the difference (402 if it is
   * not available); a lower one gives the difference back.
   */
  async update(
    buyerId: string,
    id: string,
    changes: { maxCents?: number; validationsNeeded?: number; locale?: string; projectId?: string | null },
  ): Promise<TaskDetail> {
    if (changes.maxCents !== undefined && changes.maxCents < this.config.priceCents) {
      throw new BadRequestError('VALIDATION_ERROR', `maxCents must be at least the task price of ${this.config.priceCents} cents`, {
        issues: [{ path: 'maxCents', message: `must be at least ${this.config.priceCents}` }],
      });
    }
    await this.db.transaction(async (repos) => {
      const task = await repos.tasks.lockForBuyer(buyerId, id);
      if (!task) throw taskNotFound();
      if (task.status !== 'PENDING') throw taskNotPending(task.status);
      if (changes.projectId && !(await repos.projects.ownedIds(buyerId, [changes.projectId])).has(changes.projectId)) throw invalidProject();
      await repos.tasks.update(id, changes);
      const delta = changes.maxCents === undefined ? 0 : changes.maxCents - task.maxCents;
      if (delta > 0) await this.reserve(repos, buyerId, delta);
      if (delta < 0) await repos.billing.release(buyerId, -delta);
    });
    return this.get(buyerId, id);
  }

  /** Deletes a PENDING task and releases its reservation. */
  async delete(buyerId: string, id: string): Promise<void> {
    await this.db.transaction(async (repos) => {
      const task = await repos.tasks.lockForBuyer(buyerId, id);
      if (!task) throw taskNotFound();
      if (task.status !== 'PENDING') throw taskNotPending(task.status);
      await repos.tasks.delete(id);
      await repos.billing.release(buyerId, task.maxCents);
    });
  }

  private batchItems(raw: unknown): unknown[] {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new BadRequestError('VALIDATION_ERROR', 'The body must be {"tasks": [...]}', { issues: [{ path: '(root)', message: 'expected an object' }] });
    }
    const unknownKeys = Object.keys(raw).filter((key) => key !== 'tasks');
    if (unknownKeys.length > 0) {
      throw new BadRequestError('VALIDATION_ERROR', `Unknown field: ${unknownKeys.join(', ')}`, {
        issues: unknownKeys.map((path) => ({ path, message: 'Unknown field' })),
      });
    }
    const { tasks } = raw as { tasks?: unknown };
    if (!Array.isArray(tasks)) {
      throw new BadRequestError('VALIDATION_ERROR', 'tasks must be an array', { issues: [{ path: 'tasks', message: 'expected an array' }] });
    }
    if (tasks.length === 0 || tasks.length > MAX_BATCH) {
      throw new BadRequestError('BATCH_TOO_LARGE', `A batch holds 1 to ${MAX_BATCH} tasks; this one has ${tasks.length}`);
    }
    return tasks;
  }

  /** Inserts first and reserves last, so the buyer row is locked only for the end of the transaction. */
  private async insertAndReserve(repos: Repositories, buyerId: string, tasks: TaskInput[]): Promise<CreatedTaskView[]> {
    const created = await repos.tasks.insertMany(buyerId, tasks, this.config.priceCents);
    await this.reserve(repos, buyerId, tasks.reduce((sum, task) => sum + task.maxCents, 0));
    return created.map((task) => ({ taskId: task.id, type: task.type, status: 'PENDING' as const, costCents: task.costCents }));
  }

  private async reserve(repos: Repositories, buyerId: string, cents: number): Promise<void> {
    const reservation = await repos.billing.reserve(buyerId, cents);
    if (!reservation.ok) throw new InsufficientCreditsError(cents, reservation.availableCents);
  }

  private async estimateCompletionMs(repos: Repositories, type: TaskType): Promise<number> {
    const since = new Date(this.clock.now().getTime() - ESTIMATE_WINDOW_MS);
    return (await repos.tasks.medianCompletionMs(type, since)) ?? DEFAULT_ESTIMATE_MS;
  }
}

function invalidTask(index: number, error: { code: string; message: string; details?: Record<string, unknown> }): AppError {
  return new AppError(400, 'INVALID_TASK', `Task ${index + 1} is invalid: ${error.message}`, { code: error.code, ...error.details }, index);
}

function projectIdsOf(tasks: TaskInput[]): string[] {
  return [...new Set(tasks.flatMap((task) => (task.projectId ? [task.projectId] : [])))];
}

const sumCost = (tasks: Array<{ costCents: number }>) => tasks.reduce((sum, task) => sum + task.costCents, 0);
