// For developer apps: hand work to your annotators and report their answers, with the app's API key.
import { HttpClient, type ClientOptions } from './http.ts';
import type { Assignment, BodyOf, Earnings, Payout, Reputation, ResponseOf } from './types.ts';

export type TaskType = Assignment['task']['type'];
type CompleteBody = BodyOf<'/sdk/tasks/{id}/complete', 'post'>;
type CompleteResponse = ResponseOf<'/sdk/tasks/{id}/complete', 'post'>;
/** An answer: the annotator, one of the task's options, and the time spent on it. */
export type Answer = Omit<CompleteBody, 'next'>;
/** What `answerAndNext` asks the next assignment to match (GET /sdk/tasks/next's filters). */
export type NextFilters = NonNullable<CompleteBody['next']>;

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
  complete(taskId: string, answer: Answer): Promise<CompleteResponse> {
    return this.http.json('post', `/sdk/tasks/${encodeURIComponent(taskId)}/complete`, { body: answer });
  }

  /**
   * Submits the answer and, in the same request, gets the annotator's next assignment: what
   * `nextTask(annotatorId, filters)` would return right after it, or null when no task fits. One round
   * trip per answer instead of two. Not retried: a repeat is ALREADY_ANSWERED, and a refused answer
   * hands out nothing.
   */
  async answerAndNext(taskId: string, answer: Answer, filters: NextFilters = {}): Promise<Assignment | null> {
    const done = await this.http.json<CompleteResponse>('post', `/sdk/tasks/${encodeURIComponent(taskId)}/complete`, {
      body: { ...answer, next: filters } satisfies CompleteBody,
    });
    return done.next ?? null;
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
