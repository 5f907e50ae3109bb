import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { BillingRepository } from '../billing/billing.repository.ts';
import { inScope, outOfScope, type Actor, type ProjectScope } from '../../lib/endpoint.ts';
import { pick, settingsChange } from '../audit/audit-change.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequestError, ConflictError, InsufficientCreditsError, NotFoundError } from '../../lib/errors.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Gate } from '../../lib/gate.ts';
import { decodeCursor, toPage, type Page } from '../../lib/pagination.ts';
import { requestFingerprint, type IdempotencyService, type Outcome } from '../idempotency/idempotency.service.ts';
import type { TaskUpdate } from './tasks.schemas.ts';
import { commitmentOf, type CapRepos, type Commitment, type SpendingCapsService } from '../billing/spending-caps.service.ts';
import { readTaskCsv } from './task-csv.ts';
import { taskQualityFor, type ProjectSettingsSource, type QualitySettings, type TaskQuality } from './task-quality.ts';
import {
  deadlineProblem,
  kindPriceCents,
  MAX_BATCH_TASKS,
  MIN_TEXT_ANSWERS,
  validateTaskInput,
  type ProjectDefaultKind,
  type TaskInput,
  type TaskRuleError,
  type TaskType,
} from '@concord/contract';
import type {
  CreatedTask,
  NewTask,
  StatusCounts,
  TaskChanges,
  TaskFilters,
  TaskRecord,
  TaskResponseRecord,
  TasksRawRepository,
  TasksRepository,
} from './tasks.repository.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository; billing: BillingRepository; projects: ProjectSettingsSource; tasks: TasksRepository } & CapRepos;
type RawRepos = { auditLog: AuditLogRepository; projects: ProjectSettingsSource; tasks: TasksRawRepository } & CapRepos;
type Db = UnitOfWork<Repos, RawRepos>;

/**
 * CSV imports a process runs at once; the next ones wait their turn. Each holds its file, its rows and the
 * process's one thread while it parses and checks them: unbounded, four 5 MB imports doubled the process's
 * memory, and two at once took as long as one after the other while the garbage collector paused longer
 * (bench:abuse: /healthz p99 91 ms with two, 57 ms with one).
 */
const CSV_IMPORTS_AT_ONCE = 1;
/** An import gives the event loop back at least this often, so that other requests are answered meanwhile. */
const CSV_YIELD_EVERY_MS = 5;

/** contract: estimatedCompletionMs when a type has no completed task in the last 24 hours. */
export const DEFAULT_ESTIMATE_MS = 300_000;
const ESTIMATE_WINDOW_MS = 24 * 60 * 60 * 1000;

export const taskNotFound = () => new NotFoundError('TASK_NOT_FOUND', 'Task not found');
const taskNotPending = (status: string) => new BadRequestError('TASK_NOT_PENDING', `Only PENDING tasks can be changed; this task is ${status}`);
const taskNotOpen = (status: string) =>
  new BadRequestError('TASK_NOT_PENDING', `Only an open (PENDING or VALIDATING) task's deadline and priority can be changed; this task is ${status}`);
/** The changes a task takes only while nobody has answered it (PENDING); deadline and priority apply while it is open. */
const PENDING_ONLY_CHANGES = ['maxCents', 'validationsNeeded', 'locale', 'projectId'] as const;
const taskIsReview = (textTaskId: string) =>
  new ConflictError('TASK_IS_REVIEW', `This is the review of text task ${textTaskId}: it is decided with it, and cannot be changed or deleted`);
const invalidProject = () => new BadRequestError('INVALID_PROJECT', 'projectId is not one of your projects');
const taskHeld = () => new ConflictError('TASK_HELD', "This task is held by its project's budget cap: set the cap again (raised) to release it, or delete it");

/**
 * The request an Idempotency-Key is bound to: a project-scoped key's is its scope's too, so no key can be
 * answered a stored response made outside its projects (the scope is checked inside the idempotent run).
 */
const fingerprintRoute = (route: string, scope: ProjectScope) => (scope ? `${route} [projects ${[...scope].sort().join(',')}]` : route);

export interface CreatedTaskView {
  taskId: string;
  type: TaskType;
  status: 'PENDING';
  costCents: number;
  /** Held by its project's budget cap (capAction hold): not reserved, not served until the cap is set again. */
  held?: true;
}

