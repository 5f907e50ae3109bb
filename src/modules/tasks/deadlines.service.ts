// Deadlines (docs/organisations.md, "Deadlines and priority"): the expiry job that closes open tasks past
// their deadline, and the list of open tasks at risk of missing theirs. A deadline itself is a task field,
// set at creation (its own, or its project's defaultDeadlineHours) and changed by PATCH /tasks/:id; the
// answer path refuses answers past it (sdk_answer: TASK_CLOSED) and next stops serving the task.
import type { Clock } from '../../lib/clock.ts';
import type { ProjectScope } from '../../lib/endpoint.ts';
import { decodeCursor, encodeCursor, type Page } from '../../lib/pagination.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { TaskRecord, TasksRawRepository } from './tasks.repository.ts';
import type { SettlementEffects } from '../settlement/applier.ts';
import { outboxIds } from '../events/events.repository.ts';
import { DEFAULT_ESTIMATE_MS } from './tasks.service.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type RawRepos = { tasks: TasksRawRepository };
type Db = UnitOfWork<unknown, RawRepos>;

/** Tasks one expiry statement closes: each is a row lock, an effect row and an event. */
const EXPIRY_BATCH = 200;

export interface AtRiskTask extends TaskRecord {
  /** The median creation-to-completion time the deadline was compared with. */
  medianCompletionMs: number;
  /** False when the project has no completed task to take a median from (DEFAULT_ESTIMATE_MS, estimatedCompletionMs's default, was used). */
  medianKnown: boolean;
}

export class DeadlinesService {
  constructor(
    private readonly db: Db,
    private readonly effects: Pick<SettlementEffects, 'nudge'>,
    private readonly clock: Clock,
  ) {}

  /**
   * Closes every open task past its deadline, a batch per statement (autocommitted: each batch's tasks end
   * with their effects and events, or not at all); rows an answer holds at that moment wait for the next
   * run. Returns how many it closed. The settlement-effects applier releases their reservations.
   */
  async expireDue(): Promise<number> {
    let closed = 0;
    for (;;) {
      const slots = Array.from({ length: EXPIRY_BATCH }, outboxIds);
      const expired = await this.db.rawRepos.tasks.expireDue(this.clock.now(), slots);
      closed += expired.length;
      if (expired.length > 0) this.effects.nudge();
      if (expired.length < EXPIRY_BATCH) return closed;
    }
  }

  /** Open tasks whose deadline is nearer than their project's median completion time, soonest first. */
  async atRisk(
    buyerId: string,
    query: { projectId?: string | undefined; limit: number; cursor?: string | undefined },
    scope: ProjectScope = null,
  ): Promise<Page<AtRiskTask, 'tasks'>> {
    const rows = await this.db.rawRepos.tasks.atRisk(
      buyerId,
      { ...(query.projectId ? { projectId: query.projectId } : {}), ...(scope ? { projectIds: [...scope] } : {}) },
      this.clock.now(),
      DEFAULT_ESTIMATE_MS,
      query.limit,
      query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    );
    const tasks = rows.slice(0, query.limit);
    const last = tasks.at(-1);
    const hasMore = rows.length > query.limit;
    return { tasks, hasMore, nextCursor: hasMore && last?.deadline ? encodeCursor({ createdAt: last.deadline, id: last.id }) : null };
  }
}
