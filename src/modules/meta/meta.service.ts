// What a client (the dashboard, before anyone logs in) may know about how this service runs: its
// environment, payments, prices and thresholds, and in development where the local admin's
// credentials are. Never a secret: the local admin's password stays in its file.
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AccountsRepository } from '../auth/accounts.repository.ts';
import { LOCAL_ADMIN_EMAIL, localAdminFile } from '../auth/auth.service.ts';
import { LOW_BALANCE_THRESHOLD_CENTS } from '@concord/contract';
import { DEPOSIT_BONUS_TIERS } from '@concord/contract';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { accounts: AccountsRepository };
type Db = UnitOfWork<Repos>;

export interface ServiceMeta {
  environment: Config['env'];
  paymentProvider: Config['paymentProvider'];
  priceCents: number;
  defaultTargetConfidence: number;
  lowBalanceThresholdCents: number;
  depositBonusTiers: Array<{ minCents: number; percent: number }>;
  localAdmin: { email: string; file: string } | null;
}

export class MetaService {
  /** Once the local admin has been seen it stays (nothing deletes an admin), so it is looked up until then only. */
  private localAdminSeen = false;

  constructor(
    private readonly config: Config,
    private readonly db: Db,
  ) {}

  async describe(): Promise<ServiceMeta> {
    return {
      environment: this.config.env,
      paymentProvider: this.config.paymentProvider,
      priceCents: this.config.priceCents,
      defaultTargetConfidence: this.config.consensusThreshold,
      lowBalanceThresholdCents: LOW_BALANCE_THRESHOLD_CENTS,
      depositBonusTiers: DEPOSIT_BONUS_TIERS.map(({ minCents, percent }) => ({ minCents, percent })),
      localAdmin: (await this.hasLocalAdmin()) ? { email: LOCAL_ADMIN_EMAIL, file: localAdminFile(this.config.dataDir) } : null,
    };
  }

  /**
   * contract §1: only in development without ADMIN_EMAIL/ADMIN_PASSWORD does start-up create the local
   * admin; it exists once its account does.
   */
  private async hasLocalAdmin(): Promise<boolean> {
    if (this.config.env !== 'development' || this.config.admin) return false;
    if (!this.localAdminSeen) this.localAdminSeen = (await this.db.repos.accounts.findByEmail(LOCAL_ADMIN_EMAIL))?.role === 'ADMIN';
    return this.localAdminSeen;
  }
}