export interface CsvImportResult {
  created: number;
  tasks: Array<{ taskId: string; type: TaskType; status: 'PENDING'; held?: true }>;
  errors: Array<{ row: number; error: string; code: string }>;
  totalCostCents: number;
}

export interface TaskDetail extends TaskRecord {
  responses: TaskResponseRecord[];
}

const ruleError = (error: TaskRuleError) => new AppError(400, error.code, error.message, error.details);

export class TasksService {
  private readonly csvImports = new Gate(CSV_IMPORTS_AT_ONCE);

  constructor(
    private readonly db: Db,
    private readonly idempotency: IdempotencyService<RawRepos>,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly caps: Pick<SpendingCapsService, 'enforce' | 'noticing'>,
  ) {}

  async create(actor: Actor, raw: unknown, idempotencyKey?: string, scope: ProjectScope = null) {
    const buyerId = actor.organisationId;
    const checked = async () => {
      const validation = validateTaskInput(await new ProjectKinds(this.db, buyerId).apply(raw), this.config.priceCents, this.clock.now());
      if (!validation.ok) throw ruleError(validation.error);
      return validation.task;
    };
    // With a key, checked inside the idempotent run: a repeat gets the stored response even if the
    // project's default kind changed since; without one, refused before anything starts.
    const early = idempotencyKey === undefined ? await checked() : undefined;
    const run = this.idempotency.run(buyerId, idempotencyKey, requestFingerprint(fingerprintRoute('POST /tasks', scope), raw), 201, async (repos) => {
      const task = early ?? (await checked());
      const refused = outOfScope(scope, task.projectId);
      if (refused) throw new BadRequestError('INVALID_PROJECT', refused);
      const projects = await repos.projects.qualitySettings(buyerId, projectIdsOf([task]));
      if (task.projectId && !projects.has(task.projectId)) throw invalidProject();
      const settled = withQuality(task, projects, this.config.consensusThreshold, this.clock.now());
      const [created] = await this.insertAndReserve(repos, buyerId, [settled]);
      if (!created) throw new Error('task insert returned no row');
      await repos.auditLog.append(actor, {
        targetId: created.taskId,
        after: { ...taskSettings({ ...settled, deadline: settled.deadlineAt }), costCents: created.costCents },
      });
      return {
        taskId: created.taskId,
        status: created.status,
        type: created.type,
        costCents: created.costCents,
        estimatedCompletionMs: await this.estimateCompletionMs(repos, task.type),
        ...(created.held ? { held: created.held } : {}),
      };
    });
    return this.caps.noticing(buyerId, run);
  }

  /** JSON batch: all or nothing. The first invalid item names itself with INVALID_TASK and its index. */
  async createBatch(actor: Actor, raw: unknown, idempotencyKey?: string, scope: ProjectScope = null) {
    const buyerId = actor.organisationId;
    const items = this.batchItems(raw);
    const checked = async () => {
      const kinds = new ProjectKinds(this.db, buyerId);
      await kinds.load(items);
      return items.map((item, index) => {
        const validation = validateTaskInput(kinds.applyLoaded(item), this.config.priceCents, this.clock.now());
        if (!validation.ok) throw invalidTask(index, validation.error);
        return validation.task;
      });
    };
    // As for one task: with a key, checked inside the idempotent run.
    const early = idempotencyKey === undefined ? await checked() : undefined;
    const run = this.idempotency.run(buyerId, idempotencyKey, requestFingerprint(fingerprintRoute('POST /tasks/batch', scope), raw), 201, async (repos) => {
      const tasks = early ?? (await checked());
      const outside = tasks.findIndex((task) => outOfScope(scope, task.projectId) !== null);
      if (outside >= 0) throw invalidTask(outside, { code: 'INVALID_PROJECT', message: outOfScope(scope, tasks[outside]?.projectId ?? null) ?? '' });
      // One read of the batch's projects: ownership and quality settings together.
      const projects = await repos.projects.qualitySettings(buyerId, projectIdsOf(tasks));
      const foreign = tasks.findIndex((task) => task.projectId !== null && !projects.has(task.projectId));
      if (foreign >= 0) throw invalidTask(foreign, { code: 'INVALID_PROJECT', message: 'projectId is not one of your projects' });
      const created = await this.insertAndReserve(
        repos,
        buyerId,
        tasks.map((task) => withQuality(task, projects, this.config.consensusThreshold, this.clock.now())),
      );
      const result = { created: created.length, tasks: created, totalCostCents: sumCost(created) };
      await repos.auditLog.append(actor, { targetId: null, after: batchSettings(result, tasks) });
      return result;
    });
    return this.caps.noticing(buyerId, run);
  }

