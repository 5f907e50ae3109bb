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
import type { ProjectCap } from './spending-caps.repository.ts';

/** A cap that a creation or a budget raise would pass. */
export interface CapBreach {
  scope: CapScope;
  projectId: string | null;
  capCents: number;
  /** Committed before the refused request. */
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

/** What a request adds to the caps: per project, and in all (the month's). */
export interface Commitment {
  byProject: ReadonlyMap<string, number>;
  totalCents: number;
}

/** The commitment of new tasks (their budgets), per project. */
export function commitmentOf(tasks: ReadonlyArray<{ projectId: string | null; maxCents: number }>): Commitment {
  const byProject = new Map<string, number>();
  let totalCents = 0;
  for (const task of tasks) {
    totalCents += task.maxCents;
    if (task.projectId !== null) byProject.set(task.projectId, (byProject.get(task.projectId) ?? 0) + task.maxCents);
  }
  return { byProject, totalCents };
}

/**
 * In the creating transaction, once its commitment is written: throws BudgetCapReachedError for the first
 * cap now passed (projects in id order, then the month). The rows are locked projects first, then the
 * buyer, the order every creation takes them in.
 */
export async function enforceCaps(repos: RawRepositories, buyerId: string, added: Commitment): Promise<void> {
  for (const { projectId, capCents } of await repos.spendingCaps.lockProjectCaps(buyerId, [...added.byProject.keys()])) {
    const committed = await repos.spendingCaps.projectCommitted(projectId);
    const required = added.byProject.get(projectId) ?? 0;
    if (committed > capCents)
      throw new BudgetCapReachedError({ scope: 'project', projectId, capCents, committedCents: committed - required, requiredCents: required });
  }
  const monthly = await repos.spendingCaps.lockMonthlyCap(buyerId);
  if (monthly === null) return;
  const committed = await repos.spendingCaps.monthCommitted(buyerId);
  if (committed > monthly)
    throw new BudgetCapReachedError({
      scope: 'organisation',
      projectId: null,
      capCents: monthly,
      committedCents: committed - added.totalCents,
      requiredCents: added.totalCents,
    });
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

  async setProjectCap(actor: Actor, projectId: string, capCents: number | null): Promise<ProjectCap> {
    const name = await this.db.transaction(async (repos) => {
      const set = await repos.spendingCaps.setProjectCap(actor.organisationId, projectId, capCents);
      if (!set) throw new NotFoundError('PROJECT_NOT_FOUND', 'Project not found');
      await repos.auditLog.append(actor, { targetId: projectId, before: { budgetCapCents: set.before }, after: { budgetCapCents: capCents } });
      return set.name;
    });
    return { projectId, name, capCents, committedCents: await this.db.repos.spendingCaps.projectCommitted(projectId) };
  }

  /**
   * After a refusal (its transaction rolled back): budget.cap_reached and an e-mail to the members who may
   * raise the cap, the first time this cap refuses since it was set (for the monthly cap, in this month).
   */
  async noticeReached(buyerId: string, breach: CapBreach): Promise<void> {
    await this.db.transaction(async (repos) => {
      const first =
        breach.scope === 'project' && breach.projectId !== null
          ? await repos.spendingCaps.markProjectCapReached(breach.projectId, breach.capCents)
          : await repos.spendingCaps.markMonthlyCapReached(buyerId, breach.capCents);
      if (!first) return;
      const at = this.clock.now();
      await repos.events.record(buyerId, 'budget.cap_reached', { ...breach, at: at.toISOString() });
      const recipients = await repos.accounts.findBuyerRecipients(buyerId, 'money:write');
      const projectName = breach.projectId === null ? null : await repos.spendingCaps.projectName(breach.projectId);
      for (const email of recipients?.emails ?? [])
        await repos.mail.enqueue(budgetCapMail(email, recipients?.companyName ?? '', { ...breach, projectName }, this.publicUrl));
    });
  }
}
