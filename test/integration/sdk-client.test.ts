// The SDK package (sdk/src) against the real server over HTTP: a buyer and three annotators use nothing
// but the SDK, from sign-up and top-up to the signed webhook and the export.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnotationClient, BuyerClient, ConcordError, verifyWebhookSignature } from '../../sdk/src/index.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { createAdmin, createDeveloper, uniqueEmail, PASSWORD } from '../helpers/factories.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

let ctx: TestContext;
let server: Server;
let baseUrl: string;
let receiver: Receiver;
let apiKey: string;

beforeAll(async () => {
  // Three agreeing new annotators complete a two-option task at 0.9 (0.927).
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9' } });
  server = ctx.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = await startReceiver();
  apiKey = (await createDeveloper(ctx, (await createAdmin(ctx)).token)).apiKey;
});
afterAll(async () => {
  await receiver.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

describe('the SDK, end to end', () => {
  it('buyer and annotators round trip: top-up, tasks, answers, COMPLETED, signed webhook, export', async () => {
    const buyer = await BuyerClient.register({ baseUrl }, { email: uniqueEmail('sdk'), password: PASSWORD, companyName: 'SDK Labs' });

    // Top-up through the sandbox: the checkout page's Pay button is a plain form post.
    const deposit = await buyer.createDeposit({ amountCents: 50_000, method: 'card' });
    expect(deposit).toMatchObject({ status: 'PENDING', bonusCents: 2_500 });
    const pay = await fetch(`${new URL(deposit.checkoutUrl).pathname.replace(/^/, baseUrl)}/pay`, { method: 'POST' });
    expect(pay.status).toBe(200);
    expect((await buyer.getDeposit(deposit.id)).status).toBe('SUCCEEDED');
    expect(await buyer.me()).toMatchObject({ buyer: { creditBalance: 52_500 } });

    const secret = 'sdk-webhook-secret-0123456789';
    await buyer.createWebhook({ url: `${receiver.url}/hook`, events: ['task.completed'], secret });

    const created = await buyer.createTasks([
      { type: 'SENTIMENT_ANALYSIS', content: 'Great product, fast delivery.', options: ['positive', 'negative', 'neutral'] },
      { type: 'BINARY_CHOICE', content: 'Is the sky blue?', options: ['yes', 'no'] },
    ]);
    expect(created.created).toBe(2);
    const csv = await buyer.uploadCsv('content,type,options\n"Terrible, broke at once",SENTIMENT_ANALYSIS,positive|negative|neutral\n');
    expect(csv.created).toBe(1);

    const answers: Record<string, string> = { 'Great product, fast delivery.': 'positive', 'Is the sky blue?': 'yes', 'Terrible, broke at once': 'negative' };
    const app = new AnnotationClient({ baseUrl, apiKey });
    for (const annotator of ['ann-1', 'ann-2', 'ann-3']) {
      for (;;) {
        const assignment = await app.nextTask(annotator);
        if (!assignment) break;
        expect(await app.nextTask(annotator)).toEqual(assignment); // the same live assignment on repeat
        await app.complete(assignment.task.id, { annotatorId: annotator, answer: answers[assignment.task.content] ?? '', timeSpentMs: 900 });
      }
    }
    const again = await app.complete(created.tasks[0]?.taskId ?? '', { annotatorId: 'ann-1', answer: 'positive', timeSpentMs: 1 }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConcordError);
    expect((again as ConcordError).code).toBe('ALREADY_ANSWERED');

    const all = [];
    for await (const task of buyer.allTasks({}, 1)) all.push(task);
    expect(all).toHaveLength(3);
    expect(all.every((task) => task.status === 'COMPLETED')).toBe(true);
    const task = await buyer.getTask(created.tasks[0]?.taskId ?? '');
    expect(task).toMatchObject({ status: 'COMPLETED', result: 'positive' });
    expect(await buyer.me()).toMatchObject({ buyer: { creditBalance: 52_500 - 3 * 20 } });
    expect((await app.earnings('ann-1')).totalEarnedCents).toBeGreaterThan(0);
    expect((await app.reputation('ann-1')).resolvedResponses).toBe(3);

    await ctx.services.deliveryWorker.drain();
    expect(receiver.requests).toHaveLength(3);
    for (const request of receiver.requests) {
      expect(await verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(true);
      expect(await verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, 'another-secret-0123456')).toBe(false);
      expect(await verifyWebhookSignature(`${request.rawBody} `, request.headers['x-service-signature'] as string, secret)).toBe(false);
    }

    const dir = await mkdtemp(path.join(os.tmpdir(), 'concord-sdk-'));
    try {
      const file = await buyer.exportToFile({ format: 'openai' }, path.join(dir, 'train.jsonl'));
      const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
      expect(lines).toHaveLength(3);
      expect(lines.map((l) => l.messages[1].content).sort()).toEqual(['negative', 'positive', 'yes']);
      const zip = await buyer.exportStream({ format: 'jsonl', trainRatio: '0.5', valRatio: '0.25', testRatio: '0.25' });
      expect(zip.contentType).toBe('application/zip');
      expect(zip.filename).toBe('tasks-jsonl.zip');
      const bytes = new Uint8Array(await new Response(zip.body).arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answerAndNext: each answer and the next assignment in one request, null when nothing is left; a refused answer throws', async () => {
    const buyer = await BuyerClient.register({ baseUrl }, { email: uniqueEmail('sdk'), password: PASSWORD, companyName: 'One Trip' });
    const deposit = await buyer.createDeposit({ amountCents: 1_000, method: 'card' });
    await fetch(`${baseUrl}${new URL(deposit.checkoutUrl).pathname}/pay`, { method: 'POST' });
    // German tasks, asked for by locale: other tests' tasks stay out of the way.
    const created = await buyer.createTasks(
      ['Ja?', 'Nein?'].map((content) => ({ type: 'BINARY_CHOICE' as const, content, options: ['ja', 'nein'], locale: 'de' as const })),
    );
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      requests.push(`${(init?.method ?? 'GET').toUpperCase()} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    };
    const app = new AnnotationClient({ baseUrl, apiKey, fetch: counting });
    const seen: string[] = [];
    let assignment = await app.nextTask('one-trip', { locale: 'de' });
    while (assignment) {
      seen.push(assignment.task.id);
      assignment = await app.answerAndNext(assignment.task.id, { annotatorId: 'one-trip', answer: 'ja', timeSpentMs: 700 }, { locale: 'de', types: ['BINARY_CHOICE'] });
    }
    // Tasks of one batch are equally old: the queue takes them in id order, not creation order.
    expect([...seen].sort()).toEqual(created.tasks.map((t) => t.taskId).sort());
    // One GET to start, then one POST per answer.
    expect(requests).toEqual(['GET /api/v1/sdk/tasks/next', ...seen.map((id) => `POST /api/v1/sdk/tasks/${id}/complete`)]);
    const refused = await app.answerAndNext(seen[0] ?? '', { annotatorId: 'one-trip', answer: 'ja', timeSpentMs: 1 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 409, code: 'ALREADY_ANSWERED' });
  });

  it('turns API errors into ConcordError with the code, details and taskIndex', async () => {
    const buyer = await BuyerClient.register({ baseUrl }, { email: uniqueEmail('sdk'), password: PASSWORD, companyName: 'Broke Inc' });
    const poor = await buyer.createTask({ type: 'BINARY_CHOICE', content: 'Yes?', options: ['yes', 'no'] }).catch((e: unknown) => e as ConcordError);
    expect(poor).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS', details: { requiredCents: 20, availableCents: 0 } });
    const invalid = await buyer
      .createTasks([{ type: 'BINARY_CHOICE', content: 'ok', options: ['a', 'b'] }, { type: 'BINARY_CHOICE', content: '', options: ['a', 'b'] }])
      .catch((e: unknown) => e as ConcordError);
    expect(invalid).toMatchObject({ code: 'INVALID_TASK', taskIndex: 1 });
    const login = await BuyerClient.login({ baseUrl }, { email: uniqueEmail('nobody'), password: PASSWORD }).catch((e: unknown) => e as ConcordError);
    expect(login).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    const app = new AnnotationClient({ baseUrl, apiKey: 'cnotakey000000000000000000' });
    await expect(app.nextTask('x')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('retries a creation after a server error with the same Idempotency-Key, creating once', async () => {
    const buyer = await BuyerClient.register({ baseUrl }, { email: uniqueEmail('sdk'), password: PASSWORD, companyName: 'Retry Co' });
    const deposit = await buyer.createDeposit({ amountCents: 1_000, method: 'mobile_money' });
    await fetch(`${baseUrl}${new URL(deposit.checkoutUrl).pathname}/pay`, { method: 'POST' });
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
    const retrying = new BuyerClient({ baseUrl, token: buyer.token, fetch: flaky, retryDelayMs: 1 });
    const created = await retrying.createTask({ type: 'BINARY_CHOICE', content: 'Retry me', options: ['yes', 'no'] });
    expect(calls).toBe(2);
    expect(keys[0]).toBe(keys[1]);
    const tasks = await buyer.listTasks();
    expect(tasks.tasks.map((t) => t.id)).toEqual([created.taskId]);
  });
});
