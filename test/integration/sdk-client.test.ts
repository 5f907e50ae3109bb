// The SDK package (sdk/src) against the real service over HTTP, on PostgreSQL: a buyer and annotators use
// nothing but the SDK, from sign-up and top-up to the signed webhook and the export, and every method of
// both clients is called at least once.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AnnotationClient,
  BuyerClient,
  ConcordAuthenticationError,
  ConcordConflictError,
  ConcordError,
  ConcordInsufficientCreditsError,
  ConcordNotFoundError,
  ConcordPermissionError,
  ConcordStreamResumeError,
  ConcordValidationError,
  verifyWebhook,
  verifyWebhookSignature,
  type EventStreamOptions,
  type StreamedEvent,
  type TaskInput,
  type WebhookEvent,
} from '../../sdk/src/index.ts';
import { decisionUpdates } from '../../src/modules/settlement/plan.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { createAdmin, createDeveloper, fundBuyer, uniqueEmail, PASSWORD, type TestDeveloper } from '../helpers/factories.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

let ctx: TestContext;
let server: Server;
let baseUrl: string;
let receiver: Receiver;
let adminToken: string;
let developer: TestDeveloper;
let apiKey: string;

beforeAll(async () => {
  // Three agreeing new annotators complete a two-option task at 0.9 (0.927). Two open event streams per
  // buyer, so that the cap is reached by a test.
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9', EVENT_STREAM_MAX_PER_BUYER: '2' } });
  server = ctx.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = await startReceiver();
  adminToken = (await createAdmin(ctx)).token;
  developer = await createDeveloper(ctx, adminToken);
  apiKey = developer.apiKey;
});
afterAll(async () => {
  await receiver.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});
// The work queue is global: no test sees another's open tasks.
beforeEach(async () => {
  await ctx.prisma.task.updateMany({ where: { status: { in: ['PENDING', 'VALIDATING'] } }, data: { status: 'FAILED', heldAt: null } });
});

const register = (companyName: string) => BuyerClient.register({ baseUrl }, { email: uniqueEmail('sdk'), password: PASSWORD, companyName });

