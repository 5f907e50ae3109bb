import { MAX_LISTED_CAPS, type CapAction } from '@concord/contract';
import { Prisma } from '../../generated/prisma/client.ts';
import type { RawExecutor } from '../../db/pg-executor.ts';
import { toCents } from '../../db/client.ts';

/**
 * What a task commits against a cap: its budget while open (reserved), its price once completed (charged,
 * or about to be by the settlement-effects applier), nothing once failed or while held. It only ever
 * shrinks after the task's creation, so only creations, budget raises and releases of held tasks can pass
 * a cap, and they take the caps' row locks.
 */
const committedOf = (alias: 't' | 'r') =>
  Prisma.raw(
    `CASE WHEN ${alias}.status IN ('PENDING', 'VALIDATING') AND ${alias}.held_at IS NULL THEN ${alias}.max_cents ` +
      `WHEN ${alias}.status = 'COMPLETED' THEN ${alias}.cost_cents ELSE 0 END`,
  );

export type { CapAction } from '@concord/contract';

export interface ProjectCap {
  projectId: string;
  name: string;
  /** Null once removed (a list holds capped projects only). */
  capCents: number | null;
  capAction: CapAction;
  committedCents: number;
  /** Tasks held by the cap (capAction hold), waiting for it to be set again. */
  heldTasks: number;
}

/** Raw SQL: task creation checks caps in its raw-SQL transaction; the routes of caps use it on Prisma's. */
export class SpendingCapsRepository {
  constructor(private readonly db: RawExecutor) {}

  /**
   * These projects' caps, their rows locked (in id order) until the transaction ends, capped or not: a cap
   * set by a concurrent request is then read as it committed, never skipped, and concurrent creations in a
   * project wait for each other here. FOR NO KEY UPDATE does not hold up the inserts that reference the
   * project. `hasHeld`: the project holds tasks already (new ones then queue behind them).
   */
  async lockProjectCaps(
    buyerId: string,
    projectIds: readonly string[],
  ): Promise<Array<{ projectId: string; capCents: number | null; capAction: CapAction; hasHeld: boolean }>> {
    if (projectIds.length === 0) return [];
    const rows = await this.db.$queryRaw<Array<{ id: string; cap: bigint | null; action: CapAction; held: boolean }>>`
      SELECT p.id, p.budget_cap_cents AS cap, p.cap_action AS action,
             EXISTS (SELECT 1 FROM tasks h WHERE h.project_id = p.id AND h.held_at IS NOT NULL) AS held
      FROM projects p WHERE p.buyer_id = ${buyerId} AND p.id = ANY(${[...projectIds]}::text[])
      ORDER BY p.id FOR NO KEY UPDATE OF p`;
    return rows.map((row) => ({ projectId: row.id, capCents: row.cap === null ? null : toCents(row.cap), capAction: row.action, hasHeld: row.held }));
  }

  /** Holds these new tasks: they stay PENDING, neither reserved nor served, until the cap is set again. */
  async hold(taskIds: readonly string[]): Promise<void> {
    if (taskIds.length > 0) await this.db.$executeRaw`UPDATE tasks SET held_at = now() WHERE id = ANY(${[...taskIds]}::text[]) AND status = 'PENDING'`;
  }

  /** A project's held tasks, oldest first, their rows locked: what setting its cap again may release. */
  heldTasks(projectId: string): Promise<Array<{ id: string; maxCents: number }>> {
    return this.db.$queryRaw`
      SELECT id, max_cents AS "maxCents" FROM tasks WHERE project_id = ${projectId} AND held_at IS NOT NULL
      ORDER BY created_at, id FOR UPDATE`;
  }

  /** Released, a held task's budget is committed now: in this month, for the monthly cap. */
  async release(taskIds: readonly string[]): Promise<void> {
    if (taskIds.length > 0)
      await this.db.$executeRaw`UPDATE tasks SET held_at = NULL, released_at = now(), updated_at = now() WHERE id = ANY(${[...taskIds]}::text[])`;
  }