  /**
   * CSV import: invalid rows are reported and skipped, valid rows are created together in one
   * transaction — or none of them when the balance cannot cover their budgets (402). Rows are inserted
   * in chunks while the rest of the file is still being parsed, so parsing and PostgreSQL overlap.
   */
  importCsv(actor: Actor, file: Buffer, idempotencyKey?: string, scope: ProjectScope = null): Promise<Outcome<CsvImportResult>> {
    return this.caps.noticing(
      actor.organisationId,
      this.csvImports.run(() => this.runCsvImport(actor, file, idempotencyKey, scope)),
    );
  }

  private runCsvImport(actor: Actor, file: Buffer, idempotencyKey: string | undefined, scope: ProjectScope): Promise<Outcome<CsvImportResult>> {
    const buyerId = actor.organisationId;
    return this.idempotency.run(buyerId, idempotencyKey, requestFingerprint(fingerprintRoute('POST /tasks/batch/csv', scope), file), 201, async (repos) => {
      const importer = new CsvChunkInserter(repos, buyerId, this.config.priceCents, this.config.consensusThreshold, this.clock.now());
      const kinds = new ProjectKinds(this.db, buyerId);
      let since = performance.now();
      for await (const record of readTaskCsv(file)) {
        // Parsing and checking rows is CPU only: without a turn of the event loop now and then, a 5 MB
        // file keeps every other request of the process waiting for the whole of it.
        if (performance.now() - since > CSV_YIELD_EVERY_MS) {
          await nextTurn();
          since = performance.now();
        }
        if (!record.ok) {
          importer.reject(record.row, record.error, 'VALIDATION_ERROR');
          continue;
        }
        const validation = validateTaskInput(await kinds.apply(record.task), this.config.priceCents, this.clock.now());
        const refused = validation.ok ? outOfScope(scope, validation.task.projectId) : null;
        if (!validation.ok) importer.reject(record.row, validation.error.message, validation.error.code);
        else if (refused) importer.reject(record.row, refused, 'INVALID_PROJECT');
        else await importer.add(record.row, validation.task);
      }
      const result = await importer.finish();
      const created = result.created.length > 0 ? await this.commitAndReserve(repos, buyerId, result.created) : [];
      const totalCostCents = sumCost(created);
      await repos.auditLog.append(actor, {
        targetId: null,
        after: { created: created.length, skippedRows: result.errors.length, totalCostCents, projectIds: projectIdsOf(result.created) },
      });
      return {
        created: created.length,
        tasks: created.map(({ taskId, type, status, held }) => ({ taskId, type, status, ...(held ? { held } : {}) })),
        errors: result.errors,
        totalCostCents,
      };
    });
  }

  /** A project-scoped key's list holds its projects' tasks only. */
  async list(buyerId: string, filters: TaskFilters, limit: number, cursor?: string, scope: ProjectScope = null): Promise<Page<TaskRecord, 'tasks'>> {
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.db.repos.tasks.list(buyerId, { ...filters, ...(scope ? { projectIds: scope } : {}) }, limit, after);
    return toPage('tasks', rows, limit);
  }

  /** The buyer's tasks by status (filters as on the list; an unknown or foreign project matches nothing). */
  async counts(
    buyerId: string,
    query: Omit<TaskFilters, 'status'> & { exported?: boolean },
    scope: ProjectScope = null,
  ): Promise<{ counts: StatusCounts; total: number }> {
    const { exported, ...filters } = query;
    const counts = await this.db.repos.tasks.countByStatus({
      ...filters,
      buyerId,
      ...(exported ? { reviewOf: null } : {}),
      ...(scope ? { projectIds: scope } : {}),
    });
    return { counts, total: counts.PENDING + counts.VALIDATING + counts.COMPLETED + counts.FAILED };
  }