/** Pays a sandbox deposit the way its checkout page's Pay button does. */
async function pay(checkoutUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}${new URL(checkoutUrl).pathname}/pay`, { method: 'POST' });
  expect(response.status).toBe(200);
}

/** Has annotators answer every open task through the SDK, each with `answerOf(content)`. */
async function annotate(app: AnnotationClient, annotators: string[], answerOf: (content: string, options: string[]) => string): Promise<void> {
  for (const annotator of annotators) {
    for (;;) {
      const assignment = await app.nextTask(annotator);
      if (!assignment) break;
      await app.complete(assignment.task.id, { annotatorId: annotator, answer: answerOf(assignment.task.content, assignment.task.options), timeSpentMs: 900 });
    }
  }
}

describe('the SDK, end to end', () => {
  it('buyer and annotators round trip: top-up, tasks, answers, COMPLETED, signed webhook, events, export', async () => {
    const { client: buyer, token, buyer: account } = await register('SDK Labs');
    expect(token).toBe(buyer.credential);
    expect(account).toMatchObject({ companyName: 'SDK Labs', creditBalance: 0 });

    // Top-up through the sandbox.
    const deposit = await buyer.deposits.create({ amountCents: 50_000, method: 'card' });
    expect(deposit).toMatchObject({ status: 'PENDING', bonusCents: 2_500 });
    await pay(deposit.checkoutUrl);
    expect((await buyer.deposits.get(deposit.id)).status).toBe('SUCCEEDED');
    expect((await buyer.deposits.list().toArray()).map((d) => d.id)).toEqual([deposit.id]);
    expect(await buyer.billing.balance()).toEqual({ creditBalance: 52_500, reservedCents: 0, availableCents: 52_500 });

    const secret = 'sdk-webhook-secret-0123456789';
    const webhook = await buyer.webhooks.create({ url: `${receiver.url}/hook`, events: ['task.completed'], secret });

    const created = await buyer.tasks.createBatch([
      { type: 'SENTIMENT_ANALYSIS', content: 'Great product, fast delivery.', options: ['positive', 'negative', 'neutral'] },
      { type: 'BINARY_CHOICE', content: 'Is the sky blue?', options: ['yes', 'no'] },
    ]);
    expect(created.created).toBe(2);
    const csv = await buyer.tasks.uploadCsv('content,type,options\n"Terrible, broke at once",SENTIMENT_ANALYSIS,positive|negative|neutral\n');
    expect(csv).toMatchObject({ created: 1, errors: [] });
    expect(await buyer.tasks.counts()).toEqual({ counts: { PENDING: 3, VALIDATING: 0, COMPLETED: 0, FAILED: 0 }, total: 3 });

    const answers: Record<string, string> = { 'Great product, fast delivery.': 'positive', 'Is the sky blue?': 'yes', 'Terrible, broke at once': 'negative' };
    const app = new AnnotationClient({ baseUrl, apiKey });
    const first = await app.nextTask('ann-1');
    expect(await app.nextTask('ann-1')).toEqual(first); // the same live assignment on repeat
    await annotate(app, ['ann-1', 'ann-2', 'ann-3'], (content) => answers[content] ?? '');
    const again = await app.complete(created.tasks[0]?.taskId ?? '', { annotatorId: 'ann-1', answer: 'positive', timeSpentMs: 1 }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConcordConflictError);
    expect(again).toMatchObject({ status: 409, code: 'ALREADY_ANSWERED', requestId: expect.any(String) });

    // Every task, a page at a time, and one page with its cursor.
    const all = await buyer.tasks.list({ limit: 1 }).toArray();
    expect(all).toHaveLength(3);
    expect(all.every((task) => task.status === 'COMPLETED')).toBe(true);
    const page = await buyer.tasks.list({ status: 'COMPLETED', limit: 2 }).page();
    expect(page).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(page.data).toHaveLength(2);
    const completed = [];
    for await (const task of buyer.tasks.list({ status: 'COMPLETED', type: 'SENTIMENT_ANALYSIS' })) completed.push(task.result);
    expect(completed.sort()).toEqual(['negative', 'positive']);
    expect(await buyer.tasks.get(created.tasks[0]?.taskId ?? '')).toMatchObject({ status: 'COMPLETED', result: 'positive', responses: expect.any(Array) });
    expect((await buyer.auth.me()).creditBalance).toBe(52_500 - 3 * 20);
    const ledger = await buyer.billing.ledger().toArray();
    expect(ledger.map((entry) => entry.type)).toEqual(['TASK_CHARGE', 'TASK_CHARGE', 'TASK_CHARGE', 'BONUS', 'DEPOSIT']);
    const spend = await buyer.billing.spend({ days: 7 });
    expect(spend.days).toHaveLength(7);
    expect(spend).toMatchObject({ totalChargedCents: 60, totalDepositedCents: 52_500 });

    // The signed deliveries, their log, a redelivery, and the event log.
    await ctx.services.deliveryWorker.drain();
    expect(receiver.requests).toHaveLength(3);
    for (const request of receiver.requests) {
      const event = await verifyWebhook(request.rawBody, request.headers, secret);
      expect(event.event).toBe('task.completed');
      expect(await verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(true);
      expect(await verifyWebhookSignature(`${request.rawBody} `, request.headers['x-service-signature'] as string, secret)).toBe(false);
    }
    const deliveries = await buyer.webhooks.deliveries(webhook.id).toArray();
    expect(deliveries.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    await expect(buyer.webhooks.redeliver(deliveries[0]?.id ?? '')).resolves.toEqual({ queued: true });
    await ctx.services.deliveryWorker.drain();
    expect(receiver.requests).toHaveLength(4);
    const events = await buyer.events.list({ type: 'task.completed', since: new Date(Date.now() - 60_000) }).toArray();
    expect(events).toHaveLength(3);
    const taskEvents = await buyer.events.list({ taskId: created.tasks[1]?.taskId }).toArray();
    expect(taskEvents).toHaveLength(1);
    expect(await buyer.events.get(taskEvents[0]?.id ?? '')).toMatchObject({
      type: 'task.completed',
      taskId: created.tasks[1]?.taskId,
      payload: { result: 'yes' },
    });

    const dir = await mkdtemp(path.join(os.tmpdir(), 'concord-sdk-'));
    try {
      const file = await buyer.exports.toFile({ format: 'openai' }, path.join(dir, 'train.jsonl'));
      expect(file).toMatchObject({ filename: 'tasks-openai.jsonl', contentType: expect.stringContaining('application/x-ndjson') });
      const text = await readFile(file.path, 'utf8');
      expect(file.bytes).toBe(Buffer.byteLength(text));
      const lines = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((l) => l.messages[1].content).sort()).toEqual(['negative', 'positive', 'yes']);
      const zip = await buyer.exports.stream({ format: 'jsonl', trainRatio: 0.5, valRatio: 0.25, testRatio: 0.25, seed: 'x' });
      expect(zip.contentType).toBe('application/zip');
      expect(zip.filename).toBe('tasks-jsonl.zip');
      const bytes = new Uint8Array(await new Response(zip.body).arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
      await expect(buyer.exports.stream({ format: 'jsonl', trainRatio: 0.5, valRatio: 0.6, testRatio: 0.1 })).rejects.toMatchObject({ code: 'INVALID_RATIOS' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    await buyer.webhooks.delete(webhook.id);
    await expect(buyer.webhooks.get(webhook.id)).rejects.toBeInstanceOf(ConcordNotFoundError);
  });

  it('answerAndNext: each answer and the next assignment in one request, null when nothing is left; a refused answer throws', async () => {
    const { client: buyer } = await register('One Trip');
    const deposit = await buyer.deposits.create({ amountCents: 1_000, method: 'card' });
    await pay(deposit.checkoutUrl);
    const created = await buyer.tasks.createBatch(
      ['Ja?', 'Nein?'].map((content): TaskInput => ({ type: 'BINARY_CHOICE', content, options: ['ja', 'nein'], locale: 'de' })),
    );
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      requests.push(`${(init?.method ?? 'GET').toUpperCase()} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    };
    const app = new AnnotationClient({ baseUrl, apiKey, fetch: counting });
    const seen: string[] = [];
    let assignment = await app.nextTask('one-trip', { locale: 'de', types: ['BINARY_CHOICE'] });
    while (assignment) {
      seen.push(assignment.task.id);
      assignment = await app.answerAndNext(
        assignment.task.id,
        { annotatorId: 'one-trip', answer: 'ja', timeSpentMs: 700 },
        { locale: 'de', types: ['BINARY_CHOICE'] },
      );
    }
    // Tasks of one batch are equally old: the queue takes them in id order, not creation order.
    expect([...seen].sort()).toEqual(created.tasks.map((t) => t.taskId).sort());
    // One GET to start, then one POST per answer.
    expect(requests).toEqual(['GET /api/v1/sdk/tasks/next', ...seen.map((id) => `POST /api/v1/sdk/tasks/${id}/complete`)]);
    const refused = await app.answerAndNext(seen[0] ?? '', { annotatorId: 'one-trip', answer: 'ja', timeSpentMs: 1 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 409, code: 'ALREADY_ANSWERED' });
  });

  it('turns API errors into typed ConcordErrors with the code, details, taskIndex and request id', async () => {
    const { client: buyer } = await register('Broke Inc');
    const poor = await buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Yes?', options: ['yes', 'no'] }).catch((e: unknown) => e);
    expect(poor).toBeInstanceOf(ConcordInsufficientCreditsError);
    expect(poor).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 20, availableCents: 0 }, requestId: expect.any(String) });
    const invalid = await buyer.tasks
      .createBatch([
        { type: 'BINARY_CHOICE', content: 'ok', options: ['a', 'b'] },
        { type: 'BINARY_CHOICE', content: '', options: ['a', 'b'] },
      ])
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ConcordValidationError);
    expect(invalid).toMatchObject({ code: 'INVALID_TASK', taskIndex: 1 });
    const login = await BuyerClient.login({ baseUrl }, { email: uniqueEmail('nobody'), password: PASSWORD }).catch((e: unknown) => e);
    expect(login).toBeInstanceOf(ConcordAuthenticationError);
    expect(login).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    const app = new AnnotationClient({ baseUrl, apiKey: 'cnotakey000000000000000000' });
    await expect(app.nextTask('x')).rejects.toBeInstanceOf(ConcordAuthenticationError);
    // A developer key on a buyer route: the wrong kind of credential.
    await expect(new BuyerClient({ baseUrl, apiKey }).tasks.list().page()).rejects.toBeInstanceOf(ConcordPermissionError);
    // The request id the SDK sends is the one the service logs and answers with.
    const missing = await buyer.tasks.get('no-such-task', { headers: { 'x-request-id': 'sdk-test-req-1' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ConcordNotFoundError);
    expect(missing).toMatchObject({ code: 'TASK_NOT_FOUND', requestId: 'sdk-test-req-1' });
  });

  it('retries a creation after a lost answer with the same Idempotency-Key, creating once', async () => {
    const { client: buyer, token } = await register('Retry Co');
    await fundBuyer(ctx, adminToken, (await buyer.auth.me()).id, 1_000);
    // A fetch that lets the first attempt reach the server but loses its answer (a 503 from a proxy, say).
    const keys: string[] = [];
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      calls += 1;
      keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
      const response = await fetch(input, init);
      if (calls === 1) return new Response(JSON.stringify({ error: 'upstream', code: 'UNAVAILABLE' }), { status: 503 });
      return response;
    };
    const retrying = new BuyerClient({ baseUrl, token, fetch: flaky, retryDelayMs: 1 });
    const created = await retrying.tasks.create({ type: 'BINARY_CHOICE', content: 'Retry me', options: ['yes', 'no'] });
    expect(calls).toBe(2);
    expect(keys[0]).toBe(keys[1]);
    expect((await buyer.tasks.list().toArray()).map((t) => t.id)).toEqual([created.taskId]);
    // The caller's own key makes a repeat across runs safe: the first response again, nothing created.
    const once = await buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Mine', options: ['yes', 'no'] }, { idempotencyKey: 'row-1' });
    const twice = await buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Mine', options: ['yes', 'no'] }, { idempotencyKey: 'row-1' });
    expect(twice.taskId).toBe(once.taskId);
    expect(await buyer.tasks.counts()).toMatchObject({ total: 2 });
  });
});

