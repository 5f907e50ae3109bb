// A project's quality settings and what a task takes from them (CONTRACT §3, §5), as a pure module: the
// bounds the API, the configuration and the dashboard share (the database CHECKs repeat them), and the
// rule that turns a project's settings, or their absence, into the task's own copy.
// The bounds themselves are the contract package's (projects.ts).
import type { AnswerKind, ProjectDefaultKind } from '@concord/contract';
import { defaultMaxResponses } from '../../consensus/stop-rule.ts';

/** A project's settings as stored: null means the service's default. */
export interface QualitySettings {
  targetConfidence: number | null;
  maxResponses: number | null;
  /** The deadline of its tasks that name none, in hours after their creation; null: none. */
  defaultDeadlineHours: number | null;
}

/**
 * What task creation reads of the buyer's projects. The projects repository provides it; tasks/ names
 * only what it reads, so it never imports projects/, which reads tasks (its counts and charts).
 */
export interface ProjectSettingsSource {
  /** The settings of those of these ids that are projects of this buyer (a missing id is not). */
  qualitySettings(buyerId: string, ids: string[]): Promise<Map<string, QualitySettings>>;
  /** The default answer kinds of those of these ids that are projects of this buyer and set one. */
  defaultAnswerKinds(buyerId: string, ids: string[]): Promise<Map<string, ProjectDefaultKind>>;
}

/** What a task runs with, copied when it is created and kept when its project changes later. */
export interface TaskQuality {
  targetConfidence: number;
  maxResponses: number;
}

/**
 * A task's quality settings: its project's where set, else the defaults (CONSENSUS_THRESHOLD, and
 * max(10, 2 × validationsNeeded)); maxResponses never below validationsNeeded, since a task that may
 * stop collecting before it has the answers it needs could never complete. A text task collects exactly
 * its validationsNeeded written answers (its review task is where answers are weighed).
 */
export function taskQualityFor(
  validationsNeeded: number,
  project: Pick<QualitySettings, 'targetConfidence' | 'maxResponses'> | null,
  defaultTargetConfidence: number,
  answerKind: AnswerKind = 'single',
): TaskQuality {
  const maxResponses = answerKind === 'text' ? validationsNeeded : (project?.maxResponses ?? defaultMaxResponses(validationsNeeded));
  return {
    targetConfidence: project?.targetConfidence ?? defaultTargetConfidence,
    maxResponses: Math.max(maxResponses, validationsNeeded),
  };
}
