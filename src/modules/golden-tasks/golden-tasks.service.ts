import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import type { GoldenTasksRepository } from './golden-tasks.repository.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { pick } from '../audit/audit-change.ts';
import { AppError, BadRequestError } from '../../lib/errors.ts';
import { storedAnswer, validateGoldenTaskInput } from '@concord/contract';
import { goldenTaskNotFound, type GoldenTaskRecord } from './golden-tasks.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository; goldenTasks: GoldenTasksRepository; projects: ProjectsRepository };
type Db = UnitOfWork<Repos>;

export class GoldenTasksService {
  constructor(private readonly db: Db) {}

  /** Validated like a task (same codes, same order); a goldenAnswer outside the options is VALIDATION_ERROR. */
  async create(actor: Actor, raw: unknown): Promise<GoldenTaskRecord> {
    const buyerId = actor.organisationId;
    const validation = validateGoldenTaskInput(raw);
    if (!validation.ok) throw new AppError(400, validation.error.code, validation.error.message, validation.error.details);
    const input = validation.task;
    if (input.projectId && !(await this.db.repos.projects.ownedIds(buyerId, [input.projectId])).has(input.projectId)) {
      throw new BadRequestError('INVALID_PROJECT', 'projectId is not one of your projects');
    }
    const { goldenAnswer, allowEmpty, allowTie: _inOptions, candidates, ...rest } = input;
    // Stored as answers are, so that a golden answer is right when its stored form is this one.
    return this.db.transaction(async (repos) => {
      const golden = await repos.goldenTasks.create(buyerId, {
        ...rest,
        goldenAnswer: storedAnswer(input, goldenAnswer),
        allowEmpty: allowEmpty ?? false,
        candidates: candidates ?? null,
      });
      await repos.auditLog.append(actor, { targetId: golden.id, after: goldenSettings(golden) });
      return golden;
    });
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<GoldenTaskRecord, 'goldenTasks'>> {
    return toPage('goldenTasks', await this.db.repos.goldenTasks.list(buyerId, pageRequest(limit, cursor)), limit);
  }

  delete(actor: Actor, id: string): Promise<void> {
    return this.db.transaction(async (repos) => {
      const golden = await repos.goldenTasks.findById(id);
      if (!golden || golden.buyerId !== actor.organisationId) throw goldenTaskNotFound();
      await repos.goldenTasks.delete(actor.organisationId, id);
      await repos.auditLog.append(actor, { targetId: id, before: goldenSettings(golden) });
    });
  }
}

/** What the audit log keeps of a golden task: its settings, not its content or its answer. */
const goldenSettings = (golden: GoldenTaskRecord) => pick(golden, ['type', 'answerKind', 'projectId', 'locale']);