describe('every buyer method', () => {
  it('auth: register, login, me, change password (the client switches to the fresh JWT), the service meta', async () => {
    const email = uniqueEmail('auth');
    const registered = await BuyerClient.register({ baseUrl }, { email, password: PASSWORD, companyName: 'Auth Co' });
    const { token, buyer, client } = await BuyerClient.login({ baseUrl }, { email, password: PASSWORD });
    expect(buyer).toEqual(registered.buyer);
    expect(client.credential).toBe(token);
    expect(await client.auth.me()).toMatchObject({ id: buyer.id, email, companyName: 'Auth Co', reservedCents: 0, availableCents: 0 });
    const stale = new BuyerClient({ baseUrl, token });
    const { token: fresh } = await client.auth.changePassword({ currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(client.credential).toBe(fresh);
    await expect(client.auth.me()).resolves.toMatchObject({ id: buyer.id });
    await expect(stale.auth.me()).rejects.toBeInstanceOf(ConcordAuthenticationError);
    await expect(BuyerClient.login({ baseUrl }, { email, password: 'a brand new password' })).resolves.toMatchObject({ buyer: { id: buyer.id } });
    expect(await BuyerClient.meta({ baseUrl })).toMatchObject({ environment: 'test', paymentProvider: 'sandbox', priceCents: 20 });
  });

  it('tasks: create, get, update, delete, list, counts; projects: create, get, list, update, distribution, delete', async () => {
    const { client: buyer } = await register('Tasks Co');
    await fundBuyer(ctx, adminToken, (await buyer.auth.me()).id, 10_000);
    const project = await buyer.projects.create({ name: 'Reviews', description: 'Product reviews', targetConfidence: 0.9 });
    expect(project).toMatchObject({ name: 'Reviews', targetConfidence: 0.9, maxResponses: null });
    expect((await buyer.projects.list().toArray()).map((p) => p.id)).toEqual([project.id]);
    expect(await buyer.projects.update(project.id, { maxResponses: 5 })).toMatchObject({ id: project.id, maxResponses: 5 });

    const created = await buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Good?', options: ['yes', 'no'], projectId: project.id, maxCents: 25 });
    expect(created).toMatchObject({ status: 'PENDING', costCents: 20, estimatedCompletionMs: expect.any(Number) });
    expect(await buyer.tasks.update(created.taskId, { maxCents: 40, validationsNeeded: 3 })).toMatchObject({
      id: created.taskId,
      maxCents: 40,
      maxResponses: 5,
    });
    expect((await buyer.billing.balance()).reservedCents).toBe(40);
    expect(await buyer.projects.get(project.id)).toMatchObject({ stats: { tasks: { PENDING: 1 }, spentCents: 0 } });
    await expect(buyer.projects.delete(project.id)).rejects.toMatchObject({ status: 409, code: 'PROJECT_HAS_TASKS' });

    const app = new AnnotationClient({ baseUrl, apiKey });
    await annotate(app, ['p-1', 'p-2', 'p-3'], () => 'yes');
    expect(await buyer.tasks.get(created.taskId)).toMatchObject({ status: 'COMPLETED', result: 'yes', projectId: project.id });
    expect(await buyer.projects.distribution(project.id)).toMatchObject({ completed: 1, labels: [{ label: 'yes', count: 1 }] });
    // No pairwise work in this project: nothing to rank, no pairwise annotator.
    expect(await buyer.projects.pairwise(project.id)).toEqual({ groups: [], annotators: [] });
    expect(await buyer.projects.quality(project.id)).toMatchObject({ completed: 1, completedShare: 1, costPerCompletedCents: 20, golden: { tasks: 0 } });
    expect((await buyer.projects.optionSetsQuality()).optionSets).toEqual(expect.any(Array));
    expect(await buyer.tasks.counts({ projectId: project.id })).toMatchObject({ counts: { COMPLETED: 1 }, total: 1 });

    const doomed = await buyer.tasks.create({ type: 'RELEVANCE_RATING', content: 'Relevant?', options: ['high', 'low'], locale: 'ar' });
    await buyer.tasks.delete(doomed.taskId);
    await expect(buyer.tasks.get(doomed.taskId)).rejects.toMatchObject({ status: 404, code: 'TASK_NOT_FOUND' });
    await expect(buyer.tasks.update(created.taskId, { maxCents: 30 })).rejects.toMatchObject({ code: 'TASK_NOT_PENDING' });

    const empty = await buyer.projects.create({ name: 'Empty' });
    await buyer.projects.delete(empty.id);
    await expect(buyer.projects.get(empty.id)).rejects.toBeInstanceOf(ConcordNotFoundError);
  });

  it('golden tasks: create, list, delete; webhooks: create, get, list, update, delete', async () => {
    const { client: buyer } = await register('Gold Co');
    const golden = await buyer.goldenTasks.create({
      type: 'IMAGE_CLASSIFICATION',
      content: 'https://img.example/cat.png',
      options: ['cat', 'dog'],
      goldenAnswer: 'cat',
      locale: 'zh',
    });
    expect(golden).toMatchObject({ goldenAnswer: 'cat', timesServed: 0, correctRate: null });
    expect((await buyer.goldenTasks.list().toArray()).map((g) => g.id)).toEqual([golden.id]);
    await buyer.goldenTasks.delete(golden.id);
    expect(await buyer.goldenTasks.list().toArray()).toEqual([]);

    const config = await buyer.webhooks.create({ url: `${receiver.url}/gold`, events: ['task.failed', 'budget.low'], secret: 'gold-secret-0123456789' });
    expect(config).toMatchObject({ isActive: true, events: ['task.failed', 'budget.low'] });
    // The secret comes back from create only (the SDK hands back the one it sent); the service never returns it.
    expect(config.secret).toBe('gold-secret-0123456789');
    expect(await buyer.webhooks.update(config.id, { isActive: false })).not.toHaveProperty('secret');
    expect(await buyer.webhooks.update(config.id, { isActive: false })).toMatchObject({ id: config.id, isActive: false });
    expect(await buyer.webhooks.get(config.id)).toMatchObject({ isActive: false });
    expect((await buyer.webhooks.list().toArray()).map((w) => w.id)).toEqual([config.id]);
    expect(await buyer.webhooks.deliveries(config.id).page()).toEqual({ data: [], nextCursor: null, hasMore: false });
    await buyer.webhooks.delete(config.id);
    expect(await buyer.webhooks.list().toArray()).toEqual([]);
  });

  // Buyer API keys.
  it('API keys: create (the secret once), use as the credential, list, refused on key management, revoke', async () => {
    const { client: owner } = await register('Keys Co');
    const key = await owner.apiKeys.create({ name: 'ci' });
    expect(key).toMatchObject({ id: expect.any(String), name: 'ci', secret: expect.stringMatching(/^cnc_(test|live)_/), lastUsedAt: null });
    expect(key.secret.startsWith(key.prefix)).toBe(true);

    const server = new BuyerClient({ baseUrl, apiKey: key.secret });
    expect(server.usesApiKey).toBe(true);
    expect((await server.auth.me()).email).toBe((await owner.auth.me()).email);
    expect(await server.tasks.list().toArray()).toEqual([]);
    await expect(server.apiKeys.create({ name: 'escalate' })).rejects.toBeInstanceOf(ConcordPermissionError);
    await expect(server.auth.changePassword({ currentPassword: PASSWORD, newPassword: 'another password 1' })).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });

    const listed = await owner.apiKeys.list().toArray();
    expect(listed).toEqual([
      {
        id: key.id,
        name: 'ci',
        prefix: key.prefix,
        createdAt: key.createdAt,
        lastUsedAt: expect.any(String),
        access: 'write',
        projectIds: null,
        expiresAt: null,
        createdBy: (await owner.auth.me()).email,
      },
    ]);
    // A read key limited to no project: what a viewer reads.
    const reader = new BuyerClient({ baseUrl, apiKey: (await owner.apiKeys.create({ name: 'reader', access: 'read' })).secret });
    await expect(reader.projects.create({ name: 'Nope' })).rejects.toMatchObject({ status: 403, details: { permission: 'tasks:write', role: 'read key' } });
    // A key survives a password change of its account.
    await owner.auth.changePassword({ currentPassword: PASSWORD, newPassword: 'another password 2' });
    await expect(server.billing.balance()).resolves.toEqual({ creditBalance: 0, reservedCents: 0, availableCents: 0 });

    await owner.apiKeys.delete(key.id);
    await expect(server.tasks.list().page()).rejects.toBeInstanceOf(ConcordAuthenticationError);
    await expect(owner.apiKeys.delete(key.id)).rejects.toMatchObject({ status: 404, code: 'API_KEY_NOT_FOUND' });
  });
});

