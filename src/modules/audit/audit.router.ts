// The audit log: every change a person or an API key made to the organisation, newest first. Read-only:
// no route changes or deletes an entry, and the database refuses it too (docs/organisations.md).
import { defineEndpoint } from '../../lib/endpoint.ts';
import type { AuditEntryRecord } from './audit.repository.ts';
import { auditExamples } from './audit.examples.ts';
import { listAuditLogQuery, listAuditLogResponse } from './audit.schemas.ts';
import type { AuditService } from './audit.service.ts';

const presentEntry = (entry: AuditEntryRecord) => ({
  id: entry.id,
  at: entry.createdAt.toISOString(),
  actor: {
    kind: entry.actorKind,
    accountId: entry.actorAccountId,
    email: entry.actorEmail,
    apiKeyId: entry.actorKeyId,
    apiKeyName: entry.actorKeyName,
    apiKeyPrefix: entry.actorKeyPrefix,
  },
  ip: entry.ip,
  action: entry.action,
  target: { type: entry.targetType, id: entry.targetId },
  before: entry.before,
  after: entry.after,
});

export function auditEndpoints({ audit }: { audit: AuditService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/audit-log',
      operationId: 'listAuditLog',
      examples: auditExamples.listAuditLog,
      tag: 'Organisations',
      summary: 'Every change made to the organisation, by whom, from where, with the settings before and after (newest first)',
      access: 'buyer',
      permission: 'audit:read',
      query: listAuditLogQuery,
      response: listAuditLogResponse,
      handler: async ({ principal, query }) => {
        const { limit, cursor, target, ...filters } = query;
        const page = await audit.list(principal.buyerId, { ...filters, targetId: target }, limit, cursor);
        return { ...page, entries: page.entries.map(presentEntry) };
      },
    }),
  ];
}
