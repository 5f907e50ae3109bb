import { AUDITED_ACTIONS, type AuditAction, type AuditActorKind, type AuditTargetType } from '@concord/contract';
import { Prisma } from '../../generated/prisma/client.ts';
import type { RawExecutor } from '../../db/pg-executor.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { newId } from '../../lib/ids.ts';
import type { PageRequest } from '../../lib/pagination.ts';

/** Settings, stored as JSON (a Date as its ISO text): ids, names, numbers, flags; never task content or secrets. */
export type Settings = Record<string, unknown>;

/** What one change did to its target: the settings it touched, as they were and as they became. */
export interface Change {
  /** Null for a change of several resources at once (a batch of tasks). */
  targetId: string | null;
  before?: Settings | null;
  after?: Settings | null;
}

export interface AuditEntryRecord {
  id: string;
  /** `at` under the name the keyset pages read. */
  createdAt: Date;
  actorKind: AuditActorKind;
  actorAccountId: string | null;
  actorEmail: string | null;
  actorKeyId: string | null;
  actorKeyName: string | null;
  actorKeyPrefix: string | null;
  ip: string | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string | null;
  before: Settings | null;
  after: Settings | null;
}

export interface AuditFilters {
  /** A member's account id or an API key's id. */
  actor?: string;
  action?: AuditAction;
  targetType?: AuditTargetType;
  targetId?: string;
  from?: Date;
  to?: Date;
}

/** Raw SQL only, so a change on the raw path (task creation, on the pg pool) appends in its own transaction too. */
export class AuditLogRepository {
  constructor(private readonly db: RawExecutor) {}

  /** Appends the entry of `actor`'s change: called inside the change's transaction, so neither commits alone. */
  async append(actor: Actor, change: Change): Promise<void> {
    const targetType = AUDITED_ACTIONS[actor.action];
    if (targetType === undefined) throw new Error(`${actor.action} is not an audited action`);
    await this.db.$executeRaw`
      INSERT INTO audit_log (id, buyer_id, actor_kind, actor_account_id, actor_key_id, ip, action, target_type, target_id, before, after)
      VALUES (${`aud_${newId()}`}, ${actor.organisationId}, ${actor.kind}, ${actor.accountId}, ${actor.apiKeyId}, ${actor.ip},
              ${actor.action}, ${targetType}, ${change.targetId}, ${json(change.before)}::jsonb, ${json(change.after)}::jsonb)`;
  }

  /** The organisation's entries, newest first, `page.limit + 1` of them (see toPage). */
  list(buyerId: string, filters: AuditFilters, page: PageRequest): Promise<AuditEntryRecord[]> {
    const where = [Prisma.sql`l.buyer_id = ${buyerId}`];
    if (filters.actor) where.push(Prisma.sql`(l.actor_account_id = ${filters.actor} OR l.actor_key_id = ${filters.actor})`);
    if (filters.action) where.push(Prisma.sql`l.action = ${filters.action}`);
    if (filters.targetType) where.push(Prisma.sql`l.target_type = ${filters.targetType}`);
    if (filters.targetId) where.push(Prisma.sql`l.target_id = ${filters.targetId}`);
    if (filters.from) where.push(Prisma.sql`l.at >= ${filters.from}`);
    if (filters.to) where.push(Prisma.sql`l.at < ${filters.to}`);
    if (page.after) where.push(Prisma.sql`(l.at, l.id) < (${page.after.createdAt}::timestamptz, ${page.after.id})`);
    return this.db.$queryRaw<AuditEntryRecord[]>`
      SELECT l.id, l.at AS "createdAt", l.actor_kind AS "actorKind", l.actor_account_id AS "actorAccountId", a.email AS "actorEmail",
             l.actor_key_id AS "actorKeyId", k.name AS "actorKeyName", k.prefix AS "actorKeyPrefix", l.ip, l.action,
             l.target_type AS "targetType", l.target_id AS "targetId", l.before, l.after
      FROM audit_log l
      LEFT JOIN accounts a ON a.id = l.actor_account_id
      LEFT JOIN buyer_api_keys k ON k.id = l.actor_key_id
      WHERE ${Prisma.join(where, ' AND ')}
      ORDER BY l.at DESC, l.id DESC
      LIMIT ${page.limit + 1}`;
  }

  /** Deletes entries past the retention, a batch at a time (the trigger refuses any younger one). */
  deleteExpired(retentionDays: number, batch: number): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM audit_log WHERE id IN (
        SELECT id FROM audit_log WHERE at < now() - make_interval(days => ${retentionDays}) LIMIT ${batch})`;
  }
}

/** JSON text for a jsonb parameter (null stays SQL NULL). */
const json = (settings: Settings | null | undefined): string | null => (settings == null ? null : JSON.stringify(settings));
