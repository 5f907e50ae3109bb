// The audit log's words: every action the contract audits has a label (and every target type a noun),
// an actor reads as a person, a key or Concord's operator, a target by what its entry records of it.
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, AUDITED_ACTIONS } from '@concord/contract';
import { describe, expect, it } from 'vitest';
import {
  ACTION_LABELS,
  ACTION_OPTIONS,
  actorText,
  describeActor,
  OPERATOR,
  recordedNames,
  TARGET_TYPE_LABELS,
  TARGET_TYPE_OPTIONS,
  targetName,
  targetPath,
  type AuditActor,
  type AuditEntry,
} from './auditWords';

const member: AuditActor = { kind: 'member', accountId: 'acc_1', email: 'ml-ops@acme.example', apiKeyId: null, apiKeyName: null, apiKeyPrefix: null };
const apiKey: AuditActor = {
  kind: 'apiKey',
  accountId: null,
  email: null,
  apiKeyId: 'key_1',
  apiKeyName: 'Production ingest',
  apiKeyPrefix: 'cnc_test_4fQx9',
};
const operator: AuditActor = { kind: 'admin', accountId: 'adm_1', email: 'ops@concord.example', apiKeyId: null, apiKeyName: null, apiKeyPrefix: null };

const entry = (fields: Partial<AuditEntry> & Pick<AuditEntry, 'action'>): AuditEntry => ({
  id: 'aud_1',
  at: '2026-03-15T16:02:11.047Z',
  actor: member,
  ip: '203.0.113.24',
  target: { type: AUDITED_ACTIONS[fields.action], id: 'res_1' },
  before: null,
  after: null,
  ...fields,
});

