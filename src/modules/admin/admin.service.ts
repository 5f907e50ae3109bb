import type { Database } from '../../repositories.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayWindow } from '../../lib/day-window.ts';
import type { PlatformDay } from '../tasks/task-stats.repository.ts';
import type { BuyerRecord } from '../auth/accounts.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

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
    private readonly db: Database,
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
