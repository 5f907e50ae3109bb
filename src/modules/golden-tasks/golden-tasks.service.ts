import type { Database } from '../../repositories.ts';
import { AppError, BadRequestError } from '../../lib/errors.ts';
import { answerChoices, inOptionOrder, validateGoldenTaskInput } from '@concord/contract';
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
    const { goldenAnswer, allowEmpty, ...rest } = input;
    // A set is stored as answers are (task_answer): the JSON array of its options in option order.
    const stored = input.answerKind === 'multi' ? JSON.stringify(inOptionOrder(input.options, answerChoices(goldenAnswer))) : String(goldenAnswer);
    return this.db.repos.goldenTasks.create(buyerId, { ...rest, goldenAnswer: stored, allowEmpty: allowEmpty ?? false });
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<GoldenTaskRecord, 'goldenTasks'>> {
    return toPage('goldenTasks', await this.db.repos.goldenTasks.list(buyerId, pageRequest(limit, cursor)), limit);
  }

  delete(buyerId: string, id: string): Promise<void> {
    return this.db.repos.goldenTasks.delete(buyerId, id);
  }
}
