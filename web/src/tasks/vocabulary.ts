// The task vocabulary of the API (@concord/contract) with the words the pages show for it: the five task
// types, the six locales of the contract, the four statuses and why a task failed. The lists are built from records keyed by
// the contract's own unions, so a value added to or removed from the API breaks the build until it is
// worded here.
import { PROJECT_DEFAULT_KINDS, type AnswerKind, type Locale, type ProjectDefaultKind, type TaskStatus, type TaskType } from '@concord/contract';
import type { Schemas } from '../api/schemas';

export type { AnswerKind, Locale, ProjectDefaultKind, TaskStatus, TaskType };
export type TaskListItem = Schemas['TaskListItem'];
export type Task = Schemas['Task'];

interface Choice<V extends string> {
  value: V;
  label: string;
}

const TYPE_WORDS: Record<TaskType, { label: string; short: string; example: string }> = {
  SENTIMENT_ANALYSIS: { label: 'Sentiment analysis', short: 'Sentiment', example: 'positive\nnegative\nneutral' },
  IMAGE_CLASSIFICATION: { label: 'Image classification', short: 'Image', example: 'cat\ndog\nother' },
  BINARY_CHOICE: { label: 'Binary choice', short: 'Binary', example: 'yes\nno' },
  AI_RESPONSE_RATING: { label: 'AI response rating', short: 'AI rating', example: 'good\nacceptable\nbad' },
  RELEVANCE_RATING: { label: 'Relevance rating', short: 'Relevance', example: 'relevant\nsomewhat relevant\nirrelevant' },
};

/** The contract's six locales (fr en de zh es ar), listed in the order people look for them. */
const LOCALE_WORDS: Record<Locale, string> = {
  en: 'English (en)',
  fr: 'French (fr)',
  de: 'German (de)',
  es: 'Spanish (es)',
  zh: 'Chinese (zh)',
  ar: 'Arabic (ar)',
};

/** What an annotator answers (docs/answer-kinds.md). */
const KIND_WORDS: Record<AnswerKind, { label: string; hint: string }> = {
  single: { label: 'Single choice', hint: 'One of the options' },
  rating: { label: 'Rating', hint: 'A level of a scale: the options, lowest first' },
  multi: { label: 'Multi-select', hint: 'Every option that applies' },
  pairwise: { label: 'Pairwise', hint: 'Which of two candidates is better (A, B or a tie)' },
  text: { label: 'Written answer', hint: 'A text each annotator writes; other annotators then choose the best one' },
};

/** The statuses in the order a task goes through them. */
const STATUS_WORDS: Record<TaskStatus, { label: string; hint: string }> = {
  PENDING: { label: 'Pending', hint: 'Waiting for a first answer' },
  VALIDATING: { label: 'Validating', hint: 'Collecting answers' },
  COMPLETED: { label: 'Completed', hint: 'Consensus reached, charged' },
  FAILED: { label: 'Failed', hint: 'No consensus or expired, not charged' },
};

/**
 * Why a FAILED task failed (its failureReason, task.failed's reason): the annotators did not agree, or its
 * deadline passed while it was open. Neither is charged.
 */
const FAILURE_WORDS: Record<string, { label: string; sentence: string }> = {
  NO_CONSENSUS: { label: 'No consensus', sentence: 'No consensus: the annotators did not agree within the most answers it takes' },
  EXPIRED: { label: 'Expired', sentence: 'Expired: its deadline passed before it was decided' },
};

const entries = <K extends string, V>(record: Record<K, V>) => Object.entries(record) as [K, V][];

export const TASK_TYPES: readonly (Choice<TaskType> & { example: string })[] = entries(TYPE_WORDS).map(([value, words]) => ({
  value,
  label: words.label,
  example: words.example,
}));
export const LOCALES: readonly Choice<Locale>[] = entries(LOCALE_WORDS).map(([value, label]) => ({ value, label }));
/** The kinds as a form's choices: "Rating: a level of a scale: …" (only the hint's first letter lowered: "A, B" stay names). */
export const ANSWER_KINDS: readonly Choice<AnswerKind>[] = entries(KIND_WORDS).map(([value, words]) => ({
  value,
  label: `${words.label}: ${words.hint.charAt(0).toLowerCase()}${words.hint.slice(1)}`,
}));
/** The kinds by their name alone ("Rating", "Written answer"), for a filter's choices. */
export const ANSWER_KIND_NAMES: readonly Choice<AnswerKind>[] = entries(KIND_WORDS).map(([value, words]) => ({ value, label: words.label }));
/**
 * The kinds a golden task may take: every one but a written answer (text), which has no one right answer
 * to score an annotator by (the API refuses it, naming answerKind).
 */
export const GOLDEN_ANSWER_KINDS: readonly Choice<AnswerKind>[] = ANSWER_KINDS.filter((kind) => kind.value !== 'text');
/**
 * The kinds a project may take as its default (the contract's PROJECT_DEFAULT_KINDS: those whose tasks
 * carry options), by their name alone. Single choice is the empty value: the forms send it as null, the
 * API's "no default".
 */
export const PROJECT_DEFAULT_KIND_CHOICES: readonly Choice<'' | Exclude<ProjectDefaultKind, 'single'>>[] = PROJECT_DEFAULT_KINDS.map((kind) => ({
  value: kind === 'single' ? '' : kind,
  label: KIND_WORDS[kind].label,
}));
/** The kind a form's select holds (single choice for anything else). */
export const answerKindOf = (value: string): AnswerKind => (Object.hasOwn(KIND_WORDS, value) ? (value as AnswerKind) : 'single');
export const STATUSES: readonly (Choice<TaskStatus> & { hint: string })[] = entries(STATUS_WORDS).map(([value, words]) => ({ value, ...words }));

export const isTaskType = (value: string | null | undefined): value is TaskType => typeof value === 'string' && Object.hasOwn(TYPE_WORDS, value);
export const isLocale = (value: string | null | undefined): value is Locale => typeof value === 'string' && Object.hasOwn(LOCALE_WORDS, value);
export const isAnswerKind = (value: string | null | undefined): value is AnswerKind => typeof value === 'string' && Object.hasOwn(KIND_WORDS, value);
export const isStatus = (value: string | null | undefined): value is TaskStatus => typeof value === 'string' && Object.hasOwn(STATUS_WORDS, value);

export const typeLabel = (type: string): string => (isTaskType(type) ? TYPE_WORDS[type].label : type);
export const shortTypeLabel = (type: string): string => (isTaskType(type) ? TYPE_WORDS[type].short : type);
/** A task's kind in words; a task without `answerKind` is single choice (the API leaves it out for those). */
export const answerKindLabel = (kind: string | undefined = 'single'): string => (Object.hasOwn(KIND_WORDS, kind) ? KIND_WORDS[kind as AnswerKind].label : kind);
export const statusLabel = (status: string): string => (isStatus(status) ? STATUS_WORDS[status].label : status);
/** A failure reason in a word or two ("Expired"), for a list; the code itself when unknown. */
export const failureReasonLabel = (reason: string): string => (Object.hasOwn(FAILURE_WORDS, reason) ? (FAILURE_WORDS[reason]?.label ?? reason) : reason);
/** A failure reason as a sentence ("Expired: its deadline passed before it was decided"); "—" for none. */
export const failureReasonWords = (reason: string | null | undefined): string =>
  !reason ? '—' : Object.hasOwn(FAILURE_WORDS, reason) ? (FAILURE_WORDS[reason]?.sentence ?? reason) : reason;
