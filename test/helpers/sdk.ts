// The developer-app side of tests: next and complete through HTTP, as an app embedding the SDK would.
import request from 'supertest';
import { expect } from 'vitest';
import type { TestContext } from './context.ts';
import { bearer } from './factories.ts';

/** Requests go to the in-process app, or to `serverUrl` (a server process on the same database) when given. */
export function sdk(ctx: TestContext, apiKey: string, serverUrl?: string) {
  const target = () => request(serverUrl ?? ctx.app);
  return {
    next: (annotatorId: string, query: Record<string, string> = {}) =>
      target()
        .get('/api/v1/sdk/tasks/next')
        .query({ annotatorId, ...query })
        .set(bearer(apiKey)),
    complete: (taskId: string, annotatorId: string, answer: string, timeSpentMs = 1500) =>
      target().post(`/api/v1/sdk/tasks/${taskId}/complete`).set(bearer(apiKey)).send({ annotatorId, answer, timeSpentMs }),
    /** next then complete; returns the id of the task answered. */
    async answerNext(annotatorId: string, answer: string | ((options: string[]) => string), query: Record<string, string> = {}): Promise<string> {
      const next = await this.next(annotatorId, query);
      expect(next.status).toBe(200);
      const task = next.body.task as { id: string; options: string[] };
      const chosen = typeof answer === 'string' ? answer : answer(task.options);
      const done = await this.complete(task.id, annotatorId, chosen);
      expect(done.status).toBe(201);
      return task.id;
    },
    get: (path: string) => target().get(`/api/v1/sdk${path}`).set(bearer(apiKey)),
    post: (path: string, body: object) => target().post(`/api/v1/sdk${path}`).set(bearer(apiKey)).send(body),
  };
}
