// The task vocabulary of the API (task-rules.ts on the service side) with the words the pages show for it,
// and the sentences for the task-specific error codes a form or an import row can come back with.
import type { Schemas } from '../api/client';

export type TaskType = Schemas['TaskListItem']['type'];
export type TaskStatus = Schemas['TaskListItem']['status'];
export type Locale = Schemas['TaskListItem']['locale'];
export type TaskListItem = Schemas['TaskListItem'];
export type Task = Schemas['Task'];

export const TASK_TYPES: readonly { value: TaskType; label: string }[] = [
  { value: 'SENTIMENT_ANALYSIS', label: 'Sentiment analysis' },
  { value: 'IMAGE_CLASSIFICATION', label: 'Image classification' },
  { value: 'BINARY_CHOICE', label: 'Binary choice' },
  { value: 'AI_RESPONSE_RATING', label: 'AI response rating' },
  { value: 'RELEVANCE_RATING', label: 'Relevance rating' },
];

/** The six locales of the contract (README "Tasks": fr en de zh es ar), in the order people look for them. */
export const LOCALES: readonly { value: Locale; label: string }[] = [
  { value: 'en', label: 'English (en)' },
  { value: 'fr', label: 'French (fr)' },
  { value: 'de', label: 'German (de)' },
  { value: 'es', label: 'Spanish (es)' },
  { value: 'zh', label: 'Chinese (zh)' },
  { value: 'ar', label: 'Arabic (ar)' },
];

export const STATUSES: readonly { value: TaskStatus; label: string }[] = [
  { value: 'PENDING', label: 'Pending' },
  { value: 'VALIDATING', label: 'Validating' },
  { value: 'COMPLETED', label: 'Completed' },
  { value: 'FAILED', label: 'Failed' },
];

const SHORT_TYPE_LABELS: Record<string, string> = {
  SENTIMENT_ANALYSIS: 'Sentiment',
  IMAGE_CLASSIFICATION: 'Image',
  BINARY_CHOICE: 'Binary',
  AI_RESPONSE_RATING: 'AI rating',
  RELEVANCE_RATING: 'Relevance',
};
export const shortTypeLabel = (type: string): string => SHORT_TYPE_LABELS[type] ?? type;

const typeLabels = new Map<string, string>(TASK_TYPES.map((t) => [t.value, t.label]));
export const typeLabel = (type: string): string => typeLabels.get(type) ?? type;

export const isTaskType = (value: string | null): value is TaskType => value !== null && typeLabels.has(value);
export const isStatus = (value: string | null): value is TaskStatus => STATUSES.some((s) => s.value === value);
export const isLocale = (value: string | null): value is Locale => LOCALES.some((l) => l.value === value);

/** Defaults of the contract (§4) for a new task. */
export const DEFAULT_VALIDATIONS_NEEDED = 3;
export const DEFAULT_MAX_CENTS = 20;

/** Sentences for the codes a single task (a form, a batch item, a CSV row) can be refused with. */
export const TASK_CODE_SENTENCES: Record<string, string> = {
  MISSING_FIELDS: 'Type, content and options are required.',
  INVALID_TYPE: 'The type is not one of the five task types.',
  OPTIONS_REQUIRED: 'A task needs at least two distinct options.',
  VALIDATION_ERROR: 'A field is not valid.',
  INVALID_PROJECT: 'The project is not one of your projects.',
  INSUFFICIENT_CREDITS: 'Your available balance is too low.',
};

export const codeSentence = (code: string): string => TASK_CODE_SENTENCES[code] ?? code;

/** The first characters of a text on one line, for tables. */
export function excerpt(text: string, length = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

export const formatConfidence = (confidence: number | null | undefined): string =>
  confidence === null || confidence === undefined ? '—' : `${(confidence * 100).toFixed(1)} %`;

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return `${minutes} min ${rest} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
