import { allowsTie, shownAnswer, storedChoices } from '@concord/contract';
import type { TaskDetail } from './tasks.service.ts';
import type { TaskRecord } from './tasks.repository.ts';

/** What a kind other than single choice adds: its name and what its result carries. */
function kindFields(task: TaskRecord) {
  if (task.answerKind === 'rating') return { answerKind: task.answerKind, rating: task.resultDetails?.rating ?? null };
  if (task.answerKind === 'multi') {
    const choices = task.result === null ? null : storedChoices(task.result);
    return { answerKind: task.answerKind, allowEmpty: task.allowEmpty, choices, optionConfidence: task.resultDetails?.optionConfidence ?? null };
  }
  if (task.answerKind === 'pairwise') {
    return { answerKind: task.answerKind, candidates: task.candidates, allowTie: allowsTie(task.options), group: task.pairGroup };
  }
  if (task.answerKind === 'text') {
    return { answerKind: task.answerKind, maxLength: task.maxLength, reviewTaskId: task.reviewTaskId };
  }
  return task.reviewOf ? { reviewOf: task.reviewOf } : {};
}

/** A task as lists show it: every field but responses and validationsNeeded. */
export const toTaskListItem = (task: TaskRecord) => ({
  id: task.id,
  type: task.type,
  content: task.content,
  options: task.options,
  status: task.status,
  result: task.result === null ? null : shownAnswer(task.answerKind, task.result),
  confidence: task.confidence,
  // A single-choice task reads exactly as before answer kinds; another kind says which it is.
  ...kindFields(task),
  locale: task.locale,
  maxCents: task.maxCents,
  costCents: task.costCents,
  projectId: task.projectId,
  totalResponses: task.totalResponses,
  ...(task.heldAt ? { held: true as const } : {}),
  deadline: task.deadline?.toISOString() ?? null,
  priority: task.priority,
  revision: task.revision,
  rejection:
    task.rejection === null
      ? null
      : {
          result: shownAnswer(task.answerKind, task.rejection.result),
          confidence: task.rejection.confidence,
          reason: task.rejection.reason,
          rejectedAt: task.rejection.at.toISOString(),
        },
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
  responses: task.responses.map(({ answer, timeSpentMs, swapped }) => ({
    answer: shownAnswer(task.answerKind, answer),
    timeSpentMs,
    // The order the annotator saw the pair in: their answer is mapped back to A/B already.
    ...(task.answerKind === 'pairwise' ? { shownOrder: swapped ? 'BA' : 'AB' } : {}),
  })),
});
