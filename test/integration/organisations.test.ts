// Organisations (docs/organisations.md): a buyer is an organisation, people are its members with one role,
// and every buyer route needs the permission its OpenAPI operation names (`x-concord-permission`). The
// permission test is table-driven: every such operation of the document, called by a member of every role.
import { MEMBER_ROLES, ORGANISATION_HEADER, roleHas, type MemberRole, type Permission } from '@concord/contract';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/app.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, fundBuyer, type TestBuyer } from '../helpers/factories.ts';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = createTestContext();
  adminToken = (await createAdmin(ctx)).token;
});
afterAll(() => ctx.close());

/** Makes `person` a member of `organisation` with `role` (the invitation routes come on top of this row). */
async function join(person: TestBuyer, organisation: TestBuyer, role: MemberRole): Promise<void> {
  await ctx.prisma.membership.create({ data: { accountId: person.id, buyerId: organisation.id, role, invitedBy: organisation.id } });
}

/** An organisation (its founder the owner) with one member of every other role, each with an account of their own. */
async function organisationWithEveryRole(): Promise<{ founder: TestBuyer; members: Record<MemberRole, TestBuyer> }> {
  const founder = await createBuyer(ctx, 'Northwind Vision');
  const members = { owner: founder } as Record<MemberRole, TestBuyer>;
  for (const role of MEMBER_ROLES.filter((r) => r !== 'owner')) {
    members[role] = await createBuyer(ctx, `${role}'s own company`);
    await join(members[role], founder, role);
  }
  return { founder, members };
}

const asMember = (person: TestBuyer, organisationId: string) => ({ ...bearer(person.token), [ORGANISATION_HEADER]: organisationId });

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete' | 'put';
  path: string;
  operationId: string;
  permission: Permission;
}

async function permissionOperations(): Promise<Operation[]> {
  const doc = (await request(ctx.app).get('/api/v1/openapi.json')).body as {
    paths: Record<string, Record<string, { operationId: string; 'x-concord-permission'?: Permission }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      operation['x-concord-permission']
        ? [{ method: method as Operation['method'], path, operationId: operation.operationId, permission: operation['x-concord-permission'] }]
        : [],
    ),
  );
}

/**
 * A request that gets past authentication and stops at once after it, whatever the role: ids that name
 * nothing (404), empty bodies (400). The event stream would stay open, so it names an event that is not
 * the caller's (400).
 */
function call(operation: Operation, headers: Record<string, string>) {
  const path = `/api/v1${operation.path.replace(/\{\w+\}/g, 'nothing-here')}`;
  const query = operation.operationId === 'getEventStream' ? '?lastEventId=evt_nothing' : '';
  const agent = request(ctx.app);
  const req = agent[operation.method](path + query).set(headers);
  return operation.method === 'get' || operation.method === 'delete' ? req : req.send({});
}

describe('the permission table, for every operation of the OpenAPI document and every role', () => {
  it('names a permission on exactly the buyer routes', async () => {
    const operations = await permissionOperations();
    const buyerRoutes = allEndpoints(ctx.services).filter((endpoint) => endpoint.access === 'buyer');
    expect(operations.map((o) => o.operationId).sort()).toEqual(buyerRoutes.map((e) => e.operationId).sort());
    expect(operations.length).toBeGreaterThan(40);
  });

  it('lets a role call an operation exactly when its permissions include the one named, and says which is missing', { timeout: 120_000 }, async () => {
    const { founder, members } = await organisationWithEveryRole();
    const operations = await permissionOperations();
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const operation of operations) {
      for (const role of MEMBER_ROLES) {
        const res = await call(operation, asMember(members[role], founder.id));
        const allowed = roleHas(role, operation.permission);
        expected.push(`${operation.operationId} ${role}: ${allowed ? 'allowed' : 'FORBIDDEN'}`);
        // Past authentication the request stops at its own 400 or 404 (or succeeds): anything else is a finding.
        const past = [200, 201, 202, 204, 400, 404, 409, 415].includes(res.status);
        outcomes.push(`${operation.operationId} ${role}: ${res.status === 403 ? res.body.code : past ? 'allowed' : `${res.status} ${res.body.code}`}`);
        if (!allowed && res.status === 403) expect(res.body.details).toEqual({ permission: operation.permission, role });
      }
    }
    expect(outcomes).toEqual(expected);
  });
});

