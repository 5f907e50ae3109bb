import type { Database } from '../../db/database.ts';
import type { StatusCounts } from '../tasks/tasks.repository.ts';
import type { ProjectRecord } from './projects.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

export interface ProjectWithStats extends ProjectRecord {
  stats: { tasks: StatusCounts; spentCents: number };
}

export class ProjectsService {
  constructor(private readonly db: Database) {}

  create(buyerId: string, input: { name: string; description?: string | null }): Promise<ProjectRecord> {
    return this.db.repos.projects.create(buyerId, input);
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<ProjectRecord, 'projects'>> {
    return toPage('projects', await this.db.repos.projects.list(buyerId, pageRequest(limit, cursor)), limit);
  }

  async get(buyerId: string, id: string): Promise<ProjectWithStats> {
    const project = await this.db.repos.projects.get(buyerId, id);
    const [tasks, spentCents] = await Promise.all([
      this.db.repos.tasks.countByStatus({ projectId: id }),
      this.db.repos.tasks.sumCompletedCost(id),
    ]);
    return { ...project, stats: { tasks, spentCents } };
  }

  update(buyerId: string, id: string, changes: { name?: string; description?: string | null }): Promise<ProjectRecord> {
    return this.db.repos.projects.update(buyerId, id, changes);
  }

  delete(buyerId: string, id: string): Promise<void> {
    return this.db.repos.projects.delete(buyerId, id);
  }
}