  /** A task outside a project-scoped key's projects is not found for it. */
  async get(buyerId: string, id: string, scope: ProjectScope = null): Promise<TaskDetail> {
    const task = await this.db.repos.tasks.findForBuyer(buyerId, id);
    if (!task || !inScope(scope, task.projectId)) throw taskNotFound();
    return { ...task, responses: await this.db.repos.tasks.responses(id) };
  }

  /**
   * Changes a PENDING task. The row is locked for the transaction, so an answer arriving at the same
   * moment either sees the old task or waits. A higher maxCents reserves the difference (402 if it is
   * not available); a lower one gives the difference back. A change of validationsNeeded or projectId
   * recomputes the task's quality settings (targetConfidence, maxResponses) from its project — the new
   * one, or the one it keeps — and the service defaults as they are now, as if the task were created
   * now: nobody has answered a PENDING task yet, so nothing has run on the old settings. A change of
   * maxCents or locale alone keeps them. Its deadline and priority change while it is open (PENDING or
   * VALIDATING), a text task's with its review task's.
   */
  async update(actor: Actor, id: string, body: TaskUpdate, scope: ProjectScope = null): Promise<TaskDetail> {
    const buyerId = actor.organisationId;
    const late = typeof body.deadline === 'string' ? deadlineProblem(body.deadline, this.clock.now()) : null;
    if (late) throw new BadRequestError('VALIDATION_ERROR', `deadline ${late}`, { issues: [{ path: 'deadline', message: late }] });
    const { deadline, ...rest } = body;
    const changes: TaskChanges = { ...rest, ...(deadline === undefined ? {} : { deadline: deadline === null ? null : new Date(deadline) }) };
    // Only an open task's schedule (deadline, priority) may change once answers have come in.
    const pendingOnly = PENDING_ONLY_CHANGES.some((field) => changes[field] !== undefined);
    if (changes.maxCents !== undefined && changes.maxCents < this.config.priceCents) {
      throw new BadRequestError('VALIDATION_ERROR', `maxCents must be at least the task price of ${this.config.priceCents} cents`, {
        issues: [{ path: 'maxCents', message: `must be at least ${this.config.priceCents}` }],
      });
    }
    const work = this.db.transaction(async (repos) => {
      // A change that may add to a project's cap locks its projects before the task, the order creations and
      // a project's deletion take them in (project, then its tasks): the other order deadlocks with a deletion.
      if (changes.maxCents !== undefined || changes.projectId !== undefined) {
        const seen = await repos.tasks.findForBuyer(buyerId, id);
        const projects = [seen?.projectId, changes.projectId].filter((projectId): projectId is string => typeof projectId === 'string');
        await repos.spendingCaps.lockProjectCaps(buyerId, projects);
      }
      const task = await repos.tasks.lockForBuyer(buyerId, id);
      if (!task || !inScope(scope, task.projectId)) throw taskNotFound();
      if (task.reviewOf) throw taskIsReview(task.reviewOf);
      if (pendingOnly && task.status !== 'PENDING') throw taskNotPending(task.status);
      if (task.status !== 'PENDING' && task.status !== 'VALIDATING') throw taskNotOpen(task.status);
      if (pendingOnly && task.heldAt) throw taskHeld();
      const moved = changes.projectId === undefined ? null : outOfScope(scope, changes.projectId);
      if (moved) throw new BadRequestError('INVALID_PROJECT', moved);
      checkTextChanges(task, changes, this.config.priceCents);
      const quality = await this.qualityAfter(repos, buyerId, task, changes);
      await repos.tasks.update(id, { ...changes, ...quality });
      // A text task's review has its deadline and priority (open_text_review copies them when it opens).
      if (task.reviewTaskId && (changes.deadline !== undefined || changes.priority !== undefined)) {
        await repos.tasks.update(task.reviewTaskId, pick(changes, ['deadline', 'priority']));
      }
      await repos.auditLog.append(actor, settingsChange(id, taskSettings(task), taskSettings({ ...task, ...changes, ...quality })));
      const delta = changes.maxCents === undefined ? 0 : changes.maxCents - task.maxCents;
      const added = commitmentAdded(task, changes);
      if (added) await this.caps.enforce(repos, buyerId, added);
      if (delta > 0) await this.reserve(repos, buyerId, delta);
      if (delta < 0) await repos.billing.release(buyerId, -delta);
    });
    await this.caps.noticing(buyerId, work);
    return this.get(buyerId, id, scope);
  }

