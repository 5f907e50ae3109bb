// Spending caps (docs/organisations.md): a project's budget cap and the organisation's monthly cap. A cap
// is checked where money is committed — in the transaction that creates tasks or raises a budget, after
// the new commitment is written and before the reservation — under the caps' row locks, so concurrent
// creations are ordered and none can pass a cap by a cent. Decisions only lower what tasks commit.
import type { UnitOfWork } from '../../db/database.ts';
import type { LedgerRepos } from './billing.service.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { BudgetCapReachedError, NotFoundError, type CapBreach } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { budgetCapMail } from '../email/mail.templates.ts';
import type { CapAction, ProjectCap, SpendingCapsRepository } from './spending-caps.repository.ts';

/** What enforcing a cap reads and writes through, in the creating transaction (raw or Prisma). */
export type CapRepos = LedgerRepos & { spendingCaps: SpendingCapsRepository };
/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository } & CapRepos;
type Db = UnitOfWork<Repos>;

/** One new task as the caps see it. */
export interface NewTaskBudget {
  id: string;
  projectId: string | null;
  maxCents: number;
}

/**
 * What a request adds to the caps: per project and in all (the month's), and, for a creation, its new
 * tasks in creation order (which a holding project may hold).
 */
export interface Commitment {
  byProject: ReadonlyMap<string, number>;
  totalCents: number;
  tasks?: readonly NewTaskBudget[];
  /** When the budget a raise adds to was committed (the task's creation or release): whose month's cap it counts against; absent: now. */
  committedAt?: Date;
}

/** The calendar month (UTC) around `at`: what the monthly cap covers. */
export function utcMonth(at: Date): { start: Date; end: Date } {
  return { start: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)), end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)) };
}

/** The commitment of new tasks (their budgets), per project. */
export function commitmentOf(tasks: readonly NewTaskBudget[]): Commitment {
  const byProject = new Map<string, number>();
  let totalCents = 0;
  for (const task of tasks) {
    totalCents += task.maxCents;
    if (task.projectId !== null) byProject.set(task.projectId, (byProject.get(task.projectId) ?? 0) + task.maxCents);
  }
  return { byProject, totalCents, tasks };
}

/**
 * The tasks of `projectId` to hold, in creation order, when `room` cents are left under its cap: the first
 * that does not fit and every one after it (a held queue keeps its order).
 */
export function tasksToHold(tasks: readonly NewTaskBudget[], projectId: string, room: number): string[] {
  const held: string[] = [];
  for (const task of tasks) {
    if (task.projectId !== projectId) continue;
    if (held.length === 0 && task.maxCents <= room) room -= task.maxCents;
    else held.push(task.id);
  }
  return held;
}

export interface CapsOverview {
  monthly: { capCents: number | null; committedCents: number; month: string };
  projects: ProjectCap[];
}