  /** What a project's tasks commit now (its own transaction's new tasks included). */
  async projectCommitted(projectId: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ committed: bigint }>>`
      SELECT coalesce(sum(${committedOf('t')}), 0)::bigint AS committed FROM tasks t WHERE t.project_id = ${projectId}`;
    return toCents(rows[0]?.committed ?? 0n);
  }

  async projectName(projectId: string): Promise<string | null> {
    const rows = await this.db.$queryRaw<Array<{ name: string }>>`SELECT name FROM projects WHERE id = ${projectId}`;
    return rows[0]?.name ?? null;
  }

  /** The organisation's monthly cap (null: none); with `lock`, its row locked as a reservation locks it. */
  async monthlyCap(buyerId: string, lock = false): Promise<number | null> {
    const rows = await this.db.$queryRaw<Array<{ cap: bigint | null }>>`
      SELECT monthly_cap_cents AS cap FROM buyers WHERE id = ${buyerId} ${lock ? Prisma.sql`FOR NO KEY UPDATE` : Prisma.empty}`;
    const cap = rows[0]?.cap;
    return cap === null || cap === undefined ? null : toCents(cap);
  }

  /**
   * What the tasks the organisation committed in `month` (a calendar month, UTC) commit now:
   * those created in it, and those released in it from a project's hold. A text task's review task is
   * counted with it, in its month: the review's budget is moved out of the text task's.
   */
  async monthCommitted(buyerId: string, month: { start: Date; end: Date }): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ committed: bigint }>>`
      SELECT coalesce(sum(${committedOf('t')} + coalesce(${committedOf('r')}, 0)), 0)::bigint AS committed
      FROM tasks t LEFT JOIN tasks r ON r.id = t.id || '-review'
      WHERE t.buyer_id = ${buyerId} AND t.review_of IS NULL
        AND ((t.released_at IS NULL AND t.created_at >= ${month.start} AND t.created_at < ${month.end})
             OR (t.released_at >= ${month.start} AND t.released_at < ${month.end}))`;
    return toCents(rows[0]?.committed ?? 0n);
  }

  /** The organisation's capped projects (or the one named, capped or not), by name, with what each commits now. */
  async projectCaps(buyerId: string, projectId?: string): Promise<ProjectCap[]> {
    const rows = await this.db.$queryRaw<Array<{ id: string; name: string; cap: bigint | null; action: CapAction; committed: bigint; held: number }>>`
      SELECT p.id, p.name, p.budget_cap_cents AS cap, p.cap_action AS action,
             (SELECT coalesce(sum(${committedOf('t')}), 0) FROM tasks t WHERE t.project_id = p.id)::bigint AS committed,
             (SELECT count(*) FROM tasks h WHERE h.project_id = p.id AND h.held_at IS NOT NULL)::int AS held
      FROM projects p WHERE p.buyer_id = ${buyerId} AND ${projectId === undefined ? Prisma.sql`p.budget_cap_cents IS NOT NULL` : Prisma.sql`p.id = ${projectId}`}
      ORDER BY p.name, p.id LIMIT ${MAX_LISTED_CAPS}`;
    return rows.map((row) => ({
      projectId: row.id,
      name: row.name,
      capCents: row.cap === null ? null : toCents(row.cap),
      capAction: row.action,
      committedCents: toCents(row.committed),
      heldTasks: row.held,
    }));
  }

  /**
   * Sets a project's cap (null: none) under its row lock, and re-arms budget.cap_reached. The cap it had and
   * the project's name; null when the organisation has no such project.
   */
  async setProjectCap(
    buyerId: string,
    projectId: string,
    cap: { capCents: number | null; capAction?: CapAction | undefined },
  ): Promise<{ before: { capCents: number | null; capAction: CapAction }; capAction: CapAction; name: string } | null> {
    const rows = await this.db.$queryRaw<Array<{ before: bigint | null; action: CapAction; capAction: CapAction; name: string }>>`
      WITH old AS (SELECT id, budget_cap_cents, cap_action FROM projects WHERE id = ${projectId} AND buyer_id = ${buyerId} FOR NO KEY UPDATE)
      UPDATE projects p SET budget_cap_cents = ${cap.capCents}::bigint, cap_action = coalesce(${cap.capAction ?? null}, p.cap_action),
                            cap_reached_at = NULL, updated_at = now()
      FROM old WHERE p.id = old.id
      RETURNING old.budget_cap_cents AS before, old.cap_action AS action, p.cap_action AS "capAction", p.name`;
    const row = rows[0];
    return row
      ? { before: { capCents: row.before === null ? null : toCents(row.before), capAction: row.action }, capAction: row.capAction, name: row.name }
      : null;
  }

  /** Sets the organisation's monthly cap (null: none) and re-arms budget.cap_reached; the cap it had. */
  async setMonthlyCap(buyerId: string, capCents: number | null): Promise<number | null> {
    const before = await this.monthlyCap(buyerId, true);
    await this.db.$executeRaw`UPDATE buyers SET monthly_cap_cents = ${capCents}::bigint, monthly_cap_reached_at = NULL WHERE id = ${buyerId}`;
    return before;
  }

  /** Marks a project's cap as reached, once until it is set again: whether this call was the first. */
  async markProjectCapReached(projectId: string, capCents: number): Promise<boolean> {
    const updated = await this.db.$executeRaw`
      UPDATE projects SET cap_reached_at = now()
      WHERE id = ${projectId} AND cap_reached_at IS NULL AND budget_cap_cents = ${capCents}::bigint`;
    return updated === 1;
  }

  /** Marks the monthly cap as reached, once per month until it is set again: whether this call was the first. */
  async markMonthlyCapReached(buyerId: string, capCents: number): Promise<boolean> {
    const updated = await this.db.$executeRaw`
      UPDATE buyers SET monthly_cap_reached_at = now()
      WHERE id = ${buyerId} AND monthly_cap_cents = ${capCents}::bigint
        AND (monthly_cap_reached_at IS NULL OR monthly_cap_reached_at < date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
    return updated === 1;
  }
}
