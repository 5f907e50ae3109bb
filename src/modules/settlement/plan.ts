// What a deciding answer writes, as a pure function of what sdk_answer's DECIDE read: the label model's
// decision (src/consensus/task-decision.ts), the participants' counters and earnings, the buyer's event
// and charge, and the answerers' new soft counts. prisma/functions/settle_task.sql applies the plan
// (its JSON is codecs.ts's settlementPlanCodec) and answers with an outcome (SETTLED, STALE); what a
// decision owes beyond its task and event (charge, earnings, counts) it leaves to the applier (applier.ts,
// apply_settlement_effects.sql).
import { readCalibration, readClassPrior } from '../../consensus/calibration.ts';
import { earningPerAgreeingAnswer } from '../../consensus/reputation.ts';
import { countsSideOf, decideMultiTask, readTaggerPrior } from '../../consensus/kinds/multi-task.ts';
import { decidePairTask, pairClassPrior, readPairPrior } from '../../consensus/kinds/pairwise-task.ts';
import { decideRatingTask, readRaterPrior } from '../../consensus/kinds/rating-task.ts';
import { countsRow, decideWithModel, type CountsRow, type TaskDecision } from '../../consensus/task-decision.ts';
import { newId } from '../../lib/ids.ts';
import { allowsTie, inOptionOrder, SET_SEPARATOR, storedAnswer, storedChoices, type RatingResult, type TaskType } from '@concord/contract';
import { outboxEvent } from '../events/events.repository.ts';
import type { DecisionUpdates, ModelView, Participant, SettlementPlan } from './codecs.ts';

/** What a decided task changes for one of its annotators (codecs.ts describes the updates' JSON). */
export type ParticipantUpdate = Omit<DecisionUpdates[number], 'ledgerId'>;

/** Rows are locked in annotator id order by every caller, so two decisions sharing annotators cannot deadlock. */
export const decisionUpdates = (updates: ParticipantUpdate[]): DecisionUpdates =>
  [...updates].sort((a, b) => (a.annotatorId < b.annotatorId ? -1 : 1)).map((u) => ({ ...u, ledgerId: newId() }));

