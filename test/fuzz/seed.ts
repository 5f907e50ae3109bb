// The accounts and data a fuzz run aims at: every role's credential, and real ids of the caller and of
// another tenant (a project, tasks, a golden task, a webhook configuration, a deposit, a developer, a
// payout), so that generated path ids hit existing rows as well as garbage. Built through the API only
// (plus the admin seed, which has no route), without vitest, so scripts/fuzz.ts can use it too.
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import type { Services } from '../../src/container.ts';
import type { Identities, KnownIds } from './fuzz.ts';

const PASSWORD = 'fuzz-password-123';

async function ok<T = Record<string, unknown>>(pending: request.Test, what: string): Promise<T> {
  const res = await pending;
  if (res.status >= 300) throw new Error(`fuzz seed: ${what} answered ${res.status} ${res.text}`);
  return res.body as T;
}

export async function seedFuzzData(app: Express, services: Services): Promise<{ identities: Identities; ids: KnownIds }> {
  const email = (who: string) => `fuzz-${who}-${randomUUID().slice(0, 8)}@example.test`;
  const adminEmail = email('admin');
  await services.auth.seedAdmin(adminEmail, PASSWORD);
  const admin = (await ok<{ token: string }>(request(app).post('/api/v1/admin/login').send({ email: adminEmail, password: PASSWORD }), 'admin login')).token;
  const as = (token: string) => ({
    post: (path: string, body: object) => request(app).post(`/api/v1${path}`).set('authorization', `Bearer ${token}`).send(body),
  });
  const register = async (who: string) =>
    ok<{ token: string; buyer: { id: string } }>(
      request(app)
        .post('/api/v1/auth/register')
        .send({ email: email(who), password: PASSWORD, companyName: `Fuzz ${who}` }),
      'register',
    );
  const buyer = await register('buyer');
  const other = await register('other');

  const developerEmail = email('dev');
  const developer = (
    await ok<{ developer: { id: string; apiKey: string } }>(
      as(admin).post('/admin/developers', { email: developerEmail, appName: 'Fuzz App', appUrl: 'https://app.example.test' }),
      'developer',
    )
  ).developer;

  const seedTenant = async (token: string, buyerId: string) => {
    await ok(as(admin).post(`/admin/buyers/${buyerId}/credits`, { amountCents: 1_000_000, reason: 'fuzz' }), 'credit');
    const project = await ok<{ id: string }>(as(token).post('/projects', { name: 'Fuzz project' }), 'project');
    const tasks = await ok<{ tasks: Array<{ taskId: string }> }>(
      as(token).post('/tasks/batch', {
        tasks: Array.from({ length: 3 }, (_, i) => ({ type: 'BINARY_CHOICE', content: `fuzz ${i}`, options: ['yes', 'no'], projectId: project.id })),
      }),
      'tasks',
    );
    const golden = await ok<{ id: string }>(
      as(token).post('/golden-tasks', { type: 'BINARY_CHOICE', content: 'golden', options: ['yes', 'no'], goldenAnswer: 'yes' }),
      'golden',
    );
    const webhook = await ok<{ id: string }>(
      as(token).post('/webhooks/configs', { url: 'http://127.0.0.1:9/fuzz', events: ['task.completed', 'budget.low'], secret: 'fuzz-secret-0123456789' }),
      'webhook',
    );
    const deposit = await ok<{ id: string }>(as(token).post('/billing/deposits', { amountCents: 1_000, method: 'card' }), 'deposit');
    return [project.id, ...tasks.tasks.map((t) => t.taskId), golden.id, webhook.id, deposit.id, buyerId];
  };
  const own = await seedTenant(buyer.token, buyer.buyer.id);
  const foreign = await seedTenant(other.token, other.buyer.id);

  // The developer's annotator answers one task, so there is an assignment, an answer and an annotator id.
  const next = await request(app).get('/api/v1/sdk/tasks/next').query({ annotatorId: 'fuzz-annotator' }).set('authorization', `Bearer ${developer.apiKey}`);
  if (next.status === 200) own.push(next.body.task.id as string);
  own.push(developer.id, 'fuzz-annotator');

  // A developer's JWT as /dev/login would issue it (the developer has not set a password).
  const developerJwt = services.tokens.sign({ sub: developer.id, role: 'DEVELOPER', tv: 0 });
  return {
    identities: { buyer: buyer.token, otherBuyer: other.token, developerKey: developer.apiKey, developerJwt, admin },
    ids: { own, foreign },
  };
}
