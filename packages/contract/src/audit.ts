// The audit log (docs/organisations.md): every change a person or an API key makes to an organisation is
// one entry, named by its operation. The service records them, the dashboard names and filters them.

/** What an entry's target is. `tasks`: several tasks created at once (a batch or a CSV import), no one id. */
export const AUDIT_TARGET_TYPES = [
  'organisation',
  'member',
  'invitation',
  'apiKey',
  'project',
  'task',
  'tasks',
  'goldenTask',
  'webhook',
  'webhookDelivery',
  'deposit',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * Every audited operation (an OpenAPI operationId) and the type of what it changes: each buyer route that
 * changes anything, an invitation's acceptance (the new member acts), and the operator's credit adjustment.
 */
export const AUDITED_ACTIONS = {
  updateMember: 'member',
  deleteMember: 'member',
  createInvitation: 'invitation',
  revokeInvitation: 'invitation',
  acceptInvitation: 'member',
  createApiKey: 'apiKey',
  revokeApiKey: 'apiKey',
  createProject: 'project',
  updateProject: 'project',
  deleteProject: 'project',
  createTask: 'task',
  createTaskBatch: 'tasks',
  importTasksCsv: 'tasks',
  updateTask: 'task',
  rejectTaskResult: 'task',
  deleteTask: 'task',
  createGoldenTask: 'goldenTask',
  deleteGoldenTask: 'goldenTask',
  createWebhookConfig: 'webhook',
  updateWebhookConfig: 'webhook',
  deleteWebhookConfig: 'webhook',
  rotateWebhookSecret: 'webhook',
  sendWebhookTest: 'webhook',
  redeliverWebhookDelivery: 'webhookDelivery',
  createDeposit: 'deposit',
  setMonthlyCap: 'organisation',
  setProjectBudgetCap: 'project',
  adjustBuyerCredits: 'organisation',
} as const satisfies Record<string, AuditTargetType>;
export type AuditAction = keyof typeof AUDITED_ACTIONS;
export const AUDIT_ACTIONS = Object.keys(AUDITED_ACTIONS) as AuditAction[];

export const isAuditAction = (name: string): name is AuditAction => Object.hasOwn(AUDITED_ACTIONS, name);

/** Who made a change: a person of the organisation, one of its API keys, or the service's operator. */
export const AUDIT_ACTOR_KINDS = ['member', 'apiKey', 'admin'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** An entry is kept at least this long: the database refuses to delete a younger one (more than the year promised). */
export const AUDIT_RETENTION_DAYS = 400;
