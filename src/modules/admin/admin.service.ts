import type { UnitOfWork } from '../../db/database.ts';
import type { AnnotatorsRepository } from '../annotation/annotators.repository.ts';
import type { PayoutsRepository } from '../annotation/payouts.repository.ts';
import type { AccountsRepository, BuyerRecord } from '../auth/accounts.repository.ts';
import type { BillingRepository } from '../billing/billing.repository.ts';
import type { PlatformDay, TaskStatsRepository } from '../tasks/task-stats.repository.ts';
import type { TasksRepository } from '../tasks/tasks.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayWindow } from '../../lib/day-window.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = {
  accounts: AccountsRepository;
  annotators: AnnotatorsRepository;
  billing: BillingRepository;
  payouts: PayoutsRepository;
  taskStats: TaskStatsRepository;
  tasks: TasksRepository;
};
type Db = UnitOfWork<Repos>;

export interface PlatformStats {
  buyers: number;
  developers: number;
  annotators: number;
  tasks: { PENDING: number; VALIDATING: number; COMPLETED: number; FAILED: number };
  revenueCents: number;
  pendingPayouts: { count: number; cents: number };
}

export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async listBuyers(limit: number, cursor?: string, q?: string): Promise<Page<BuyerRecord, 'buyers'>> {
    return toPage('buyers', await this.db.repos.accounts.listBuyers(pageRequest(limit, cursor), q), limit);
  }

  async stats(): Promise<PlatformStats> {
    const [roles, annotators, tasks, revenueCents, pendingPayouts] = await Promise.all([
      this.db.repos.accounts.countByRole(),
      this.db.repos.annotators.count(),
      this.db.repos.tasks.countByStatus(),
      this.db.repos.billing.totalCharged(),
      this.db.repos.payouts.pendingTotals(),
    ]);
    return { buyers: roles.BUYER, developers: roles.DEVELOPER, annotators, tasks, revenueCents, pendingPayouts };
  }

  /** Platform activity per UTC day over the last `days` days, today included, every day present. */
  async dailyStats(days: number): Promise<{ days: PlatformDay[] }> {
    return { days: await this.db.repos.taskStats.platformDaily(dayWindow(this.clock.now(), days)) };
  }
}