describe('organisations', () => {
  it('list, switch (the client acts for the organisation from then on), and the organisationId option', async () => {
    const { client: founder } = await register('Northwind Vision');
    const { client: person } = await register('Own Co');
    const organisationId = (await founder.auth.me()).id;
    const personId = (await person.auth.me()).id;
    await ctx.prisma.membership.create({ data: { accountId: personId, buyerId: organisationId, role: 'member' } });
    await founder.projects.create({ name: 'Shared' });

    expect((await person.organisations.list()).map((o) => [o.id, o.role, o.personal])).toEqual([
      [personId, 'owner', true],
      [organisationId, 'member', false],
    ]);
    const byOption = new BuyerClient({ baseUrl, token: person.credential, organisationId });
    expect((await byOption.projects.list().toArray()).map((p) => p.name)).toEqual(['Shared']);
    await expect(byOption.billing.ledger().page()).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      details: { permission: 'money:read', role: 'member' },
    });

    expect(await person.projects.list().toArray()).toEqual([]);
    const { organisation } = await person.organisations.switch(organisationId);
    expect(organisation).toMatchObject({ id: organisationId, name: 'Northwind Vision', role: 'member' });
    expect((await person.projects.list().toArray()).map((p) => p.name)).toEqual(['Shared']);
    expect(await person.auth.me()).toMatchObject({ id: organisationId, role: 'member' });
    await expect(byOption.organisations.switch(personId)).resolves.toMatchObject({ organisation: { id: personId, role: 'owner' } });
    expect(await byOption.projects.list().toArray()).toEqual([]);
  });

  it('members and invitations: invite, invitations, acceptInvitation, members, updateMember, removeMember, revokeInvitation', async () => {
    const { client: founder } = await register('Northwind Vision');
    const email = uniqueEmail('invited');
    const invitation = await founder.organisations.invite({ email, role: 'billing' });
    expect(await founder.organisations.invitations()).toEqual([invitation]);
    const mail = await ctx.prisma.mailOutbox.findFirstOrThrow({ where: { toAddress: email, kind: 'ORGANISATION_INVITE' } });
    const token = decodeURIComponent(/#token=(\S+)/.exec(mail.body)?.[1] ?? '');
    const accepted = await BuyerClient.acceptInvitation({ baseUrl }, { token, password: PASSWORD });
    expect(accepted).toMatchObject({ accountCreated: true, organisation: { role: 'billing' }, token: expect.any(String) });
    const members = await founder.organisations.members();
    expect(members.map((m) => [m.email, m.role])).toEqual([
      [(await founder.auth.me()).email, 'owner'],
      [email, 'billing'],
    ]);
    const joinedId = members[1]?.accountId ?? '';
    expect(await founder.organisations.updateMember(joinedId, 'viewer')).toMatchObject({ accountId: joinedId, role: 'viewer' });
    await founder.organisations.removeMember(joinedId);
    expect(await founder.organisations.members()).toHaveLength(1);
    const second = await founder.organisations.invite({ email: uniqueEmail('later'), role: 'member' });
    await founder.organisations.revokeInvitation(second.id);
    expect(await founder.organisations.invitations()).toEqual([]);
    await expect(BuyerClient.acceptInvitation({ baseUrl }, { token })).rejects.toMatchObject({ status: 400, code: 'INVITATION_INVALID' });
  });

  it('spending caps: billing.caps, billing.setMonthlyCap, projects.setBudgetCap; a held task says so', async () => {
    const { client: buyer } = await register('Capped Co');
    await fundBuyer(ctx, adminToken, (await buyer.auth.me()).id, 10_000);
    const project = await buyer.projects.create({ name: 'Tickets' });
    expect(await buyer.projects.setBudgetCap(project.id, { capCents: 20, capAction: 'hold' })).toEqual({
      projectId: project.id,
      name: 'Tickets',
      capCents: 20,
      capAction: 'hold',
      committedCents: 0,
      heldTasks: 0,
    });
    expect(await buyer.billing.setMonthlyCap(5_000)).toMatchObject({ capCents: 5_000, committedCents: 0 });
    const first = await buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Spam?', options: ['y', 'n'], projectId: project.id });
    const second = await buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Spam?', options: ['y', 'n'], projectId: project.id });
    expect([first.held, second.held]).toEqual([undefined, true]);
    expect((await buyer.tasks.get(second.taskId)).held).toBe(true);
    expect(await buyer.billing.caps()).toMatchObject({ monthly: { capCents: 5_000, committedCents: 20 }, projects: [{ projectId: project.id, heldTasks: 1 }] });
    expect(await buyer.projects.setBudgetCap(project.id, { capCents: null, capAction: 'refuse' })).toMatchObject({
      capCents: null,
      capAction: 'refuse',
      heldTasks: 0,
    });
    await buyer.billing.setMonthlyCap(20);
    await expect(buyer.tasks.create({ type: 'BINARY_CHOICE', content: 'Spam?', options: ['y', 'n'] })).rejects.toMatchObject({
      status: 402,
      code: 'BUDGET_CAP_REACHED',
      details: { scope: 'organisation', capCents: 20, committedCents: 40, requiredCents: 20 },
    });
  });

  it('auditLog: every change, newest first, filtered and paged through', async () => {
    const { client: founder } = await register('Audited Co');
    const me = await founder.auth.me();
    const project = await founder.projects.create({ name: 'First' });
    await founder.projects.update(project.id, { name: 'Renamed' });
    await founder.organisations.invite({ email: uniqueEmail('audited'), role: 'viewer' });
    expect((await founder.organisations.auditLog({ limit: 1 }).toArray()).map((entry) => entry.action)).toEqual([
      'createInvitation',
      'updateProject',
      'createProject',
    ]);
    const [renamed] = await founder.organisations.auditLog({ target: project.id, action: 'updateProject', from: new Date(Date.now() - 60_000) }).toArray();
    expect(renamed).toMatchObject({ actor: { kind: 'member', email: me.email }, before: { name: 'First' }, after: { name: 'Renamed' } });
    expect(await founder.organisations.auditLog({ targetType: 'webhook' }).toArray()).toEqual([]);
  });
});

