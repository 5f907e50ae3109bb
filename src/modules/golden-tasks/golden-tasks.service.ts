import type { Database } from '../../repositories.ts';
import { AppError, BadRequestError } from '../../lib/errors.ts';
import { storedAnswer, validateGoldenTaskInput } from '@concord/contract';
import type { GoldenTaskRecord } from './golden-tasks.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

export class GoldenTasksService {
  constructor(private readonly db: Database) {}

  /** Validated like a task (same codes, same order); a goldenAnswer outside the options is VALIDATION_ERROR. */
  async create(buyerId: string, raw: unknown): Promise<GoldenTaskRecord> {
    const validation = validateGoldenTaskInput(raw);
    if (!validation.ok) throw new AppError(400, validation.error.code, validation.error.message, validation.error.details);
    const input = validation.task;
    if (input.projectId && !(await this.db.repos.projects.ownedIds(buyerId, [input.projectId])).has(input.projectId)) {
      throw new BadRequestError('INVALID_PROJECT', 'projectId is not one of your projects');
    }
    const { goldenAnswer, allowEmpty, allowTie: _inOptions, candidates, ...rest } = input;
    // Stored as answers are, so that a golden answer is right when its stored form is this one.
    return this.db.repos.goldenTasks.create(buyerId, {
      ...rest,
      goldenAnswer: storedAnswer(input, goldenAnswer),
      allowEmpty: allowEmpty ?? false,
      candidates: candidates ?? null,
    });
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<GoldenTaskRecord, 'goldenTasks'>> {
    return toPage('goldenTasks', await this.db.repos.goldenTasks.list(buyerId, pageRequest(limit, cursor)), limit);
  }

  delete(buyerId: string, id: string): Promise<void> {
    return this.db.repos.goldenTasks.delete(buyerId, id);
  }
}