export class SpendingCapsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /**
   * In the creating transaction, once its commitment is written: holds the new tasks a holding project's
   * cap has no room for (returning their ids, which the caller does not reserve), and throws
   * BudgetCapReachedError for the first cap passed otherwise (projects in id order, then the month). The
   * rows are locked projects first, then the buyer, the order every creation takes them in.
   */
  async enforce(repos: CapRepos, buyerId: string, added: Commitment): Promise<Set<string>> {
    const held = new Set<string>();
    for (const { projectId, capCents, capAction, hasHeld } of await repos.spendingCaps.lockProjectCaps(buyerId, [...added.byProject.keys()])) {
      if (capCents === null) continue;
      // Only new tasks can be held; a budget raise or a move past a holding project's cap is refused.
      const holdable = capAction === 'hold' ? added.tasks : undefined;
      const committed = await repos.spendingCaps.projectCommitted(projectId);
      // A project that holds tasks already keeps new ones behind them, room or not: its queue keeps its order.
      if (committed <= capCents && !(holdable && hasHeld)) continue;
      const required = added.byProject.get(projectId) ?? 0;
      const breach: CapBreach = { scope: 'project', projectId, capCents, committedCents: committed - required, requiredCents: required };
      if (!holdable) throw new BudgetCapReachedError(breach);
      const holding = tasksToHold(holdable, projectId, hasHeld ? 0 : capCents - breach.committedCents);
      await repos.spendingCaps.hold(holding);
      for (const id of holding) held.add(id);
      await this.announce(repos, buyerId, breach);
    }
    const heldCents = (added.tasks ?? []).reduce((sum, task) => sum + (held.has(task.id) ? task.maxCents : 0), 0);
    const required = added.totalCents - heldCents;
    if (required === 0) return held;
    const monthly = await repos.spendingCaps.monthlyCap(buyerId, true);
    if (monthly === null) return held;
    const committed = await repos.spendingCaps.monthCommitted(buyerId, utcMonth(added.committedAt ?? this.clock.now()));
    if (committed > monthly)
      throw new BudgetCapReachedError({
        scope: 'organisation',
        projectId: null,
        capCents: monthly,
        committedCents: committed - required,
        requiredCents: required,
      });
    return held;
  }

  async overview(buyerId: string): Promise<CapsOverview> {
    const caps = this.db.repos.spendingCaps;
    const now = this.clock.now();
    const [capCents, committedCents, projects] = await Promise.all([
      caps.monthlyCap(buyerId),
      caps.monthCommitted(buyerId, utcMonth(now)),
      caps.projectCaps(buyerId),
    ]);
    return { monthly: { capCents, committedCents, month: now.toISOString().slice(0, 7) }, projects };
  }

  async setMonthlyCap(actor: Actor, capCents: number | null): Promise<CapsOverview['monthly']> {
    await this.db.transaction(async (repos) => {
      const before = await repos.spendingCaps.setMonthlyCap(actor.organisationId, capCents);
      await repos.auditLog.append(actor, { targetId: actor.organisationId, before: { monthlyCapCents: before }, after: { monthlyCapCents: capCents } });
    });
    return (await this.overview(actor.organisationId)).monthly;
  }

  /**
   * Sets a project's cap and what it does past it, then releases its held tasks in creation order as far
   * as this cap, the monthly cap and the available balance allow (reserving their budgets).
   */
  async setProjectCap(actor: Actor, projectId: string, cap: { capCents: number | null; capAction?: CapAction | undefined }): Promise<ProjectCap> {
    await this.db.transaction(async (repos) => {
      const set = await repos.spendingCaps.setProjectCap(actor.organisationId, projectId, cap);
      if (!set) throw new NotFoundError('PROJECT_NOT_FOUND', 'Project not found');
      const released = await this.releaseHeld(repos, actor.organisationId, projectId, cap.capCents);
      await repos.auditLog.append(actor, {
        targetId: projectId,
        before: { budgetCapCents: set.before.capCents, capAction: set.before.capAction },
        after: { budgetCapCents: cap.capCents, capAction: set.capAction, ...(released > 0 ? { releasedTasks: released } : {}) },
      });
    });
    const [project] = (await this.db.repos.spendingCaps.projectCaps(actor.organisationId, projectId)) as [ProjectCap];
    return project;
  }

  /** Under the project's lock: releases what fits of its held tasks; how many. */
  private async releaseHeld(repos: CapRepos, buyerId: string, projectId: string, capCents: number | null): Promise<number> {
    const held = await repos.spendingCaps.heldTasks(projectId);
    if (held.length === 0) return 0;
    let projectRoom = capCents === null ? Infinity : capCents - (await repos.spendingCaps.projectCommitted(projectId));
    // Released, a task commits in this month, whenever it was created.
    const monthly = await repos.spendingCaps.monthlyCap(buyerId, true);
    let monthRoom = monthly === null ? Infinity : monthly - (await repos.spendingCaps.monthCommitted(buyerId, utcMonth(this.clock.now())));
    let available = (await repos.billing.getBalance(buyerId))?.availableCents ?? 0;
    const released: string[] = [];
    let cents = 0;
    for (const task of held) {
      if (task.maxCents > Math.min(projectRoom, monthRoom, available)) break;
      projectRoom -= task.maxCents;
      monthRoom -= task.maxCents;
      available -= task.maxCents;
      cents += task.maxCents;
      released.push(task.id);
    }
    if (released.length === 0) return 0;
    await repos.spendingCaps.release(released);
    const reserved = await repos.billing.reserve(buyerId, cents);
    if (!reserved.ok) throw new Error(`releasing held tasks of ${projectId}: ${cents} cents no longer available under the buyer's lock`);
    return released.length;
  }

  /**
   * `work`'s outcome; when a spending cap refused it (BudgetCapReachedError, its transaction rolled back),
   * the cap is announced first (budget.cap_reached), in a transaction of its own.
   */
  async noticing<T>(buyerId: string, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof BudgetCapReachedError) await this.db.transaction((repos) => this.announce(repos, buyerId, error.breach));
      throw error;
    }
  }

  /**
   * budget.cap_reached and an e-mail to the members who may raise the cap, the first time this cap stops
   * work since it was set (for the monthly cap, in this month).
   */
  private async announce(repos: CapRepos, buyerId: string, breach: CapBreach): Promise<void> {
    const first =
      breach.scope === 'project' && breach.projectId !== null
        ? await repos.spendingCaps.markProjectCapReached(breach.projectId, breach.capCents)
        : await repos.spendingCaps.markMonthlyCapReached(buyerId, breach.capCents);
    if (!first) return;
    await repos.events.record(buyerId, 'budget.cap_reached', { ...breach, at: this.clock.now().toISOString() });
    const recipients = await repos.accounts.findBuyerRecipients(buyerId, 'money:write');
    const projectName = breach.projectId === null ? null : await repos.spendingCaps.projectName(breach.projectId);
    for (const email of recipients?.emails ?? [])
      await repos.mail.enqueue(budgetCapMail(email, recipients?.companyName ?? '', { ...breach, projectName }, this.publicUrl));
  }
}