describe('webhooks: generated secrets, retry policies, test sends and secret rotation', () => {
  const WHSEC = /^whsec_[A-Za-z0-9+/]{43}=$/;

  it('create without a secret generates a whsec_ one and returns it once; retryPolicy on create, update and read', async () => {
    const { client: buyer } = await register('Whsec Co');
    const created = await buyer.webhooks.create({ url: `${receiver.url}/generated`, events: ['task.completed'], retryPolicy: 'extended' });
    expect(created.secret).toMatch(WHSEC);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({ retryPolicy: 'extended', rotationEndsAt: null, disabledAt: null, disabledReason: null, isActive: true });
    const read = await buyer.webhooks.get(created.id);
    expect(read).not.toHaveProperty('secret');
    expect(read).toEqual(Object.fromEntries(Object.entries(created).filter(([key]) => key !== 'secret')));
    expect(await buyer.webhooks.update(created.id, { retryPolicy: 'spec' })).toMatchObject({ id: created.id, retryPolicy: 'spec' });
    // Two creations, two secrets; a secret of your own is used as given (and handed back).
    const other = await buyer.webhooks.create({ url: `${receiver.url}/generated`, events: ['task.failed'] });
    expect(other.secret).toMatch(WHSEC);
    expect(other.secret).not.toBe(created.secret);
    expect(other.retryPolicy).toBe('spec');
    const mine = await buyer.webhooks.create({ url: `${receiver.url}/generated`, events: ['budget.low'], secret: 'my-own-secret-0123456789' });
    expect(mine.secret).toBe('my-own-secret-0123456789');
  });

  it('test(id) sends a ping the receiver verifies with the generated secret (Standard Webhooks), and reports the outcome', async () => {
    const { client: buyer } = await register('Ping Co');
    const config = await buyer.webhooks.create({ url: `${receiver.url}/ping-ok`, events: ['task.completed'] });
    receiver.script({ status: 200, body: '{"received":true}' });
    const result = await buyer.webhooks.test(config.id);
    expect(result).toMatchObject({
      eventId: expect.stringMatching(/^evt_c[0-9a-z]{24}$/),
      delivered: true,
      statusCode: 200,
      latencyMs: expect.any(Number),
      // The receiver is on a private address: its headers are handed back, its body is not.
      responseHeaders: expect.objectContaining({ date: expect.any(String) }),
      responseExcerpt: null,
    });
    expect(result).not.toHaveProperty('error');
    const ping = receiver.requests.find((r) => r.path === '/hooks/ping-ok');
    if (!ping) throw new Error('no ping arrived');
    expect(ping.headers['webhook-id']).toBe(result.eventId);
    const event: WebhookEvent = await verifyWebhook(ping.rawBody, ping.headers, config.secret, { scheme: 'standard' });
    if (event.event !== 'ping') throw new Error(`expected a ping, got ${event.event}`);
    expect(event).toEqual({ event: 'ping', webhookId: config.id, sentAt: expect.any(String) });
    expect(await buyer.events.get(result.eventId)).toMatchObject({ type: 'ping', taskId: null, payload: { event: 'ping', webhookId: config.id } });

    // A receiver that fails: not delivered, with its status, error and answer.
    receiver.script({ status: 500, body: 'boom' });
    expect(await buyer.webhooks.test(config.id)).toMatchObject({ delivered: false, statusCode: 500, error: 'HTTP 500', responseExcerpt: null });
    await expect(buyer.webhooks.test('no-such-config')).rejects.toMatchObject({ status: 404, code: 'WEBHOOK_NOT_FOUND' });
  });

  it('rotateSecret(id) generates the new whsec_ secret: both sign for 24 h; the current one again is refused', async () => {
    const { client: buyer } = await register('Rotate Co');
    const config = await buyer.webhooks.create({ url: `${receiver.url}/rotate`, events: ['budget.low'] });
    const before = Date.now();
    const rotated = await buyer.webhooks.rotateSecret(config.id);
    expect(rotated.secret).toMatch(WHSEC);
    expect(rotated.secret).not.toBe(config.secret);
    expect(rotated).toMatchObject({ id: config.id, url: config.url });
    const endsIn = Date.parse(rotated.rotationEndsAt ?? '') - before;
    expect(endsIn).toBeGreaterThan(23.9 * 3_600_000);
    expect(endsIn).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    await buyer.webhooks.test(config.id);
    const ping = receiver.requests.filter((r) => r.path === '/hooks/rotate').at(-1);
    if (!ping) throw new Error('no ping arrived');
    expect(String(ping.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [rotated.secret, config.secret]) {
      await expect(verifyWebhook(ping.rawBody, ping.headers, secret, { scheme: 'standard' }), secret).resolves.toMatchObject({ event: 'ping' });
    }
    // x-service-signature: the new secret only.
    await expect(verifyWebhook(ping.rawBody, ping.headers, rotated.secret, { scheme: 'service' })).resolves.toMatchObject({ event: 'ping' });
    await expect(verifyWebhook(ping.rawBody, ping.headers, config.secret, { scheme: 'service' })).rejects.toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    // A secret of your own; the current one again is a validation error.
    const own = `whsec_${Buffer.alloc(40, 9).toString('base64')}`;
    expect((await buyer.webhooks.rotateSecret(config.id, own)).secret).toBe(own);
    const again = await buyer.webhooks.rotateSecret(config.id, own).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConcordValidationError);
    expect(again).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });
});

