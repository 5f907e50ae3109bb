import type { DbClient } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';

export interface ProjectRecord {
  id: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const select = { id: true, name: true, description: true, createdAt: true, updatedAt: true } as const;
export const projectNotFound = () => new NotFoundError('PROJECT_NOT_FOUND', 'Project not found');

export class ProjectsRepository {
  constructor(private readonly db: DbClient) {}

  create(buyerId: string, input: { name: string; description?: string | null }): Promise<ProjectRecord> {
    return this.db.project.create({
      data: { id: newId(), buyerId, name: input.name, description: input.description ?? null },
      select,
    });
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  list(buyerId: string, page: PageRequest): Promise<ProjectRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    return this.db.project.findMany({ where: { buyerId, ...where }, select, ...rest });
  }

  async get(buyerId: string, id: string): Promise<ProjectRecord> {
    const project = await this.db.project.findFirst({ where: { id, buyerId }, select });
    if (!project) throw projectNotFound();
    return project;
  }

  /** Which of these ids are projects of this buyer. */
  async ownedIds(buyerId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    // Raw SQL: also used in the raw-SQL (pg) transactions of bulk imports.
    const rows = await this.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM projects WHERE buyer_id = ${buyerId} AND id = ANY(${ids}::text[])`;
    return new Set(rows.map((row) => row.id));
  }

  async update(buyerId: string, id: string, changes: { name?: string; description?: string | null }): Promise<ProjectRecord> {
    const updated = await this.db.project.updateMany({ where: { id, buyerId }, data: changes });
    if (updated.count === 0) throw projectNotFound();
    return this.get(buyerId, id);
  }

  /** The tasks foreign key (ON DELETE RESTRICT) refuses the delete while any task points here. */
  async delete(buyerId: string, id: string): Promise<void> {
    try {
      const deleted = await this.db.project.deleteMany({ where: { id, buyerId } });
      if (deleted.count === 0) throw projectNotFound();
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new ConflictError('PROJECT_HAS_TASKS', 'The project still has tasks; delete or move them first');
      }
      throw error;
    }
  }
}