describe('acting for an organisation', () => {
  it("lets a member work on the organisation's tasks and money as their role allows, apart from their own organisation's", async () => {
    const { founder, members } = await organisationWithEveryRole();
    await fundBuyer(ctx, adminToken, founder.id, 1_000);
    const created = await request(ctx.app)
      .post('/api/v1/tasks')
      .set(asMember(members.member, founder.id))
      .send({ type: 'BINARY_CHOICE', content: 'Is this a cat?', options: ['yes', 'no'] });
    expect(created.status).toBe(201);
    // The task is the organisation's: its founder sees it, and it was reserved from the organisation's money.
    const seen = await request(ctx.app).get(`/api/v1/tasks/${created.body.taskId}`).set(bearer(founder.token));
    expect(seen.status).toBe(200);
    expect((await ctx.prisma.task.findUniqueOrThrow({ where: { id: created.body.taskId } })).buyerId).toBe(founder.id);
    // Not the member's own organisation's: without the header the member acts for their own.
    expect((await request(ctx.app).get(`/api/v1/tasks/${created.body.taskId}`).set(bearer(members.member.token))).status).toBe(404);
    // The viewer reads it; billing, which sees no task content, may not.
    expect((await request(ctx.app).get(`/api/v1/tasks/${created.body.taskId}`).set(asMember(members.viewer, founder.id))).status).toBe(200);
    const billing = await request(ctx.app).get(`/api/v1/tasks/${created.body.taskId}`).set(asMember(members.billing, founder.id));
    expect([billing.status, billing.body.code, billing.body.details]).toEqual([403, 'FORBIDDEN', { permission: 'tasks:read', role: 'billing' }]);
    // Billing reads the ledger of the organisation.
    const ledger = await request(ctx.app).get('/api/v1/billing/ledger').set(asMember(members.billing, founder.id));
    expect(ledger.status).toBe(200);
    expect(ledger.body.entries.map((entry: { amountCents: number }) => entry.amountCents)).toEqual([1_000]);
  });

  it('refuses an organisation the caller is no member of, by header or by token, and changes nothing', async () => {
    const { founder } = await organisationWithEveryRole();
    const stranger = await createBuyer(ctx);
    const res = await request(ctx.app).post('/api/v1/projects').set(asMember(stranger, founder.id)).send({ name: 'Intruder' });
    expect([res.status, res.body.code, res.body.details]).toEqual([403, 'FORBIDDEN', { organisationId: founder.id }]);
    expect(await ctx.prisma.project.count({ where: { buyerId: { in: [founder.id, stranger.id] } } })).toBe(0);
    const switched = await request(ctx.app).post('/api/v1/auth/switch').set(bearer(stranger.token)).send({ organisationId: founder.id });
    expect([switched.status, switched.body.code]).toEqual([403, 'FORBIDDEN']);
    const extra = await request(ctx.app).post('/api/v1/auth/switch').set(bearer(stranger.token)).send({ organisationId: stranger.id, role: 'owner' });
    expect([extra.status, extra.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('lists the caller’s organisations, own first, and switches a token to another; GET /auth/me shows the organisation and the role', async () => {
    const { founder, members } = await organisationWithEveryRole();
    const viewer = members.viewer;
    const list = await request(ctx.app).get('/api/v1/organisations').set(bearer(viewer.token));
    expect(list.status).toBe(200);
    expect(list.body.organisations).toEqual([
      { id: viewer.id, name: "viewer's own company", role: 'owner', personal: true, joinedAt: expect.any(String) },
      { id: founder.id, name: 'Northwind Vision', role: 'viewer', personal: false, joinedAt: expect.any(String) },
    ]);

    const switched = await request(ctx.app).post('/api/v1/auth/switch').set(bearer(viewer.token)).send({ organisationId: founder.id });
    expect(switched.status).toBe(200);
    expect(switched.body.organisation).toMatchObject({ id: founder.id, role: 'viewer' });
    const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(switched.body.token));
    expect(me.body.buyer).toMatchObject({ id: founder.id, email: viewer.email, companyName: 'Northwind Vision', role: 'viewer' });
    // The switched token acts for the organisation on every buyer route, as the viewer.
    const write = await request(ctx.app).post('/api/v1/projects').set(bearer(switched.body.token)).send({ name: 'Nope' });
    expect([write.status, write.body.details]).toEqual([403, { permission: 'tasks:write', role: 'viewer' }]);
    expect((await request(ctx.app).get('/api/v1/projects').set(bearer(switched.body.token))).status).toBe(200);
    // Its own token still acts for the person's own organisation, as its owner.
    const own = await request(ctx.app).get('/api/v1/auth/me').set(bearer(viewer.token));
    expect(own.body.buyer).toMatchObject({ id: viewer.id, email: viewer.email, role: 'owner' });

    // A membership that ends takes the switched token's access with it, GET /auth/me included; on the routes
    // about the person (their organisations, switching, the password) the token falls back to their own
    // organisation, so they can still find and switch to the others.
    await ctx.prisma.membership.delete({ where: { accountId_buyerId: { accountId: viewer.id, buyerId: founder.id } } });
    const after = await request(ctx.app).get('/api/v1/projects').set(bearer(switched.body.token));
    expect([after.status, after.body.code]).toEqual([403, 'FORBIDDEN']);
    const gone = await request(ctx.app).get('/api/v1/auth/me').set(bearer(switched.body.token));
    expect([gone.status, gone.body.details]).toEqual([403, { organisationId: founder.id }]);
    expect((await request(ctx.app).get('/api/v1/organisations').set(bearer(switched.body.token))).body.organisations).toHaveLength(1);
    const back = await request(ctx.app).post('/api/v1/auth/switch').set(bearer(switched.body.token)).send({ organisationId: viewer.id });
    expect(back.body.organisation).toMatchObject({ id: viewer.id, role: 'owner' });
    // Naming the organisation by header is still refused there.
    const named = await request(ctx.app).get('/api/v1/auth/me').set(asMember(viewer, founder.id));
    expect([named.status, named.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it("keeps a changed password's new token acting for the same organisation", async () => {
    const { founder, members } = await organisationWithEveryRole();
    const switched = await request(ctx.app).post('/api/v1/auth/switch').set(bearer(members.admin.token)).send({ organisationId: founder.id });
    const changed = await request(ctx.app)
      .post('/api/v1/auth/change-password')
      .set(bearer(switched.body.token))
      .send({ currentPassword: 'correct horse battery', newPassword: 'another horse battery' });
    expect(changed.status).toBe(200);
    const me = await request(ctx.app).get('/api/v1/auth/me').set(bearer(changed.body.token));
    expect(me.body.buyer).toMatchObject({ id: founder.id, role: 'admin' });
  });

  it('gives a buyer API key its organisation whatever header it sends', async () => {
    const { founder, members } = await organisationWithEveryRole();
    const key = await request(ctx.app).post('/api/v1/api-keys').set(bearer(founder.token)).send({ name: 'ci' });
    expect(key.status).toBe(201);
    const res = await request(ctx.app)
      .post('/api/v1/projects')
      .set({ ...bearer(key.body.apiKey.secret), [ORGANISATION_HEADER]: members.member.id })
      .send({ name: 'By key' });
    expect(res.status).toBe(201);
    expect((await ctx.prisma.project.findUniqueOrThrow({ where: { id: res.body.id } })).buyerId).toBe(founder.id);
  });

  it('sends budget.low to the members who manage money (owners, admins, billing), not to members or viewers', async () => {
    const { founder, members } = await organisationWithEveryRole();
    await fundBuyer(ctx, adminToken, founder.id, 600);
    await fundBuyer(ctx, adminToken, founder.id, -200);
    const mails = await ctx.prisma.mailOutbox.findMany({ where: { kind: 'BUDGET_LOW', toAddress: { in: Object.values(members).map((m) => m.email) } } });
    expect(mails.map((mail) => mail.toAddress).sort()).toEqual([members.owner.email, members.admin.email, members.billing.email].sort());
    expect(mails[0]?.body).toContain('Hello Northwind Vision,');
  });

  it('refuses a header that names no organisation id at all with 400, rather than acting for the person’s own', async () => {
    const person = await createBuyer(ctx);
    for (const value of ['', '   ', 'x'.repeat(101), 'not an id!', 'a, b']) {
      const res = await request(ctx.app)
        .get('/api/v1/projects')
        .set({ ...bearer(person.token), [ORGANISATION_HEADER]: value });
      expect([res.status, res.body.code, res.body.details], JSON.stringify(value)).toEqual([
        400,
        'VALIDATION_ERROR',
        { issues: [{ path: 'X-Concord-Organisation', message: 'must be one organisation id' }] },
      ]);
    }
    expect(
      (
        await request(ctx.app)
          .get('/api/v1/projects')
          .set({ ...bearer(person.token), [ORGANISATION_HEADER]: ` ${person.id} ` })
      ).status,
    ).toBe(200);
  });

  it('answers 403 to a developer or an admin asking for organisations', async () => {
    const res = await request(ctx.app).get('/api/v1/organisations').set(bearer(adminToken));
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});
