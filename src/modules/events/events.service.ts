// The buyer's event log: what the outbox recorded (and the webhooks were sent) over the last 30 days.
import type { UnitOfWork } from '../../db/database.ts';
import type { EventRecord, EventsRepository } from './events.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, NotFoundError } from '../../lib/errors.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import type { LoggedEventType } from '@concord/contract';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { events: EventsRepository };
type Db = UnitOfWork<Repos>;

/** How far back the event log reaches. */
export const EVENT_LOG_DAYS = 30;
const EVENT_LOG_MS = EVENT_LOG_DAYS * 86_400_000;

export const eventNotFound = () => new NotFoundError('EVENT_NOT_FOUND', 'Event not found');

/** What an event id may look like: opaque, URL-safe, at most 64 characters (cuids and `evt_…` ids are). */
const EVENT_ID_SHAPE = /^[\w-]{1,64}$/;

const RESUME_PATH = 'Last-Event-ID';
const unknownLastEvent = () => {
  const message = 'not one of your events of the last 30 days: reconcile with GET /events?since=…, then connect without it';
  return new AppError(400, 'VALIDATION_ERROR', `Invalid request: ${RESUME_PATH}: ${message}`, { issues: [{ path: RESUME_PATH, message }] });
};

export interface EventQuery {
  type?: LoggedEventType;
  /** Events created at or after this moment (never before the log's 30 days). */
  since?: Date;
  taskId?: string;
}

export class EventsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Newest first; `since` earlier than 30 days ago reads as 30 days ago. */
  async list(buyerId: string, query: EventQuery, limit: number, cursor?: string): Promise<Page<EventRecord, 'events'>> {
    const page = pageRequest(limit, cursor);
    const oldest = this.oldest();
    const since = query.since && query.since > oldest ? query.since : oldest;
    return toPage('events', await this.db.repos.events.list(buyerId, { type: query.type, taskId: query.taskId, since }, page), limit);
  }

  /** One of the buyer's events of the last 30 days; older, foreign or unknown ids are EVENT_NOT_FOUND. */
  async get(buyerId: string, id: string): Promise<EventRecord> {
    const event = await this.db.repos.events.findForBuyer(buyerId, id, this.oldest());
    if (!event) throw eventNotFound();
    return event;
  }

  /**
   * Where a stream resumes: after the number of the event its Last-Event-ID names, which must be one of
   * the buyer's events of the last 30 days (what GET /events/:id would show); none → from now on.
   * Anything else is refused rather than guessed at: starting from now would silently skip what the
   * client missed, and starting from the oldest event would replay 30 days.
   */
  async resumeAfter(buyerId: string, lastEventId: string | undefined): Promise<number | undefined> {
    if (lastEventId === undefined) return undefined;
    const number = EVENT_ID_SHAPE.test(lastEventId) ? await this.db.repos.events.numberOf(buyerId, lastEventId, this.oldest()) : null;
    if (number === null) throw unknownLastEvent();
    return number;
  }

  private oldest(): Date {
    return new Date(this.clock.now().getTime() - EVENT_LOG_MS);
  }
}
