import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';
import { inScope, type ProjectScope } from '../../lib/endpoint.ts';
import type { ProjectSettingsSource, QualitySettings } from '../tasks/task-quality.ts';
import type { ProjectDefaultKind } from '@concord/contract';

export interface ProjectRecord extends QualitySettings {
  id: string;
  name: string;
  description: string | null;
  /** The answer kind of its tasks that name none; null: single choice. */
  defaultAnswerKind: ProjectDefaultKind | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a project's writes may set; an absent key is left as it is, null clears it. */
export interface ProjectChanges {
  name?: string;
  description?: string | null;
  targetConfidence?: number | null;
  maxResponses?: number | null;
  defaultAnswerKind?: ProjectDefaultKind | null;
  defaultDeadlineHours?: number | null;
}

const select = {
  id: true,
  name: true,
  description: true,
  targetConfidence: true,
  maxResponses: true,
  defaultAnswerKind: true,
  defaultDeadlineHours: true,
  createdAt: true,
  updatedAt: true,
} as const;
export const projectNotFound = () => new NotFoundError('PROJECT_NOT_FOUND', 'Project not found');

/** The project a route names, if a project-scoped key may see it: one outside its projects is not found for it. */
export function scopedProject(principal: { projectIds: ProjectScope }, id: string): string {
  if (!inScope(principal.projectIds, id)) throw projectNotFound();
  return id;
}

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class ProjectsRawRepository implements ProjectSettingsSource {
  constructor(protected readonly db: RawExecutor) {}

  /** Which of these ids are projects of this buyer. */
  async ownedIds(buyerId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM projects WHERE buyer_id = ${buyerId} AND id = ANY(${ids}::text[])`;
    return new Set(rows.map((row) => row.id));
  }

  /** The default answer kinds of those of these ids that are projects of this buyer and set one. */
  async defaultAnswerKinds(buyerId: string, ids: string[]): Promise<Map<string, ProjectDefaultKind>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.$queryRaw<Array<{ id: string; kind: ProjectDefaultKind }>>`
      SELECT id, default_answer_kind AS kind FROM projects
      WHERE buyer_id = ${buyerId} AND id = ANY(${ids}::text[]) AND default_answer_kind IS NOT NULL`;
    return new Map(rows.map((row) => [row.id, row.kind]));
  }

  /**
   * The quality settings of those of these ids that are projects of this buyer, in one query (an id
   * missing from the map is not the buyer's project). Raw SQL: task creation runs it in the raw-SQL (pg)
   * transactions of idempotent requests.
   */
  async qualitySettings(buyerId: string, ids: string[]): Promise<Map<string, QualitySettings>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.$queryRaw<
      Array<{ id: string; target_confidence: number | null; max_responses: number | null; default_deadline_hours: number | null }>
    >`
      SELECT id, target_confidence, max_responses, default_deadline_hours FROM projects WHERE buyer_id = ${buyerId} AND id = ANY(${ids}::text[])`;
    return new Map(
      rows.map((row) => [
        row.id,
        { targetConfidence: row.target_confidence, maxResponses: row.max_responses, defaultDeadlineHours: row.default_deadline_hours },
      ]),
    );
  }
}

export class ProjectsRepository extends ProjectsRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  create(buyerId: string, input: ProjectChanges & { name: string }): Promise<ProjectRecord> {
    return this.db.project.create({
      data: {
        id: newId(),
        buyerId,
        name: input.name,
        description: input.description ?? null,
        targetConfidence: input.targetConfidence ?? null,
        maxResponses: input.maxResponses ?? null,
        defaultAnswerKind: input.defaultAnswerKind ?? null,
        defaultDeadlineHours: input.defaultDeadlineHours ?? null,
      },
      select,
    }) as Promise<ProjectRecord>;
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  list(buyerId: string, page: PageRequest, ids: readonly string[] | null = null): Promise<ProjectRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    const scoped = ids ? { id: { in: [...ids] } } : {};
    // The CHECK constraint holds default_answer_kind to the contract's kinds; Prisma types it as text.
    return this.db.project.findMany({ where: { buyerId, ...scoped, ...where }, select, ...rest }) as Promise<ProjectRecord[]>;
  }

  async get(buyerId: string, id: string): Promise<ProjectRecord> {
    const project = await this.db.project.findFirst({ where: { id, buyerId }, select });
    if (!project) throw projectNotFound();
    return project as ProjectRecord;
  }

  /**
   * The project, its row locked until the transaction ends: what a change reads as its `before`. FOR NO KEY
   * UPDATE, the lock the change's own UPDATE takes: it does not hold up the task inserts that reference it.
   */
  async getLocked(buyerId: string, id: string): Promise<ProjectRecord> {
    const locked = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM projects WHERE id = ${id} AND buyer_id = ${buyerId} FOR NO KEY UPDATE`;
    if (locked.length === 0) throw projectNotFound();
    return this.get(buyerId, id);
  }

  async update(buyerId: string, id: string, changes: ProjectChanges): Promise<ProjectRecord> {
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
