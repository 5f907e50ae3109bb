// concord tasks at-risk and concord tasks schedule: deadlines and priority (README, "Deadlines and
// priority"). The rules (a deadline a minute to 366 days ahead, a priority from −10 to 10) are the
// contract's, checked here before anything is sent.
import type { Task } from '@concord/sdk';
import { deadlineProblem, MAX_PRIORITY, MIN_PRIORITY, prioritySchema } from '@concord/contract';
import { buyerClient } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { usageError } from './errors.ts';
import type { Output } from './output.ts';

/** How far away an instant is, in the largest unit that fits: "in 25 min", "3 h ago". */
export function relativeTime(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const span =
    minutes < 1
      ? 'under a minute'
      : minutes < 120
        ? `${minutes} min`
        : minutes < 48 * 60
          ? `${Math.round(minutes / 60)} h`
          : `${Math.round(minutes / 1440)} days`;
  return ms >= 0 ? `in ${span}` : `${span} ago`;
}

const durationOf = (ms: number) =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s` : ms < 7_200_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 3_600_000).toFixed(1)} h`;

export async function showAtRisk(options: GlobalOptions & { project?: string; limit?: number }, output: Output, userAgent: string): Promise<void> {
  const client = buyerClient(await resolveConnection(options), userAgent);
  const page = await client.tasks
    .atRisk({ ...(options.project ? { projectId: options.project } : {}), ...(options.limit ? { limit: options.limit } : {}) })
    .page();
  const atRisk = { tasks: page.data, nextCursor: page.nextCursor, hasMore: page.hasMore };
  const now = new Date();
  const lines = atRisk.tasks.map(
    (task) =>
      `${task.id}  ${task.status}  deadline ${relativeTime(new Date(task.deadline ?? now), now)}, ` +
      `median completion ${durationOf(task.medianCompletionMs)}${task.medianKnown ? '' : ' (no task completed yet: the default)'}` +
      `${task.priority === 0 ? '' : `, priority ${task.priority}`}${task.projectId ? `, project ${task.projectId}` : ''}`,
  );
  const text =
    atRisk.tasks.length === 0 ? 'No open task is at risk of missing its deadline.' : lines.join('\n') + (atRisk.hasMore ? '\n… more: raise --limit' : '');
  output.result(atRisk, text);
}

/** --deadline takes an ISO 8601 time with a zone, or none to remove it. */
export function parseDeadline(text: string, now: Date): string | null {
  if (text.trim().toLowerCase() === 'none') return null;
  const problem = deadlineProblem(text, now);
  if (problem) throw usageError(`--deadline ${problem} (e.g. 2026-12-01T18:00:00Z), or none`);
  return text;
}

export function parsePriority(text: string): number {
  const parsed = prioritySchema.safeParse(Number(text));
  if (text.trim() === '' || !parsed.success) throw usageError(`--priority is a whole number from ${MIN_PRIORITY} to ${MAX_PRIORITY}`);
  return parsed.data;
}

export async function scheduleTask(
  taskId: string,
  options: GlobalOptions & { deadline?: string; priority?: string },
  output: Output,
  userAgent: string,
): Promise<void> {
  if (options.deadline === undefined && options.priority === undefined) throw usageError('give --deadline, --priority or both');
  const changes = {
    ...(options.deadline === undefined ? {} : { deadline: parseDeadline(options.deadline, new Date()) }),
    ...(options.priority === undefined ? {} : { priority: parsePriority(options.priority) }),
  };
  const task: Task = await buyerClient(await resolveConnection(options), userAgent).tasks.update(taskId, changes);
  output.result(task, `Task ${task.id} (${task.status}): ${task.deadline ? `deadline ${task.deadline}` : 'no deadline'}, priority ${task.priority}`);
}
