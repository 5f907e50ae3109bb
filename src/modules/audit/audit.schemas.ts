import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_TARGET_TYPES } from '@concord/contract';
import { z } from 'zod';
import { cursorSchema, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';

const instant = (description: string) =>
  z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .optional()
    .meta({ description });

export const listAuditLogQuery = z
  .strictObject({
    actor: z.string().min(1).max(64).optional().meta({ description: "A member's account id or an API key's id: the changes they made" }),
    action: z.enum(AUDIT_ACTIONS).optional().meta({ description: 'The operation (its operationId), e.g. `updateProject`' }),
    targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
    target: z.string().min(1).max(64).optional().meta({ description: "The changed resource's id (a project, task, key, member…)" }),
    from: instant('ISO 8601 timestamp: entries at or after it'),
    to: instant('ISO 8601 timestamp: entries before it'),
    limit: limitSchema,
    cursor: cursorSchema,
  })
  .refine((query) => !query.from || !query.to || query.from < query.to, { error: 'from must be before to', path: ['to'] });

const settings = z.record(z.string(), z.unknown()).nullable();

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: timestamp,
    actor: z
      .object({
        kind: z
          .enum(AUDIT_ACTOR_KINDS)
          .meta({ description: "`member`: a person of the organisation; `apiKey`: one of its keys; `admin`: the service's operator" }),
        accountId: z.string().nullable(),
        email: z.string().nullable().meta({ description: "The person's e-mail (null for a key)" }),
        apiKeyId: z.string().nullable(),
        apiKeyName: z.string().nullable(),
        apiKeyPrefix: z.string().nullable().meta({ description: "The key's visible prefix, as the key list shows it" }),
      })
      .meta({ id: 'AuditActor' }),
    ip: z.string().nullable().meta({ description: "The caller's address (behind TRUST_PROXY, the client's)" }),
    action: z.enum(AUDIT_ACTIONS).meta({ description: 'The operation (its operationId)' }),
    target: z.object({
      type: z.enum(AUDIT_TARGET_TYPES),
      id: z.string().nullable().meta({ description: 'Null for several resources at once (a batch of tasks)' }),
    }),
    before: settings.meta({ description: 'The settings the change touched, as they were (null for a creation); never task content or secrets' }),
    after: settings.meta({ description: 'The settings as the change left them (null for a deletion)' }),
  })
  .meta({ id: 'AuditEntry' });

export const listAuditLogResponse = z.object({ entries: z.array(auditEntrySchema), ...pageInfo });
