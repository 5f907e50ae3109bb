// What the browser tests do outside the browser, through the public API: the admin's token, a developer
// app's annotators answering tasks through the SDK routes, a buyer's task read.
import { expect } from 'vitest';
import { call } from './http.ts';

export { call };

export async function adminToken(base: string, admin: { email: string; password: string }): Promise<string> {
  const login = await call<{ token: string }>(base, 'POST', '/admin/login', undefined, admin);
  expect(login.status).toBe(200);
  return login.body.token;
}

/** A developer app made through the admin API; returns its API key. */
export async function developerKey(base: string, token: string, appName = 'Test Labeller'): Promise<string> {
  const created = await call<{ developer: { apiKey: string } }>(base, 'POST', '/admin/developers', token, {
    email: `${appName.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.test`,
    appName,
    appUrl: 'https://labeller.example.test',
  });
  expect(created.status).toBe(201);
  return created.body.developer.apiKey;
}

/** The token in the newest invitation link e-mailed to an address, from the development outbox (sent in the background). */
export async function invitationToken(base: string, admin: string, to: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const outbox = await call<{ messages: { kind: string; to: string; links: string[] }[] }>(base, 'GET', '/admin/mail-outbox?limit=100', admin);
    const link = outbox.body.messages
      .find((message) => message.kind === 'ORGANISATION_INVITE' && message.to === to)
      ?.links.find((url) => url.includes('#token='));
    if (link) return decodeURIComponent(link.slice(link.indexOf('#token=') + '#token='.length));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no invitation e-mail to ${to} in the outbox`);
}

/**
 * Annotators of the app answer whatever `next` hands them, always the option `choose` picks, until
 * `done()` holds; every answer goes through the SDK routes as a developer app sends it.
 */
export async function annotateUntil(
  base: string,
  apiKey: string,
  done: () => Promise<boolean>,
  choose: (options: string[]) => string = (options) => options[0] ?? '',
  prefix = 'annotator',
): Promise<number> {
  let answers = 0;
  for (let n = 0; n < 200 && !(await done()); n += 1) {
    const annotatorId = `${prefix}-${n % 12}`;
    const next = await fetch(`${base}/api/v1/sdk/tasks/next?annotatorId=${annotatorId}`, { headers: { authorization: `Bearer ${apiKey}` } });
    if (next.status === 204) continue;
    expect(next.status).toBe(200);
    const { task } = (await next.json()) as { task: { id: string; options: string[] } };
    const answered = await call(base, 'POST', `/sdk/tasks/${task.id}/complete`, apiKey, { annotatorId, answer: choose(task.options), timeSpentMs: 1200 });
    expect(answered.status).toBe(201);
    answers += 1;
  }
  if (!(await done())) throw new Error('annotators could not reach the expected state');
  return answers;
}