  /** The quality settings a change of validationsNeeded or projectId gives the task; none for other changes. */
  private async qualityAfter(repos: RawRepos, buyerId: string, task: TaskRecord, changes: TaskChanges): Promise<TaskQuality | undefined> {
    if (changes.validationsNeeded === undefined && changes.projectId === undefined) return undefined;
    const projectId = changes.projectId === undefined ? task.projectId : changes.projectId;
    const projects = await repos.projects.qualitySettings(buyerId, projectId ? [projectId] : []);
    if (projectId && !projects.has(projectId)) throw invalidProject();
    return taskQualityFor(
      changes.validationsNeeded ?? task.validationsNeeded,
      projectId ? (projects.get(projectId) ?? null) : null,
      this.config.consensusThreshold,
      task.answerKind,
    );
  }

  /** Deletes a PENDING task and releases its reservation. */
  async delete(actor: Actor, id: string, scope: ProjectScope = null): Promise<void> {
    await this.db.transaction(async (repos) => {
      const task = await repos.tasks.lockForBuyer(actor.organisationId, id);
      if (!task || !inScope(scope, task.projectId)) throw taskNotFound();
      if (task.reviewOf) throw taskIsReview(task.reviewOf);
      if (task.status !== 'PENDING') throw taskNotPending(task.status);
      await repos.tasks.delete(id);
      // A held task was never reserved.
      if (!task.heldAt) await repos.billing.release(actor.organisationId, task.maxCents);
      await repos.auditLog.append(actor, { targetId: id, before: { ...taskSettings(task), status: task.status, ...(task.heldAt ? { held: true } : {}) } });
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
    if (tasks.length === 0 || tasks.length > MAX_BATCH_TASKS) {
      throw new BadRequestError('BATCH_TOO_LARGE', `A batch holds 1 to ${MAX_BATCH_TASKS} tasks; this one has ${tasks.length}`);
    }
    return tasks;
  }

  /** Inserts first and reserves last, so the buyer row is locked only for the end of the transaction. */
  private async insertAndReserve(repos: RawRepos, buyerId: string, tasks: NewTask[]): Promise<CreatedTaskView[]> {
    return this.commitAndReserve(repos, buyerId, await repos.tasks.insertMany(buyerId, tasks, this.config.priceCents));
  }

  /** New tasks past the spending caps: held where their project holds, else refused (402); the rest reserved. */
  private async commitAndReserve(repos: RawRepos, buyerId: string, created: CreatedTask[]): Promise<CreatedTaskView[]> {
    const held = await this.caps.enforce(repos, buyerId, commitmentOf(created));
    const cents = created.reduce((sum, task) => sum + (held.has(task.id) ? 0 : task.maxCents), 0);
    if (cents > 0) await this.reserve(repos, buyerId, cents);
    return created.map((task) => toCreatedView(task, held.has(task.id)));
  }

  private async reserve(repos: RawRepos, buyerId: string, cents: number): Promise<void> {
    const reservation = await repos.billing.reserve(buyerId, cents);
    if (!reservation.ok) throw new InsufficientCreditsError(cents, reservation.availableCents);
  }

  private async estimateCompletionMs(repos: RawRepos, type: TaskType): Promise<number> {
    const since = new Date(this.clock.now().getTime() - ESTIMATE_WINDOW_MS);
    return (await repos.tasks.medianCompletionMs(type, since)) ?? DEFAULT_ESTIMATE_MS;
  }
}

/** What the audit log keeps of a task: its settings, never its content, options or candidates. */
const taskSettings = (
  task: Pick<
    TaskRecord,
    'type' | 'answerKind' | 'projectId' | 'locale' | 'maxCents' | 'validationsNeeded' | 'targetConfidence' | 'maxResponses' | 'deadline' | 'priority'
  >,
) => pick(task, ['type', 'answerKind', 'projectId', 'locale', 'maxCents', 'validationsNeeded', 'targetConfidence', 'maxResponses', 'deadline', 'priority']);

/** A batch's entry: how many tasks, what they cost at most, and the projects they went to (no task ids: up to 10 000). */
const batchSettings = (result: { created: number; totalCostCents: number }, tasks: TaskInput[]) => ({
  created: result.created,
  totalCostCents: result.totalCostCents,
  projectIds: projectIdsOf(tasks),
});

/**
 * Projects' default answer kinds (docs/answer-kinds.md), read once per project a request names: a task that
 * names no answerKind takes its project's, before it is validated (the kind decides its rules). A project
 * that is not the buyer's gives none; the task is then refused for its projectId as before.
 */
class ProjectKinds {
  private readonly kinds = new Map<string, ProjectDefaultKind | null>();

  constructor(
    private readonly db: Db,
    private readonly buyerId: string,
  ) {}

  /** Reads the defaults of the projects these raw tasks name (those not read yet). */
  async load(raws: readonly unknown[]): Promise<void> {
    const ids = [...new Set(raws.map(projectIdOf).filter((id): id is string => id !== undefined && !this.kinds.has(id)))];
    if (ids.length === 0) return;
    const found = await this.db.repos.projects.defaultAnswerKinds(this.buyerId, ids);
    for (const id of ids) this.kinds.set(id, found.get(id) ?? null);
  }

  /** The raw task with its project's default kind when it names none (its project read first). */
  async apply(raw: unknown): Promise<unknown> {
    await this.load([raw]);
    return this.applyLoaded(raw);
  }

  /** As apply, for a task whose project was loaded already. */
  applyLoaded(raw: unknown): unknown {
    const id = projectIdOf(raw);
    const kind = id === undefined ? null : (this.kinds.get(id) ?? null);
    if (kind === null || (raw as Record<string, unknown>).answerKind !== undefined) return raw;
    return { ...(raw as Record<string, unknown>), answerKind: kind };
  }
}

/** The projectId a raw task names, if it is an object naming one. */
function projectIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const id = (raw as Record<string, unknown>).projectId;
  return typeof id === 'string' ? id : undefined;
}

/** A text task keeps at least two writers and a budget for its review: twice the price. */
function checkTextChanges(task: TaskRecord, changes: TaskChanges, priceCents: number): void {
  if (task.answerKind !== 'text') return;
  const floor = kindPriceCents('text', priceCents);
  if (changes.maxCents !== undefined && changes.maxCents < floor) {
    throw new BadRequestError('VALIDATION_ERROR', `maxCents must be at least a text task's price of ${floor} cents (writing and review)`, {
      issues: [{ path: 'maxCents', message: `must be at least ${floor}` }],
    });
  }
  if (changes.validationsNeeded !== undefined && changes.validationsNeeded < MIN_TEXT_ANSWERS) {
    throw new BadRequestError('VALIDATION_ERROR', `a text task needs at least ${MIN_TEXT_ANSWERS} written answers for its review to choose between`, {
      issues: [{ path: 'validationsNeeded', message: `must be at least ${MIN_TEXT_ANSWERS} for a text task` }],
    });
  }
}

function invalidTask(index: number, error: { code: string; message: string; details?: Record<string, unknown> }): AppError {
  return new AppError(400, 'INVALID_TASK', `Task ${index + 1} is invalid: ${error.message}`, { code: error.code, ...error.details }, index);
}

/**
 * A new task with the quality settings it keeps (contract §5): its project's where set, else the
 * defaults; and its deadline: its own, else its project's default hours after `now`, else none.
 * `projects` holds the settings of the buyer's projects the tasks name.
 */
function withQuality(task: TaskInput, projects: ReadonlyMap<string, QualitySettings>, defaultTargetConfidence: number, now: Date): NewTask {
  const project = task.projectId ? (projects.get(task.projectId) ?? null) : null;
  const hours = project?.defaultDeadlineHours ?? null;
  const deadlineAt = task.deadline !== undefined ? new Date(task.deadline) : hours === null ? null : new Date(now.getTime() + hours * 3_600_000);
  return { ...task, ...taskQualityFor(task.validationsNeeded, project, defaultTargetConfidence, task.answerKind), deadlineAt };
}

function projectIdsOf(tasks: ReadonlyArray<{ projectId: string | null }>): string[] {
  return [...new Set(tasks.flatMap((task) => (task.projectId ? [task.projectId] : [])))];
}

const sumCost = (tasks: Array<{ costCents: number }>) => tasks.reduce((sum, task) => sum + task.costCents, 0);

/**
 * What a change of a PENDING task adds to the caps: a raised budget adds the difference to its project and
 * its month; a move to another project adds the whole budget there. Null when it adds nothing.
 */
function commitmentAdded(task: TaskRecord, changes: TaskChanges): Commitment | null {
  const maxCents = changes.maxCents ?? task.maxCents;
  const raised = Math.max(maxCents - task.maxCents, 0);
  const moved = changes.projectId !== undefined && changes.projectId !== task.projectId;
  const projectId = moved ? (changes.projectId ?? null) : task.projectId;
  const toProject = moved ? maxCents : raised;
  if (raised === 0 && (projectId === null || toProject === 0)) return null;
  return {
    byProject: new Map(projectId === null || toProject === 0 ? [] : [[projectId, toProject]]),
    totalCents: raised,
    // The raise counts in the month the task's budget was committed in.
    committedAt: task.releasedAt ?? task.createdAt,
  };
}
const toCreatedView = (task: CreatedTask, held = false): CreatedTaskView => ({
  taskId: task.id,
  type: task.type,
  status: 'PENDING',
  costCents: task.costCents,
  ...(held ? { held: true as const } : {}),
});

/** Rows per INSERT during a CSV import. */
const CSV_CHUNK = 2_500;

/**
 * Collects the valid rows of a CSV import and inserts them a chunk at a time, with at most one insert
 * in flight while the caller parses on. Rows naming a project that is not the buyer's become errors.
 */
class CsvChunkInserter {
  private readonly errors: CsvImportResult['errors'] = [];
  private readonly created: CreatedTask[] = [];
  /** The settings of the buyer's projects that rows have named so far. */
  private readonly projects = new Map<string, QualitySettings>();
  /** Every project id looked up so far, the buyer's or not: each is read once per import. */
  private readonly lookedUp = new Set<string>();
  private pending: Array<{ row: number; task: TaskInput }> = [];
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly repos: RawRepos,
    private readonly buyerId: string,
    private readonly priceCents: number,
    private readonly defaultTargetConfidence: number,
    private readonly now: Date,
  ) {}

