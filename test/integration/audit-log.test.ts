// The audit log (docs/organisations.md): every change a person, an API key or the operator makes to an
// organisation is one entry, written in the change's transaction, readable by owners and admins with
// filters and cursor pages, and never changed or deleted through the API or, before its retention, at all.
import { AUDIT_ACTIONS, AUDIT_RETENTION_DAYS, ORGANISATION_HEADER, type AuditAction } from '@concord/contract';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/app.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, invitationLinkToken, PASSWORD, uniqueEmail, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

const api = (token: string, headers: Record<string, string> = {}) => ({
  get: (path: string) => request(ctx.app).get(`/api/v1${path}`).set(bearer(token)).set(headers),
  post: (path: string, body: object = {}) => request(ctx.app).post(`/api/v1${path}`).set(bearer(token)).set(headers).send(body),
  patch: (path: string, body: object) => request(ctx.app).patch(`/api/v1${path}`).set(bearer(token)).set(headers).send(body),
  put: (path: string, body: object) => request(ctx.app).put(`/api/v1${path}`).set(bearer(token)).set(headers).send(body),
  delete: (path: string) => request(ctx.app).delete(`/api/v1${path}`).set(bearer(token)).set(headers),
});

interface Entry {
  id: string;
  at: string;
  actor: { kind: string; accountId: string | null; email: string | null; apiKeyId: string | null; apiKeyName: string | null; apiKeyPrefix: string | null };
  ip: string | null;
  action: AuditAction;
  target: { type: string; id: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function entries(token: string, query = ''): Promise<Entry[]> {
  const res = await api(token).get(`/audit-log${query}`);
  expect(res.status).toBe(200);
  return res.body.entries;
}

const expectOk = (res: request.Response, status: number) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

const SECRET = 'whsec_c2VjcmV0LWZvci10aGUtYXVkaXQtbG9nLXRlc3Q=';
const CONTENT = 'A sentence the audit log must never copy';

/** An organisation with credit, its founder the owner. */
async function fundedOrganisation(): Promise<TestBuyer> {
  const founder = await createBuyer(ctx, 'Audited Labs');
  await fundBuyer(ctx, adminToken, founder.id, 100_000);
  return founder;
}

/** A person who joined `organisation` with `role` by an invitation and a new account. */
async function joined(organisation: TestBuyer, role: 'admin' | 'member' | 'billing' | 'viewer'): Promise<TestBuyer> {
  const email = uniqueEmail(role);
  expectOk(await api(organisation.token).post('/invitations', { email, role }), 201);
  const res = await request(ctx.app)
    .post('/api/v1/invitations/accept')
    .send({ token: await invitationLinkToken(ctx, email), password: PASSWORD });
  expectOk(res, 200);
  const account = await ctx.prisma.account.findUniqueOrThrow({ where: { email } });
  return { id: account.id, email, token: res.body.token };
}

/**
 * One successful call of every audited operation, each returning the id its entry must name (null: several
 * resources at once). They run in this order on one organisation, each leaving what the next needs.
 */
function scenario(owner: TestBuyer) {
  const as = api(owner.token);
  const state: Record<string, string> = {};
  const steps: Record<AuditAction, () => Promise<string | null>> = {
    adjustBuyerCredits: async () => {
      await fundBuyer(ctx, adminToken, owner.id, 5_000);
      return owner.id;
    },
    createProject: async () => (state.project = expectOk(await as.post('/projects', { name: 'Sentiment' }), 201).id),
    updateProject: async () => expectOk(await as.patch(`/projects/${state.project}`, { targetConfidence: 0.97 }), 200).id,
    setProjectBudgetCap: async () => expectOk(await as.put(`/projects/${state.project}/budget-cap`, { capCents: 100_000 }), 200).projectId,
    setMonthlyCap: async () => {
      expectOk(await as.put('/billing/caps/monthly', { capCents: 1_000_000 }), 200);
      return owner.id;
    },
    createTask: async () =>
      (state.task = expectOk(
        await as.post('/tasks', { type: 'BINARY_CHOICE', content: CONTENT, options: ['yes', 'no'], projectId: state.project }),
        201,
      ).taskId),
    createTaskBatch: async () => {
      expectOk(await as.post('/tasks/batch', { tasks: [{ type: 'BINARY_CHOICE', content: CONTENT, options: ['yes', 'no'] }] }), 201);
      return null;
    },
    importTasksCsv: async () => {
      const res = await request(ctx.app)
        .post('/api/v1/tasks/batch/csv')
        .set(bearer(owner.token))
        .attach('file', Buffer.from(`type,content,options\nBINARY_CHOICE,${CONTENT},yes|no\n`), { filename: 'tasks.csv', contentType: 'text/csv' });
      expectOk(res, 201);
      return null;
    },
    updateTask: async () => expectOk(await as.patch(`/tasks/${state.task}`, { maxCents: 40 }), 200).id,
    rejectTaskResult: async () => {
      // Decided in the database: the answer path's own decisions are the result review test's.
      const id = expectOk(await as.post('/tasks', { type: 'BINARY_CHOICE', content: CONTENT, options: ['yes', 'no'] }), 201).taskId;
      await ctx.prisma.task.update({ where: { id }, data: { status: 'COMPLETED', result: 'yes', confidence: 0.97, validatedAt: new Date() } });
      return expectOk(await as.post(`/tasks/${id}/reject`, { reason: 'Wrong' }), 200).id;
    },
    deleteTask: async () => {
      expectOk(await as.delete(`/tasks/${state.task}`), 204);
      return state.task as string;
    },
    deleteProject: async () => {
      const project = expectOk(await as.post('/projects', { name: 'Short-lived' }), 201).id;
      expectOk(await as.delete(`/projects/${project}`), 204);
      return project;
    },
    createGoldenTask: async () =>
      (state.golden = expectOk(
        await as.post('/golden-tasks', { type: 'BINARY_CHOICE', content: CONTENT, options: ['yes', 'no'], goldenAnswer: 'yes' }),
        201,
      ).id),
    deleteGoldenTask: async () => {
      expectOk(await as.delete(`/golden-tasks/${state.golden}`), 204);
      return state.golden as string;
    },
    createWebhookConfig: async () =>
      (state.webhook = expectOk(await as.post('/webhooks/configs', { url: 'http://127.0.0.1:9/hook', events: ['task.completed'], secret: SECRET }), 201).id),
    updateWebhookConfig: async () => expectOk(await as.patch(`/webhooks/configs/${state.webhook}`, { events: ['task.completed', 'task.failed'] }), 200).id,
    rotateWebhookSecret: async () =>
      expectOk(await as.post(`/webhooks/configs/${state.webhook}/rotate-secret`, { secret: `${SECRET.slice(0, -4)}AAA=` }), 200).id,
    sendWebhookTest: async () => {
      expectOk(await as.post(`/webhooks/configs/${state.webhook}/test`), 200);
      return state.webhook as string;
    },
    redeliverWebhookDelivery: async () => {
      const [delivery] = expectOk(await as.get(`/webhooks/configs/${state.webhook}/deliveries`), 200).deliveries;
      expectOk(await as.post(`/webhooks/deliveries/${delivery.id}/redeliver`), 202);
      return delivery.id;
    },
    deleteWebhookConfig: async () => {
      expectOk(await as.delete(`/webhooks/configs/${state.webhook}`), 204);
      return state.webhook as string;
    },
    createDeposit: async () => expectOk(await as.post('/billing/deposits', { amountCents: 50_000, method: 'card' }), 201).id,
    createApiKey: async () => (state.key = expectOk(await as.post('/api-keys', { name: 'CI' }), 201).apiKey.id),
    revokeApiKey: async () => {
      expectOk(await as.delete(`/api-keys/${state.key}`), 204);
      return state.key as string;
    },
    createInvitation: async () =>
      (state.invitation = expectOk(await as.post('/invitations', { email: uniqueEmail('later'), role: 'viewer' }), 201).invitation.id),
    revokeInvitation: async () => {
      expectOk(await as.delete(`/invitations/${state.invitation}`), 204);
      return state.invitation as string;
    },
    acceptInvitation: async () => (state.member = (await joined(owner, 'member')).id),
    updateMember: async () => expectOk(await as.patch(`/members/${state.member}`, { role: 'viewer' }), 200).accountId,
    deleteMember: async () => {
      expectOk(await as.delete(`/members/${state.member}`), 204);
      return state.member as string;
    },
  };
  return steps;
}

describe('what the audit log records', () => {
  it('audits exactly the buyer routes that change something, the acceptance of an invitation and the operator’s adjustment', async () => {
    const endpoints = allEndpoints(ctx.services);
    const changing = endpoints.filter((e) => e.access === 'buyer' && e.method !== 'get').map((e) => e.operationId);
    expect([...changing, 'acceptInvitation', 'adjustBuyerCredits'].sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(Object.keys(scenario({ id: '', email: '', token: '' })).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('writes one entry per change, naming the operation, its target, the person and their address', { timeout: 60_000 }, async () => {
    const owner = await fundedOrganisation();
    for (const [action, step] of Object.entries(scenario(owner)) as Array<[AuditAction, () => Promise<string | null>]>) {
      const before = await ctx.prisma.auditLogEntry.count({ where: { buyerId: owner.id } });
      const targetId = await step();
      const written = await entries(owner.token, `?action=${action}&limit=1`);
      expect(written, action).toHaveLength(1);
      expect(written[0], action).toMatchObject({ action, target: { id: targetId } });
      // Three steps make what they then change: the invitation accepted, the project deleted, the task whose result is rejected.
      const added = (await ctx.prisma.auditLogEntry.count({ where: { buyerId: owner.id } })) - before;
      expect(added, action).toBe(['acceptInvitation', 'deleteProject', 'rejectTaskResult'].includes(action) ? 2 : 1);
    }
    const log = await entries(owner.token, '?limit=100');
    const byAction = (action: AuditAction) => log.find((entry) => entry.action === action) as Entry;
    expect(byAction('updateProject')).toMatchObject({
      actor: { kind: 'member', accountId: owner.id, email: owner.email, apiKeyId: null },
      ip: '127.0.0.1',
      target: { type: 'project' },
      before: { targetConfidence: null },
      after: { targetConfidence: 0.97 },
    });
    expect(byAction('adjustBuyerCredits')).toMatchObject({ actor: { kind: 'admin' }, after: { amountCents: 5_000, reason: 'test funding' } });
    expect(byAction('updateTask')).toMatchObject({ before: { maxCents: 20 }, after: { maxCents: 40 } });
    expect(byAction('createTaskBatch')).toMatchObject({ target: { type: 'tasks', id: null }, after: { created: 1, totalCostCents: 20, projectIds: [] } });
    expect(byAction('importTasksCsv')).toMatchObject({ after: { created: 1, skippedRows: 0 } });
    expect(byAction('updateWebhookConfig')).toEqual(
      expect.objectContaining({ before: { events: ['task.completed'] }, after: { events: ['task.completed', 'task.failed'] } }),
    );
    expect(byAction('setProjectBudgetCap')).toMatchObject({ before: { budgetCapCents: null }, after: { budgetCapCents: 100_000 } });
    expect(byAction('setMonthlyCap')).toMatchObject({ target: { type: 'organisation', id: owner.id }, after: { monthlyCapCents: 1_000_000 } });
    expect(byAction('updateMember')).toMatchObject({ before: { role: 'member' }, after: { role: 'viewer' } });
    expect(byAction('acceptInvitation').actor.kind).toBe('member');
    // Settings only: no task content and no secret is ever copied.
    const text = JSON.stringify(log);
    expect(text).not.toContain(CONTENT);
    expect(text).not.toContain(SECRET.slice(6, 30));
  });

  it('keeps a webhook URL without the credentials or query string it may carry', async () => {
    const owner = await createBuyer(ctx);
    const hook = await api(owner.token).post('/webhooks/configs', {
      url: 'http://ci:hunter2@127.0.0.1:9/hook?token=abc123#x',
      events: ['task.failed'],
      secret: SECRET,
    });
    expect(hook.status).toBe(201);
    const [entry] = await entries(owner.token, `?target=${hook.body.id}`);
    expect(entry?.after).toMatchObject({ url: 'http://127.0.0.1:9/hook' });
    expect(JSON.stringify(entry)).not.toMatch(/hunter2|abc123/);
  });

  it('names an API key as the actor when a key made the change', async () => {
    const owner = await fundedOrganisation();
    const key = expectOk(await api(owner.token).post('/api-keys', { name: 'Nightly import' }), 201).apiKey;
    const project = expectOk(await api(key.secret).post('/projects', { name: 'From CI' }), 201);
    const [entry] = await entries(owner.token, `?target=${project.id}`);
    expect(entry?.actor).toEqual({ kind: 'apiKey', accountId: null, email: null, apiKeyId: key.id, apiKeyName: 'Nightly import', apiKeyPrefix: key.prefix });
    expect((await entries(owner.token, `?actor=${key.id}`)).map((e) => e.action)).toEqual(['createProject']);
  });

  it('writes nothing for a change that was refused, and nothing again for a replayed Idempotency-Key', async () => {
    const owner = await createBuyer(ctx);
    await fundBuyer(ctx, adminToken, owner.id, 1_000);
    const as = api(owner.token);
    const project = expectOk(await as.post('/projects', { name: 'Has tasks' }), 201);
    expectOk(await as.post('/tasks', { type: 'BINARY_CHOICE', content: 'Kept', options: ['a', 'b'], projectId: project.id }), 201);
    const count = () => ctx.prisma.auditLogEntry.count({ where: { buyerId: owner.id } });
    const before = await count();
    expect((await as.delete(`/projects/${project.id}`)).body.code).toBe('PROJECT_HAS_TASKS');
    expect((await as.patch('/projects/nothing-here', { name: 'x' })).status).toBe(404);
    expect((await as.post('/tasks', { type: 'BINARY_CHOICE', content: 'Too dear', options: ['a', 'b'], maxCents: 5_000 })).body.code).toBe(
      'INSUFFICIENT_CREDITS',
    );
    expect(await count()).toBe(before);
    const replay = () => as.post('/tasks', { type: 'BINARY_CHOICE', content: 'Once', options: ['a', 'b'] }).set('Idempotency-Key', 'audit-once');
    expect((await replay()).status).toBe(201);
    expect((await replay()).status).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});

describe('reading the audit log', () => {
  it('is for owners and admins: members, billing, viewers and API keys get 403 naming audit:read', async () => {
    const owner = await fundedOrganisation();
    const admin = await joined(owner, 'admin');
    expect((await api(admin.token).get('/audit-log')).status).toBe(200);
    for (const role of ['member', 'billing', 'viewer'] as const) {
      const person = await joined(owner, role);
      const res = await api(person.token).get('/audit-log');
      expect(res.status).toBe(403);
      expect(res.body.details).toEqual({ permission: 'audit:read', role });
    }
    const key = expectOk(await api(owner.token).post('/api-keys', { name: 'Reader' }), 201).apiKey;
    expect((await api(key.secret).get('/audit-log')).body.details).toEqual({ permission: 'audit:read', role: 'write key' });
  });

  it('shows an organisation its own entries only, whoever reads it', async () => {
    const first = await fundedOrganisation();
    const second = await fundedOrganisation();
    const mine = expectOk(await api(first.token).post('/projects', { name: 'Mine' }), 201);
    expect((await entries(second.token)).some((entry) => entry.target.id === mine.id)).toBe(false);
    // The founder of `second` made an admin of `first` reads `first`'s log only with the header naming it.
    const email = second.email;
    expectOk(await api(first.token).post('/invitations', { email, role: 'admin' }), 201);
    expectOk(
      await request(ctx.app)
        .post('/api/v1/invitations/accept')
        .send({ token: await invitationLinkToken(ctx, email) }),
      200,
    );
    const asFirst = await api(second.token, { [ORGANISATION_HEADER]: first.id }).get('/audit-log');
    expect(asFirst.body.entries.some((entry: Entry) => entry.target.id === mine.id)).toBe(true);
  });

  it('filters by action, actor, target and time, newest first, in cursor pages', async () => {
    const owner = await fundedOrganisation();
    const as = api(owner.token);
    const projects: string[] = [];
    for (let i = 0; i < 5; i++) projects.push(expectOk(await as.post('/projects', { name: `P${i}` }), 201).id);
    expectOk(await as.patch(`/projects/${projects[0]}`, { name: 'Renamed' }), 200);

    const created = await entries(owner.token, '?action=createProject');
    expect(created.map((entry) => entry.target.id)).toEqual([...projects].reverse());
    expect((await entries(owner.token, `?target=${projects[0]}`)).map((entry) => entry.action)).toEqual(['updateProject', 'createProject']);
    expect((await entries(owner.token, `?actor=${owner.id}&targetType=project`)).length).toBe(6);
    expect((await entries(owner.token, '?targetType=webhook')).length).toBe(0);

    const renamed = (await entries(owner.token, '?action=updateProject'))[0] as Entry;
    expect(renamed).toMatchObject({ before: { name: 'P0' }, after: { name: 'Renamed' } });
    const at = new Date(renamed.at).getTime();
    expect((await entries(owner.token, `?from=${new Date(at).toISOString()}&action=updateProject`)).length).toBe(1);
    expect((await entries(owner.token, `?to=${new Date(at).toISOString()}&action=updateProject`)).length).toBe(0);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await as.get(`/audit-log?action=createProject&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.entries.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.entries.map((entry: Entry) => entry.target.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...projects].reverse());
  });

  it('refuses a filter it does not know, a range that ends before it starts and a cursor it did not make', async () => {
    const owner = await createBuyer(ctx);
    const as = api(owner.token);
    for (const query of ['?action=dropTables', '?targetType=planet', '?from=yesterday', '?colour=red', '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z']) {
      const res = await as.get(`/audit-log${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('VALIDATION_ERROR');
    }
    expect((await as.get('/audit-log?cursor=bm90LW91cnM')).body.code).toBe('INVALID_CURSOR');
  });
});

describe('an append-only log', () => {
  it('offers no route that changes or deletes an entry', () => {
    const routes = allEndpoints(ctx.services).filter((endpoint) => endpoint.path.startsWith('/audit-log'));
    expect(routes.map((endpoint) => endpoint.method)).toEqual(['get']);
  });

  it('refuses UPDATE, TRUNCATE and the DELETE of an entry younger than the retention, in the database itself', async () => {
    const owner = await createBuyer(ctx);
    expectOk(await api(owner.token).post('/projects', { name: 'Audited' }), 201);
    const entry = await ctx.prisma.auditLogEntry.findFirstOrThrow({ where: { buyerId: owner.id } });
    await expect(ctx.prisma.$executeRaw`UPDATE audit_log SET action = 'deleteProject' WHERE id = ${entry.id}`).rejects.toThrow(/append-only/);
    await expect(ctx.prisma.$executeRaw`DELETE FROM audit_log WHERE id = ${entry.id}`).rejects.toThrow(/append-only/);
    await expect(ctx.prisma.$executeRaw`TRUNCATE audit_log`).rejects.toThrow(/append-only/);
    expect(await ctx.prisma.auditLogEntry.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);
  });

  it('lets the retention sweep delete what is older than the retention, and nothing younger', async () => {
    const owner = await createBuyer(ctx);
    const day = 24 * 3600 * 1000;
    const row = (id: string, ageDays: number) => ({
      id,
      buyerId: owner.id,
      at: new Date(Date.now() - ageDays * day),
      actorKind: 'member',
      actorAccountId: owner.id,
      action: 'createProject',
      targetType: 'project',
    });
    await ctx.prisma.auditLogEntry.createMany({
      data: [row(`aud_old_${owner.id}`, AUDIT_RETENTION_DAYS + 1), row(`aud_year_${owner.id}`, 366), row(`aud_new_${owner.id}`, 1)],
    });
    await ctx.services.audit.sweepExpired();
    const left = await ctx.prisma.auditLogEntry.findMany({ where: { buyerId: owner.id }, select: { id: true } });
    expect(left.map((entry) => entry.id).sort()).toEqual([`aud_new_${owner.id}`, `aud_year_${owner.id}`]);
  });
});
