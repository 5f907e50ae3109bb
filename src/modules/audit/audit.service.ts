import { AUDIT_RETENTION_DAYS } from '@concord/contract';
import type { Database } from '../../repositories.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import type { AuditEntryRecord, AuditFilters } from './audit.repository.ts';

/** Entries the retention sweep deletes per statement, so one sweep never holds a long lock. */
const SWEEP_BATCH = 5_000;

export class AuditService {
  constructor(private readonly db: Database) {}

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