describe('ACTION_LABELS', () => {
  it('labels every audited action, each differently, as a sentence', () => {
    const labels = AUDIT_ACTIONS.map((action) => ACTION_LABELS[action]);
    for (const [index, action] of AUDIT_ACTIONS.entries()) {
      const label = labels[index] ?? '';
      expect(label, action).toMatch(/^[A-Z]/);
      expect(label, action).not.toContain(action);
    }
    expect(new Set(labels).size).toBe(AUDIT_ACTIONS.length);
    // No label for an action the contract does not audit.
    expect(Object.keys(ACTION_LABELS).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('says what happened in words', () => {
    expect(ACTION_LABELS.updateProject).toBe('Changed project');
    expect(ACTION_LABELS.createTaskBatch).toBe('Created tasks in a batch');
    expect(ACTION_LABELS.acceptInvitation).toBe('Joined through an invitation');
    expect(ACTION_LABELS.adjustBuyerCredits).toBe('Adjusted the credit balance');
  });

  it('offers every action to the filter, labelled, in the contract order', () => {
    expect(ACTION_OPTIONS.map((option) => option.value)).toEqual(AUDIT_ACTIONS);
    expect(ACTION_OPTIONS[0]).toEqual({ value: 'updateMember', label: 'Changed a member’s role' });
  });
});

describe('TARGET_TYPE_LABELS', () => {
  it('names every target type, and every action’s target type is one of them', () => {
    expect(TARGET_TYPE_OPTIONS.map((option) => option.value)).toEqual(AUDIT_TARGET_TYPES);
    for (const type of AUDIT_TARGET_TYPES) expect(TARGET_TYPE_LABELS[type], type).toMatch(/^[A-Z]/);
    for (const action of AUDIT_ACTIONS) expect(TARGET_TYPE_LABELS[AUDITED_ACTIONS[action]], action).toBeDefined();
    expect(TARGET_TYPE_LABELS.apiKey).toBe('API key');
  });
});

describe('describeActor', () => {
  it('names a member by e-mail, with the account id the filter takes', () => {
    expect(describeActor(member)).toEqual({ name: 'ml-ops@acme.example', kind: 'Member', id: 'acc_1' });
    expect(actorText(member)).toBe('ml-ops@acme.example');
  });

  it('names an API key by its name and prefix, with its id', () => {
    expect(describeActor(apiKey)).toEqual({ name: 'Production ingest', kind: 'API key', detail: 'cnc_test_4fQx9…', id: 'key_1' });
    expect(actorText(apiKey)).toBe('Production ingest (API key cnc_test_4fQx9…)');
  });

  it('calls the service’s operator Concord operator, whoever the administrator was', () => {
    expect(describeActor(operator)).toEqual({ name: OPERATOR, kind: 'Concord' });
    expect(actorText(operator)).toBe('Concord operator');
  });

  it('still says something when the entry lost a name', () => {
    expect(describeActor({ ...member, email: null }).name).toBe('A former member');
    expect(actorText({ ...apiKey, apiKeyName: null, apiKeyPrefix: null })).toBe('An API key (API key)');
  });
});

describe('targetName', () => {
  it('names a project or a key by its name, from after or, for a deletion, before', () => {
    expect(targetName(entry({ action: 'createProject', after: { name: 'Search relevance' } }))).toBe('Search relevance');
    expect(targetName(entry({ action: 'deleteProject', before: { name: 'Old' } }))).toBe('Old');
    expect(targetName(entry({ action: 'revokeApiKey', before: { name: 'CI', prefix: 'cnc_live_x' } }))).toBe('CI');
  });

  it('names members and invitations by e-mail, webhooks by URL', () => {
    expect(
      targetName(entry({ action: 'updateMember', before: { email: 'a@b.example', role: 'member' }, after: { email: 'a@b.example', role: 'admin' } })),
    ).toBe('a@b.example');
    expect(targetName(entry({ action: 'createWebhookConfig', after: { url: 'https://hooks.example/x' } }))).toBe('https://hooks.example/x');
  });

  it('counts a batch, and gives amounts, signed for an adjustment', () => {
    expect(targetName(entry({ action: 'createTaskBatch', target: { type: 'tasks', id: null }, after: { created: 250 } }))).toBe('250 tasks');
    expect(targetName(entry({ action: 'importTasksCsv', target: { type: 'tasks', id: null }, after: { created: 1 } }))).toBe('1 task');
    expect(targetName(entry({ action: 'createDeposit', after: { amountCents: 25_000 } }))).toBe('$250.00');
    expect(targetName(entry({ action: 'adjustBuyerCredits', after: { amountCents: 5_000 } }))).toBe('+$50.00');
    expect(targetName(entry({ action: 'adjustBuyerCredits', after: { amountCents: -1_050 } }))).toBe('−$10.50');
  });

  it('has no name for what the log records no name of', () => {
    expect(targetName(entry({ action: 'updateTask', before: { maxCents: 10 }, after: { maxCents: 20 } }))).toBeUndefined();
    expect(targetName(entry({ action: 'createProject', after: { name: '' } }))).toBeUndefined();
    // An organisation is named by an amount for the operator's adjustment only (not for a cap's change).
    expect(targetName(entry({ action: 'updateProject', target: { type: 'organisation', id: 'org1' }, after: { amountCents: 100 } }))).toBeUndefined();
  });
});

describe('targetPath', () => {
  it('links a project, a task, a webhook and a deposit to their pages', () => {
    expect(targetPath(entry({ action: 'updateProject', target: { type: 'project', id: 'p1' }, after: {} }))).toBe('/projects/p1');
    expect(targetPath(entry({ action: 'createTask', target: { type: 'task', id: 't1' }, after: {} }))).toBe('/tasks?task=t1');
    expect(targetPath(entry({ action: 'updateWebhookConfig', target: { type: 'webhook', id: 'w1' }, after: {} }))).toBe('/webhooks/w1');
    expect(targetPath(entry({ action: 'createDeposit', target: { type: 'deposit', id: 'd1' }, after: {} }))).toBe('/billing/deposits/d1');
  });

  it('links members, keys and golden tasks to their lists, a one-project batch to its tasks', () => {
    expect(targetPath(entry({ action: 'updateMember', after: {} }))).toBe('/members');
    expect(targetPath(entry({ action: 'createApiKey', after: {} }))).toBe('/api-keys');
    expect(targetPath(entry({ action: 'createGoldenTask', after: {} }))).toBe('/golden-tasks');
    expect(targetPath(entry({ action: 'createTaskBatch', target: { type: 'tasks', id: null }, after: { projectIds: ['p1'] } }))).toBe('/tasks?projectId=p1');
    expect(targetPath(entry({ action: 'createTaskBatch', target: { type: 'tasks', id: null }, after: { projectIds: ['p1', 'p2'] } }))).toBe('/tasks');
  });

  it('links nowhere for a deletion or what has no page', () => {
    expect(targetPath(entry({ action: 'deleteProject', target: { type: 'project', id: 'p1' }, before: { name: 'x' } }))).toBeUndefined();
    expect(targetPath(entry({ action: 'revokeApiKey', before: { name: 'x' } }))).toBeUndefined();
    expect(targetPath(entry({ action: 'redeliverWebhookDelivery', after: { outcome: 'queued' } }))).toBeUndefined();
  });
});

describe('recordedNames', () => {
  it('names a target by the newest entry that records its name, for the entries that do not', () => {
    const entries = [
      entry({ action: 'updateProject', target: { type: 'project', id: 'p1' }, before: { maxResponses: 5 }, after: { maxResponses: 7 } }),
      entry({ action: 'updateProject', target: { type: 'project', id: 'p1' }, before: { name: 'Pilot' }, after: { name: 'Contract clauses' } }),
      entry({ action: 'createProject', target: { type: 'project', id: 'p1' }, after: { name: 'Pilot' } }),
      entry({ action: 'createApiKey', target: { type: 'apiKey', id: 'k1' }, after: { name: 'Deploy bot' } }),
      entry({ action: 'adjustBuyerCredits', target: { type: 'organisation', id: 'org1' }, after: { amountCents: 500 } }),
      entry({ action: 'createTaskBatch', target: { type: 'tasks', id: null }, after: { created: 3 } }),
    ];
    expect(recordedNames(entries)).toEqual(
      new Map([
        ['p1', 'Contract clauses'],
        ['k1', 'Deploy bot'],
      ]),
    );
  });
});
