// What a deciding answer writes, as a pure function of what sdk_answer's DECIDE read: the label model's
// decision (src/consensus/task-decision.ts), the participants' counters and earnings, the buyer's event
// and charge, and the answerers' new soft counts. prisma/functions/settle_task.sql applies the plan
// (its JSON is codecs.ts's settlementPlanCodec) and answers with an outcome (SETTLED, STALE); what a
// decision owes beyond its task and event (charge, earnings, counts) it leaves to the applier (applier.ts,
// apply_settlement_effects.sql).
import { readCalibration, readClassPrior } from '../../consensus/calibration.ts';
import { earningPerAgreeingAnswer } from '../../consensus/reputation.ts';
import { decideRatingTask, readRaterPrior, type RatingSummary } from '../../consensus/kinds/rating-task.ts';
import { countsRow, decideWithModel, type TaskDecision } from '../../consensus/task-decision.ts';
import { newId } from '../../lib/ids.ts';
import type { TaskType } from '@concord/contract';
import { decisionUpdates } from '../annotation/annotators.repository.ts';
import { outboxEvent } from '../events/events.repository.ts';
import type { ModelView, Participant, SettlementPlan } from './codecs.ts';

export interface DecidingTask {
  id: string;
  type: TaskType;
  options: string[];
  costCents: number;
  validationsNeeded: number;
  maxResponses: number;
  /** Answers stored before this one. */
  totalResponses: number;
}

export interface SettlementInput {
  task: DecidingTask;
  /** Every answer of the task, this one (by `annotatorId`) last. */
  participants: Participant[];
  annotatorId: string;
  model: ModelView;
  annotatorShare: number;
  now: Date;
}

/** The task's decision by the model of its answer kind (a rating's also carries its posterior summary). */
function decide({ task, participants, model }: SettlementInput): TaskDecision & { rating?: RatingSummary } {
  if (model.answerKind === 'rating') {
    return decideRatingTask({
      levels: task.options,
      raterPrior: readRaterPrior(model.priorShape),
      classPrior: readClassPrior(model.classPrior, task.options.length),
      answers: participants,
      validationsNeeded: task.validationsNeeded,
      maxResponses: task.maxResponses,
      targetConfidence: model.targetConfidence,
    });
  }
  return decideWithModel({
    options: task.options,
    scope: {
      options: model.scopeOptions,
      prior: { reliability: model.priorReliability, shape: model.priorShape },
      classPrior: readClassPrior(model.classPrior, model.scopeOptions.length),
      calibration: readCalibration(model.calibration),
    },
    answers: participants,
    validationsNeeded: task.validationsNeeded,
    maxResponses: task.maxResponses,
    targetConfidence: model.targetConfidence,
  });
}

/** The plan of a deciding answer; pure but for the fresh ids of the rows it creates. */
export function planSettlement(input: SettlementInput): SettlementPlan {
  const { task, participants, annotatorId, model, annotatorShare, now } = input;
  const decision = decide(input);
  const totalResponses = task.totalResponses + 1;
  const answererOnly = decisionUpdates([{ annotatorId, answered: 1, resolved: 0, agreed: 0, earnedCents: 0 }]);
  if (decision.kind === 'continue') return { kind: 'continue', updates: answererOnly };
  const K = model.scopeOptions.length;
  const counts = {
    scopeKey: model.scopeKey,
    scopeOptions: model.scopeOptions,
    increments: decision.increments
      .map(({ annotatorId: id, increment }) => countsRow(id, increment, K))
      .sort((a, b) => (a.annotatorId < b.annotatorId ? -1 : 1)),
  };
  if (decision.kind === 'fail' || decision.result === null) {
    return {
      kind: 'fail',
      failureReason: 'NO_CONSENSUS',
      updates: answererOnly,
      event: outboxEvent('task.failed', { taskId: task.id, type: task.type, reason: 'NO_CONSENSUS', totalResponses, failedAt: now.toISOString() }),
      model: counts,
    };
  }
  const result = decision.result;
  const agreeing = participants.filter((p) => p.answer === result).length;
  const earning = earningPerAgreeingAnswer(task.costCents, annotatorShare, agreeing);
  const updates = participants.map((p) => {
    const agreed = p.answer === result ? 1 : 0;
    return { annotatorId: p.annotatorId, answered: p.annotatorId === annotatorId ? 1 : 0, resolved: 1, agreed, earnedCents: agreed * earning };
  });
  // A single-choice payload stays exactly as it was before answer kinds; another kind says which it is.
  const kindFields = decision.rating ? { answerKind: model.answerKind, rating: decision.rating } : {};
  return {
    kind: 'complete',
    result,
    confidence: decision.confidence,
    ...(decision.rating ? { resultDetails: { rating: decision.rating } } : {}),
    updates: decisionUpdates(updates),
    event: outboxEvent('task.completed', {
      taskId: task.id,
      type: task.type,
      result,
      confidence: decision.confidence,
      totalResponses,
      costCents: task.costCents,
      validatedAt: now.toISOString(),
      ...kindFields,
    }),
    chargeLedgerId: newId(),
    model: counts,
  };
}