  reject(row: number, error: string, code: string): void {
    this.errors.push({ row, error, code });
  }

  async add(row: number, task: TaskInput): Promise<void> {
    this.pending.push({ row, task });
    if (this.pending.length >= CSV_CHUNK) await this.flush();
  }

  async finish(): Promise<{ created: CreatedTask[]; errors: CsvImportResult['errors'] }> {
    await this.flush();
    await this.inFlight;
    this.errors.sort((a, b) => a.row - b.row);
    return { created: this.created, errors: this.errors };
  }

  /** Waits for the previous chunk, then starts this one without waiting for it. */
  private async flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = [];
    await this.inFlight;
    if (chunk.length === 0) return;
    const insert = this.insertChunk(chunk);
    // Observed at the next flush or in finish(); the no-op keeps it from counting as unhandled meanwhile.
    insert.catch(() => undefined);
    this.inFlight = insert;
  }

  private async insertChunk(chunk: Array<{ row: number; task: TaskInput }>): Promise<void> {
    const unknown = [...new Set(chunk.flatMap(({ task }) => (task.projectId && !this.lookedUp.has(task.projectId) ? [task.projectId] : [])))];
    if (unknown.length > 0) {
      const found = await this.repos.projects.qualitySettings(this.buyerId, unknown);
      for (const id of unknown) this.lookedUp.add(id);
      for (const [id, settings] of found) this.projects.set(id, settings);
    }
    const accepted = chunk.filter(({ row, task }) => {
      if (task.projectId === null || this.projects.has(task.projectId)) return true;
      this.reject(row, 'projectId is not one of your projects', 'INVALID_PROJECT');
      return false;
    });
    if (accepted.length === 0) return;
    const tasks = accepted.map(({ task }) => withQuality(task, this.projects, this.defaultTargetConfidence, this.now));
    const created = await this.repos.tasks.insertMany(this.buyerId, tasks, this.priceCents);
    this.created.push(...created);
  }
}