/** Follows a buyer's stream in the background: the events so far, a promise of the first connection, and stop(). */
function follow(buyer: BuyerClient, options: EventStreamOptions = {}) {
  const controller = new AbortController();
  const events: StreamedEvent[] = [];
  const connects: boolean[] = [];
  const disconnects: string[] = [];
  let connected: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (connected = resolve));
  const stream = buyer.events.stream({
    reconnectDelayMs: 50,
    ...options,
    signal: controller.signal,
    onConnect: (info) => {
      connects.push(info.reconnected);
      options.onConnect?.(info);
      connected();
    },
    onDisconnect: (info) => {
      disconnects.push(info.error.code);
      options.onDisconnect?.(info);
    },
  });
  const done = (async () => {
    for await (const event of stream) events.push(event);
  })();
  return { stream, events, connects, disconnects, opened, done, stop: async () => (controller.abort(), await done) };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('events.stream()', () => {
  it('delivers each new event once, in order, and resumes after a lastEventId; a too-old or unknown one is ConcordStreamResumeError', async () => {
    const { client: buyer } = await register('Stream Co');
    const config = await buyer.webhooks.create({ url: `${receiver.url}/stream`, events: ['task.completed'] });
    const live = follow(buyer);
    await live.opened;
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push((await buyer.webhooks.test(config.id)).eventId);
    await until(() => live.events.length === 3, 'three events');
    expect(live.events.map((e) => e.id)).toEqual(sent);
    expect(live.events[0]).toEqual({
      id: sent[0],
      type: 'ping',
      taskId: null,
      payload: { event: 'ping', webhookId: config.id, sentAt: expect.any(String) },
      createdAt: expect.any(String),
    });
    expect(live.stream.lastEventId).toBe(sent[2]);
    await live.stop();
    expect(live.connects).toEqual([false]);

    // From an event on: what came after it, and nothing before.
    const later = follow(buyer, { lastEventId: sent[0] });
    await until(() => later.events.length === 2, 'the two events after the first');
    expect(later.events.map((e) => e.id)).toEqual(sent.slice(1));
    await later.stop();

    // An id the service cannot resume after: unknown, or older than 30 days.
    await expect(follow(buyer, { lastEventId: 'evt_cnotaneventofthisbuyer00' }).done).rejects.toBeInstanceOf(ConcordStreamResumeError);
    await ctx.prisma.event.update({ where: { id: sent[2] }, data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    const stale = await follow(buyer, { lastEventId: sent[2] }).done.catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ConcordStreamResumeError);
    expect(stale).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', lastEventId: sent[2], details: { issues: [{ path: 'Last-Event-ID' }] } });
  });

  it('reconnects after a cut connection with Last-Event-ID: the event written meanwhile arrives once', async () => {
    const { client: owner } = await register('Cut Co');
    const config = await owner.webhooks.create({ url: `${receiver.url}/cut`, events: ['task.completed'] });
    // A fetch whose stream bodies can be cut, as a network would, and that records each Last-Event-ID sent.
    const cuts: Array<() => void> = [];
    const resumedWith: Array<string | null> = [];
    const cutting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!new URL(String(input)).pathname.endsWith('/events/stream') || !response.body) return response;
      resumedWith.push(new Headers(init?.headers).get('last-event-id'));
      const reader = response.body.getReader();
      let cut: (error: Error) => void = () => undefined;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
          cut = (error) => controller.error(error);
        },
        pull: async (controller) => {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: () => reader.cancel(),
      });
      cuts.push(() => {
        cut(new TypeError('connection reset'));
        void reader.cancel().catch(() => undefined);
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const buyer = new BuyerClient({ baseUrl, token: owner.credential, fetch: cutting });
    const live = follow(buyer, { reconnectDelayMs: 300 });
    await live.opened;
    const first = (await owner.webhooks.test(config.id)).eventId;
    await until(() => live.events.length === 1, 'the first event');
    cuts[0]?.();
    const second = (await owner.webhooks.test(config.id)).eventId; // written while the stream is down
    await until(() => live.events.length === 2, 'the event written while disconnected');
    const third = (await owner.webhooks.test(config.id)).eventId;
    await until(() => live.events.length === 3, 'the next one');
    await live.stop();
    expect(live.events.map((e) => e.id)).toEqual([first, second, third]);
    expect(resumedWith).toEqual([null, first]);
    expect(live.connects).toEqual([false, true]);
    expect(live.disconnects).toEqual(['NETWORK_ERROR']);
  });

  it('waits for a place under the per-buyer cap (400 LIMIT_EXCEEDED is retried); a revoked key ends the stream with ConcordAuthenticationError', async () => {
    const { client: owner } = await register('Cap Co');
    const key = await owner.apiKeys.create({ name: 'streams' });
    const buyer = new BuyerClient({ baseUrl, apiKey: key.secret });
    const [a, b] = [follow(buyer), follow(buyer)];
    await Promise.all([a.opened, b.opened]);
    const third = follow(buyer, { reconnectDelayMs: 100, maxReconnectDelayMs: 200 });
    await until(() => third.disconnects.length >= 1, 'the third stream refused');
    expect(third.disconnects[0]).toBe('LIMIT_EXCEEDED');
    expect(third.connects).toEqual([]);
    await a.stop();
    await third.opened;
    expect(third.connects).toEqual([false]);
    await Promise.all([b.stop(), third.stop()]);

    // Revoked: the next (re)connection is refused, and the iteration ends with the error.
    await owner.apiKeys.delete(key.id);
    await expect(follow(buyer).done).rejects.toBeInstanceOf(ConcordAuthenticationError);
  });
});

