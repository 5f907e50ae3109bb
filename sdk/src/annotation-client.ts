// For developer apps: hand work to your annotators and report their answers, with the app's API key.
import { HttpClient, type ClientOptions } from './http.ts';
import type { Assignment, BodyOf, Earnings, Payout, Reputation, ResponseOf } from './types.ts';

export type TaskType = Assignment['task']['type'];

export class AnnotationClient {
  private readonly http: HttpClient;

  constructor(options: ClientOptions & { apiKey: string }) {
    this.http = new HttpClient(options, options.apiKey);
  }

  /** The annotator's assignment (the same one while it is live), or null when no task fits. */
  async nextTask(annotatorId: string, filters: { locale?: string; types?: TaskType[] } = {}): Promise<Assignment | null> {
    const assignment = await this.http.json<Assignment | undefined>('get', '/sdk/tasks/next', {
      query: { annotatorId, locale: filters.locale, types: filters.types?.join(',') },
      retry: true,
    });
    return assignment ?? null;
  }

  /** Submits the annotator's answer (one of the task's options). Not retried: a repeat is ALREADY_ANSWERED. */
  complete(taskId: string, answer: BodyOf<'/sdk/tasks/{id}/complete', 'post'>): Promise<ResponseOf<'/sdk/tasks/{id}/complete', 'post'>> {
    return this.http.json('post', `/sdk/tasks/${encodeURIComponent(taskId)}/complete`, { body: answer });
  }

  reputation(annotatorId: string): Promise<Reputation> {
    return this.http.json('get', `/sdk/annotators/${encodeURIComponent(annotatorId)}/reputation`, { retry: true });
  }

  earnings(annotatorId: string): Promise<Earnings> {
    return this.http.json('get', `/sdk/annotators/${encodeURIComponent(annotatorId)}/earnings`, { retry: true });
  }

  /** Reserves the cents at once (PENDING) until an administrator pays or rejects the payout. */
  requestPayout(annotatorId: string, payout: BodyOf<'/sdk/annotators/{annotatorId}/payouts', 'post'>): Promise<Payout> {
    return this.http.json('post', `/sdk/annotators/${encodeURIComponent(annotatorId)}/payouts`, { body: payout });
  }

  async payouts(annotatorId: string): Promise<Payout[]> {
    const page = await this.http.json<{ payouts: Payout[] }>('get', `/sdk/annotators/${encodeURIComponent(annotatorId)}/payouts`, { retry: true });
    return page.payouts;
  }
}
