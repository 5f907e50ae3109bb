import type { DbClient } from '../../db/client.ts';
import { toCents } from '../../db/client.ts';

export type TaskStatus = 'PENDING' | 'VALIDATING' | 'COMPLETED' | 'FAILED';
export type StatusCounts = Record<TaskStatus, number>;

export class TasksRepository {
  constructor(private readonly db: DbClient) {}

  /** Task counts by status, platform-wide or for one project. */
  async countByStatus(filter: { projectId?: string } = {}): Promise<StatusCounts> {
    const groups = await this.db.task.groupBy({ by: ['status'], where: filter, _count: { _all: true } });
    const counts: StatusCounts = { PENDING: 0, VALIDATING: 0, COMPLETED: 0, FAILED: 0 };
    for (const group of groups) counts[group.status] = group._count._all;
    return counts;
  }

  /** What the completed tasks of a project cost. */
  async sumCompletedCost(projectId: string): Promise<number> {
    const spent = await this.db.task.aggregate({ where: { projectId, status: 'COMPLETED' }, _sum: { costCents: true } });
    return toCents(spent._sum.costCents ?? 0);
  }
}
