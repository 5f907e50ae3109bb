// For developer apps: hand work to your annotators and report their answers, with the app's API key.
import { HttpClient, type ClientOptions, type CreateOptions, type RequestOptions } from './http.ts';
import { PageList, type PageParams } from './pagination.ts';
import type { Answer, Assignment, CompleteResult, DeveloperProfile, Earnings, NextFilters, Payout, PayoutInput, Reputation, ResponseOf } from './types.ts';

export type AnnotationClientOptions = ClientOptions & { apiKey: string };

const id = (value: string) => encodeURIComponent(value);

export class AnnotationClient {
  private readonly http: HttpClient;

  constructor(options: AnnotationClientOptions) {
    if (!options.apiKey) throw new TypeError("An AnnotationClient needs `apiKey`: the developer app's API key");
    this.http = new HttpClient(options, options.apiKey);
  }

  /** The developer owning the API key (GET /dev/me). */
  async me(options: RequestOptions = {}): Promise<DeveloperProfile> {
    const { developer } = await this.http.json<ResponseOf<'/dev/me', 'get'>>({ method: 'GET', path: '/dev/me', options });
    return developer;
  }

  /**
   * The annotator's assignment (the same one while it is live, for 10 minutes), or null when no task
   * fits. Retried on network errors and 5xx: a repeat returns the same live assignment.
   */
  async nextTask(annotatorId: string, filters: NextFilters = {}, options: RequestOptions = {}): Promise<Assignment | null> {
    const assignment = await this.http.json<Assignment | undefined>({
      method: 'GET',
      path: '/sdk/tasks/next',
      query: { annotatorId, locale: filters.locale, types: filters.types?.length ? filters.types.join(',') : undefined },
      options,
    });
    return assignment ?? null;
  }

  /** Submits the annotator's answer (one of the task's options). Not retried: a repeat is ALREADY_ANSWERED. */
  complete(taskId: string, answer: Answer, options: RequestOptions = {}): Promise<CompleteResult> {
    return this.http.json({ method: 'POST', path: `/sdk/tasks/${id(taskId)}/complete`, body: answer, options });
  }

  /**
   * Submits the answer and, in the same request, gets the annotator's next assignment: what
   * `nextTask(annotatorId, filters)` would return right after it, or null when no task fits. One round
   * trip per answer instead of two. Not retried: a repeat is ALREADY_ANSWERED, and a refused answer
   * hands out nothing.
   */
  async answerAndNext(taskId: string, answer: Answer, filters: NextFilters = {}, options: RequestOptions = {}): Promise<Assignment | null> {
    const done = await this.http.json<CompleteResult>({
      method: 'POST',
      path: `/sdk/tasks/${id(taskId)}/complete`,
      body: { ...answer, next: { ...filters } },
      options,
    });
    return done.next ?? null;
  }

  /** Level, reliability and golden accuracy: a snapshot at most REPUTATION_SNAPSHOT_MS old (see asOf). */
  reputation(annotatorId: string, options: RequestOptions = {}): Promise<Reputation> {
    return this.http.json({ method: 'GET', path: `/sdk/annotators/${id(annotatorId)}/reputation`, options });
  }

  /** What the annotator earned, was paid, has pending, and can still withdraw. */
  earnings(annotatorId: string, options: RequestOptions = {}): Promise<Earnings> {
    return this.http.json({ method: 'GET', path: `/sdk/annotators/${id(annotatorId)}/earnings`, options });
  }

  /**
   * Requests a payout (at least 500 cents): the cents are reserved at once (PENDING) until an
   * administrator pays or rejects it. Carries an Idempotency-Key, so it is retried without paying twice.
   */
  requestPayout(annotatorId: string, payout: PayoutInput, options: CreateOptions = {}): Promise<Payout> {
    return this.http.json({ method: 'POST', path: `/sdk/annotators/${id(annotatorId)}/payouts`, body: payout, idempotent: true, options });
  }

  /** The annotator's payouts: `for await` walks them all, `.page()` reads one page. */
  payouts(annotatorId: string, params: PageParams = {}, options: RequestOptions = {}): PageList<Payout> {
    return new PageList<Payout>(
      async (paging, callOptions) => {
        const page = await this.http.json<{ payouts: Payout[]; nextCursor: string | null; hasMore: boolean }>({
          method: 'GET',
          path: `/sdk/annotators/${id(annotatorId)}/payouts`,
          query: { limit: paging.limit, cursor: paging.cursor },
          options: callOptions,
        });
        return { data: page.payouts, nextCursor: page.nextCursor, hasMore: page.hasMore };
      },
      params,
      options,
    );
  }
}