describe('every annotation client method', () => {
  it('me, nextTask, complete, reputation, earnings, requestPayout, payouts', async () => {
    const app = new AnnotationClient({ baseUrl, apiKey });
    expect(await app.me()).toMatchObject({ id: developer.id, email: developer.email, appName: 'Label App' });
    expect(await app.nextTask('payee')).toBeNull(); // nothing open: 204 is null
    await expect(app.earnings('never-seen')).rejects.toMatchObject({ status: 404, code: 'ANNOTATOR_NOT_FOUND' });

    // Earnings credited the way a completed task credits them (a real payout needs 500 cents).
    const record = await ctx.services.db.repos.annotators.ensure(developer.id, 'payee', ctx.services.clock.now());
    const updates = decisionUpdates([{ annotatorId: record.id, answered: 0, resolved: 0, agreed: 0, earnedCents: 800 }]);
    await ctx.prisma.$executeRaw`SELECT apply_decision('sdk-test-task', ${JSON.stringify(updates)}::jsonb)`;
    expect(await app.reputation('payee')).toMatchObject({ annotatorId: 'payee', level: 'NOVICE', reliability: 0.7, suspended: false });
    expect(await app.earnings('payee')).toEqual({ annotatorId: 'payee', totalEarnedCents: 800, paidOutCents: 0, pendingPayoutCents: 0, availableCents: 800 });

    const payout = await app.requestPayout('payee', { amountCents: 600, method: 'mobile_money', destination: '+254700000000' }, { idempotencyKey: 'payout-1' });
    expect(payout).toMatchObject({ status: 'PENDING', amountCents: 600, method: 'mobile_money' });
    // The same key again: the first payout, not a second one.
    expect(
      await app.requestPayout('payee', { amountCents: 600, method: 'mobile_money', destination: '+254700000000' }, { idempotencyKey: 'payout-1' }),
    ).toEqual(payout);
    await expect(app.requestPayout('payee', { amountCents: 499, method: 'paypal', destination: 'me@example.test' })).rejects.toMatchObject({
      code: 'PAYOUT_TOO_SMALL',
    });
    expect(await app.payouts('payee').toArray()).toEqual([payout]);
    expect(await app.earnings('payee')).toMatchObject({ pendingPayoutCents: 600, availableCents: 200 });
  });

  it('a suspended or unknown credential, and a refused answer, are typed errors', async () => {
    const app = new AnnotationClient({ baseUrl, apiKey });
    const error = await app.complete('no-such-task', { annotatorId: 'x', answer: 'a', timeSpentMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcordError);
    expect(error).toMatchObject({ status: 404, code: 'TASK_NOT_FOUND' });
    await expect(app.nextTask('bad id with spaces')).rejects.toBeInstanceOf(ConcordValidationError);
  });
});
