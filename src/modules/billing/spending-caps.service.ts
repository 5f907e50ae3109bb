// Spending caps (docs/organisations.md): a project's budget cap and the organisation's monthly cap. A cap
// is checked where money is committed — in the transaction that creates tasks or raises a budget, after
// the new commitment is written and before the reservation — under the caps' row locks, so concurrent
// creations are ordered and none can pass a cap by a cent. Decisions only lower what tasks commit.
import type { CapScope } from '@concord/contract';
import type { Database, RawRepositories } from '../../repositories.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { AppError, NotFoundError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { budgetCapMail } from '../email/mail.templates.ts';
import type { CapAction, ProjectCap } from './spending-caps.repository.ts';

/** A cap that a creation or a budget raise passes (refused) or would pass (held). */
export interface CapBreach {
  scope: CapScope;
  projectId: string | null;
  capCents: number;
  /** Committed before the request. */
  committedCents: number;
  requiredCents: number;
}

export class BudgetCapReachedError extends AppError {
  constructor(readonly breach: CapBreach) {
    const which = breach.scope === 'project' ? `project ${breach.projectId}'s budget cap` : "the organisation's monthly cap";
    super(
      402,
      'BUDGET_CAP_REACHED',
      `This would pass ${which} of ${breach.capCents} cents: ${breach.committedCents} committed, ${breach.requiredCents} more required`,
      { ...breach },
    );
  }
}

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
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /**
   * In the creating transaction, once its commitment is written: holds the new tasks a holding project's
   * cap has no room for (returning their ids, which the caller does not reserve), and throws
   * BudgetCapReachedError for the first cap passed otherwise (projects in id order, then the month). The
   * rows are locked projects first, then the buyer, the order every creation takes them in.
   */
  async enforce(repos: RawRepositories, buyerId: string, added: Commitment): Promise<Set<string>> {
    const held = new Set<string>();
    for (const { projectId, capCents, capAction } of await repos.spendingCaps.lockProjectCaps(buyerId, [...added.byProject.keys()])) {
      const committed = await repos.spendingCaps.projectCommitted(projectId);
      if (committed <= capCents) continue;
      const required = added.byProject.get(projectId) ?? 0;
      const breach: CapBreach = { scope: 'project', projectId, capCents, committedCents: committed - required, requiredCents: required };
      if (capAction !== 'hold' || !added.tasks) throw new BudgetCapReachedError(breach);
      const holding = tasksToHold(added.tasks, projectId, capCents - breach.committedCents);
      await repos.spendingCaps.hold(holding);
      for (const id of holding) held.add(id);
      await this.announce(repos, buyerId, breach);
    }
    const monthly = await repos.spendingCaps.lockMonthlyCap(buyerId);
    if (monthly === null) return held;
    const committed = await repos.spendingCaps.monthCommitted(buyerId);
    const heldCents = (added.tasks ?? []).filter((task) => held.has(task.id)).reduce((sum, task) => sum + task.maxCents, 0);
    const required = added.totalCents - heldCents;
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
    const [capCents, committedCents, projects] = await Promise.all([caps.monthlyCap(buyerId), caps.monthCommitted(buyerId), caps.projectCaps(buyerId)]);
    return { monthly: { capCents, committedCents, month: this.clock.now().toISOString().slice(0, 7) }, projects };
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
  async setProjectCap(actor: Actor, projectId: string, cap: { capCents: number | null; capAction: CapAction }): Promise<ProjectCap> {
    await this.db.transaction(async (repos) => {
      const set = await repos.spendingCaps.setProjectCap(actor.organisationId, projectId, cap);
      if (!set) throw new NotFoundError('PROJECT_NOT_FOUND', 'Project not found');
      const released = await this.releaseHeld(repos, actor.organisationId, projectId, cap.capCents);
      await repos.auditLog.append(actor, {
        targetId: projectId,
        before: { budgetCapCents: set.before.capCents, capAction: set.before.capAction },
        after: { budgetCapCents: cap.capCents, capAction: cap.capAction, ...(released > 0 ? { releasedTasks: released } : {}) },
      });
    });
    const [project] = (await this.db.repos.spendingCaps.projectCaps(actor.organisationId, projectId)) as [ProjectCap];
    return project;
  }

  /** Under the project's lock: releases what fits of its held tasks; how many. */
  private async releaseHeld(repos: RawRepositories, buyerId: string, projectId: string, capCents: number | null): Promise<number> {
    const held = await repos.spendingCaps.heldTasks(projectId);
    if (held.length === 0) return 0;
    let projectRoom = capCents === null ? Infinity : capCents - (await repos.spendingCaps.projectCommitted(projectId));
    const monthly = await repos.spendingCaps.lockMonthlyCap(buyerId);
    let monthRoom = monthly === null ? Infinity : monthly - (await repos.spendingCaps.monthCommitted(buyerId));
    let available = (await repos.billing.getBalance(buyerId))?.availableCents ?? 0;
    const released: string[] = [];
    let cents = 0;
    for (const task of held) {
      const monthNeeds = task.thisMonth ? task.maxCents : 0;
      if (task.maxCents > projectRoom || monthNeeds > monthRoom || task.maxCents > available) break;
      projectRoom -= task.maxCents;
      monthRoom -= monthNeeds;
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

  /** After a refusal (its transaction rolled back): announces the cap reached, in a transaction of its own. */
  async noticeReached(buyerId: string, breach: CapBreach): Promise<void> {
    await this.db.transaction((repos) => this.announce(repos, buyerId, breach));
  }

  /**
   * budget.cap_reached and an e-mail to the members who may raise the cap, the first time this cap stops
   * work since it was set (for the monthly cap, in this month).
   */
  private async announce(repos: RawRepositories, buyerId: string, breach: CapBreach): Promise<void> {
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