export interface DecidingTask {
  id: string;
  type: TaskType;
  options: string[];
  costCents: number;
  maxResponses: number;
  /** Answers stored before this one. */
  totalResponses: number;
  /** Multi-select only: whether the empty set is a result. */
  allowEmpty: boolean;
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

/**
 * A decision in the terms the plan needs, whatever the kind: the result as tasks.result stores it (`stored`:
 * the option; a set as the JSON array of its options in the task's order, as task_answer stores answers)
 * and as the API shows it (`shown`); each answerer's counts increment (`countsSide`² cells); who agrees
 * with the result (the answers the annotators' share is split among); and what the kind adds to the task
 * and its event (`details`).
 */
interface KindDecision {
  kind: 'continue' | 'complete' | 'fail';
  confidence: number;
  stored: string | null;
  /** As the API and events show it: the option, or a set's options joined by | (SET_SEPARATOR). */
  shown: string | null;
  rows: CountsRow[];
  countsSide: number;
  agrees: (answer: string) => boolean;
  details: { rating?: RatingResult; choices?: string[]; optionConfidence?: Record<string, number> };
}

function decide({ task, participants, model }: SettlementInput): KindDecision {
  const common = { maxResponses: task.maxResponses, targetConfidence: model.targetConfidence };
  if (model.answerKind === 'multi') {
    const decision = decideMultiTask({
      scopeOptions: model.scopeOptions,
      taggerPrior: readTaggerPrior(model.priorShape),
      classPrior: readClassPrior(model.classPrior, model.scopeOptions.length),
      allowEmpty: task.allowEmpty,
      answers: participants,
      ...common,
    });
    const result = decision.result === null ? null : inOptionOrder(task.options, decision.result);
    // In the task's option order, as answers are stored, so that equal sets are equal texts.
    const asStored = (chosen: readonly string[]) => storedAnswer({ options: task.options, answerKind: 'multi' }, [...chosen]);
    const resultKey = result === null ? null : asStored(result);
    return {
      kind: decision.kind,
      confidence: decision.confidence,
      stored: resultKey,
      shown: result === null ? null : result.join(SET_SEPARATOR),
      rows: decision.rows,
      countsSide: countsSideOf(model.answerKind, model.scopeOptions.length),
      agrees: (answer) => resultKey !== null && asStored(storedChoices(answer)) === resultKey,
      details: { ...(result === null ? {} : { choices: result }), optionConfidence: decision.optionConfidence },
    };
  }
  if (model.answerKind === 'rating') {
    const decision = decideRatingTask({
      levels: task.options,
      raterPrior: readRaterPrior(model.priorShape),
      classPrior: readClassPrior(model.classPrior, task.options.length),
      answers: participants,
      ...common,
    });
    return fromIncrements(decision, task.options.length, { rating: decision.rating });
  }
  if (model.answerKind === 'pairwise') {
    const decision = decidePairTask({
      allowTie: allowsTie(task.options),
      prior: readPairPrior(model.priorShape),
      classPrior: pairClassPrior(readClassPrior(model.classPrior, 3)),
      answers: participants.map((p) => ({ ...p, swapped: p.swapped === true })),
      ...common,
    });
    return fromIncrements(decision, 3, {});
  }
  const decision = decideWithModel({
    options: task.options,
    scope: {
      options: model.scopeOptions,
      prior: { reliability: model.priorReliability, shape: model.priorShape },
      classPrior: readClassPrior(model.classPrior, model.scopeOptions.length),
      calibration: readCalibration(model.calibration),
    },
    answers: participants,
    ...common,
  });
  return fromIncrements(decision, model.scopeOptions.length, {});
}

/** A single-choice or rating decision (one option, increments over the scope's K×K table) as a KindDecision. */
function fromIncrements(decision: TaskDecision, K: number, details: KindDecision['details']): KindDecision {
  const result = decision.kind === 'complete' ? decision.result : null;
  return {
    kind: decision.kind,
    confidence: decision.confidence,
    stored: result,
    shown: result,
    rows: decision.kind === 'continue' ? [] : decision.increments.map(({ annotatorId, increment }) => countsRow(annotatorId, increment, K)),
    countsSide: K,
    agrees: (answer) => answer === result,
    details,
  };
}

/** The details tasks.result_details keeps (a multi-select set is tasks.result already). */
const stored = ({ choices: _set, ...details }: KindDecision['details']) => details;

/** The plan of a deciding answer; pure but for the fresh ids of the rows it creates. */
export function planSettlement(input: SettlementInput): SettlementPlan {
  const { task, participants, annotatorId, model, annotatorShare, now } = input;
  const decision = decide(input);
  const totalResponses = task.totalResponses + 1;
  const answererOnly = decisionUpdates([{ annotatorId, answered: 1, resolved: 0, agreed: 0, earnedCents: 0 }]);
  if (decision.kind === 'continue') return { kind: 'continue', updates: answererOnly };
  const counts = {
    scopeKey: model.scopeKey,
    scopeOptions: model.scopeOptions,
    ...(decision.countsSide === model.scopeOptions.length ? {} : { countsSide: decision.countsSide }),
    increments: decision.rows.sort((a, b) => (a.annotatorId < b.annotatorId ? -1 : 1)),
  };
  const reviewOf = model.review ? { reviewOf: model.review.taskId } : {};
  // A decision of a task a rejected result reopened says it replaces that result.
  const revised = model.revision > 1 ? { revision: 2 as const } : {};
  if (decision.kind === 'fail' || decision.stored === null || decision.shown === null) {
    return {
      kind: 'fail',
      failureReason: 'NO_CONSENSUS',
      chargeCents: 0,
      updates: answererOnly,
      event: outboxEvent('task.failed', {
        taskId: task.id,
        type: task.type,
        reason: 'NO_CONSENSUS',
        totalResponses,
        failedAt: now.toISOString(),
        ...reviewOf,
        ...revised,
      }),
      model: counts,
      ...(model.review ? { reviewed: reviewedPlan(model.review, null, decision.confidence, task.id, annotatorShare, now, revised) } : {}),
    };
  }
  const agreeing = participants.filter((p) => decision.agrees(p.answer)).length;
  const earning = earningPerAgreeingAnswer(task.costCents, annotatorShare, agreeing);
  const updates = participants.map((p) => {
    const agreed = decision.agrees(p.answer) ? 1 : 0;
    return { annotatorId: p.annotatorId, answered: p.annotatorId === annotatorId ? 1 : 0, resolved: 1, agreed, earnedCents: agreed * earning };
  });
  const hasDetails = Object.keys(decision.details).length > 0;
  return {
    kind: 'complete',
    result: decision.stored,
    confidence: decision.confidence,
    // What tasks.result_details keeps: the set itself is tasks.result.
    ...(hasDetails ? { resultDetails: stored(decision.details) } : {}),
    updates: decisionUpdates(updates),
    // A single-choice payload stays exactly as it was before answer kinds; another kind says which it is.
    event: outboxEvent('task.completed', {
      taskId: task.id,
      type: task.type,
      result: decision.shown,
      confidence: decision.confidence,
      totalResponses,
      costCents: task.costCents,
      validatedAt: now.toISOString(),
      ...(model.answerKind === 'single' ? {} : { answerKind: model.answerKind, ...decision.details }),
      ...reviewOf,
      ...revised,
    }),
    chargeCents: task.costCents,
    chargeLedgerId: newId(),
    model: counts,
    ...(model.review
      ? { reviewed: reviewedPlan(model.review, task.options.indexOf(decision.stored), decision.confidence, task.id, annotatorShare, now, revised) }
      : {}),
  };
}

type Review = NonNullable<ModelView['review']>;

/**
 * What a review's decision does to its text task: complete at the written answer the review chose (option n
 * is the n-th answer; null: the review failed, and so does the text task), the writer of that answer earning
 * the annotators' share of the text task's price and every writer's answer counted as resolved, the text
 * task's event (the winning text, the review's confidence, the review task's id).
 */
function reviewedPlan(
  review: Review,
  chosen: number | null,
  confidence: number,
  reviewTaskId: string,
  annotatorShare: number,
  now: Date,
  revised: { revision?: 2 },
) {
  const winner = chosen === null ? undefined : review.answers[chosen];
  if (chosen !== null && !winner) throw new Error(`review of ${review.taskId} chose answer ${chosen} of ${review.answers.length}`);
  const earning = earningPerAgreeingAnswer(review.costCents, annotatorShare, 1);
  const updates = review.answers.map(({ annotatorId }) => {
    const agreed = winner?.annotatorId === annotatorId ? 1 : 0;
    return { annotatorId, answered: 0, resolved: 1, agreed, earnedCents: agreed * earning };
  });
  const totalResponses = review.answers.length;
  const event = winner
    ? outboxEvent('task.completed', {
        taskId: review.taskId,
        type: review.type,
        result: winner.answer,
        confidence,
        totalResponses,
        costCents: review.costCents,
        validatedAt: now.toISOString(),
        answerKind: 'text',
        reviewTaskId,
        ...revised,
      })
    : outboxEvent('task.failed', {
        taskId: review.taskId,
        type: review.type,
        reason: 'NO_CONSENSUS',
        totalResponses,
        failedAt: now.toISOString(),
        reviewTaskId,
        ...revised,
      });
  return {
    taskId: review.taskId,
    result: winner?.answer ?? null,
    updates: decisionUpdates(updates),
    chargeCents: winner ? review.costCents : 0,
    chargeLedgerId: newId(),
    event,
  };
}
