import { AUDIT_RETENTION_DAYS } from '@concord/contract';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditEntryRecord, AuditFilters, AuditLogRepository } from './audit.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository };
type Db = UnitOfWork<Repos>;

/** Entries the retention sweep deletes per statement, so one sweep never holds a long lock. */
const SWEEP_BATCH = 5_000;

export class AuditService {
  constructor(private readonly db: Db) {}

  async list(organisationId: string, filters: AuditFilters, limit: number, cursor?: string): Promise<Page<AuditEntryRecord, 'entries'>> {
    return toPage('entries', await this.db.repos.auditLog.list(organisationId, filters, pageRequest(limit, cursor)), limit);
  }

  /** Deletes what is past the retention (AUDIT_RETENTION_DAYS; the database refuses anything younger). */
  async sweepExpired(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.db.repos.auditLog.deleteExpired(AUDIT_RETENTION_DAYS, SWEEP_BATCH);
      deleted += batch;
      if (batch < SWEEP_BATCH) return deleted;
    }
  }
}
