import type { TaskDetail } from './tasks.service.ts';
import type { TaskRecord } from './tasks.repository.ts';

/** A task as lists show it: every field but responses and validationsNeeded. */
export const toTaskListItem = (task: TaskRecord) => ({
  id: task.id,
  type: task.type,
  content: task.content,
  options: task.options,
  status: task.status,
  result: task.result,
  confidence: task.confidence,
  // A single-choice task reads exactly as before answer kinds; another kind says which it is.
  ...(task.answerKind === 'rating' ? { answerKind: task.answerKind, rating: task.resultDetails?.rating ?? null } : {}),
  locale: task.locale,
  maxCents: task.maxCents,
  costCents: task.costCents,
  projectId: task.projectId,
  totalResponses: task.totalResponses,
  createdAt: task.createdAt.toISOString(),
  validatedAt: task.validatedAt?.toISOString() ?? null,
});

/** The full task: answers in arrival order, never who gave them. */
export const toTask = (task: TaskDetail) => ({
  ...toTaskListItem(task),
  validationsNeeded: task.validationsNeeded,
  maxResponses: task.maxResponses,
  targetConfidence: task.targetConfidence,
  failureReason: task.failureReason,
  responses: task.responses.map(({ answer, timeSpentMs }) => ({ answer, timeSpentMs })),
});
