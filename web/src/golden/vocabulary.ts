// The task vocabulary the golden-task form and the export filters offer (the API's enums, in words).
import type { Schemas } from '../api/client';

export type TaskType = Schemas['GoldenTask']['type'];
export type Locale = Schemas['GoldenTask']['locale'];
export type TaskStatus = Schemas['Task']['status'];

export const TASK_TYPES: readonly { value: TaskType; label: string; example: string }[] = [
  { value: 'SENTIMENT_ANALYSIS', label: 'Sentiment analysis', example: 'positive\nnegative\nneutral' },
  { value: 'IMAGE_CLASSIFICATION', label: 'Image classification', example: 'cat\ndog\nother' },
  { value: 'BINARY_CHOICE', label: 'Binary choice', example: 'yes\nno' },
  { value: 'AI_RESPONSE_RATING', label: 'AI response rating', example: 'good\nacceptable\nbad' },
  { value: 'RELEVANCE_RATING', label: 'Relevance rating', example: 'relevant\nsomewhat relevant\nirrelevant' },
];

export const LOCALES: readonly { value: Locale; label: string }[] = [
  { value: 'en', label: 'English (en)' },
  { value: 'fr', label: 'French (fr)' },
  { value: 'de', label: 'German (de)' },
  { value: 'es', label: 'Spanish (es)' },
  { value: 'zh', label: 'Chinese (zh)' },
  { value: 'ar', label: 'Arabic (ar)' },
];

export const STATUSES: readonly { value: TaskStatus; label: string }[] = [
  { value: 'COMPLETED', label: 'Completed' },
  { value: 'FAILED', label: 'Failed' },
  { value: 'VALIDATING', label: 'Validating' },
  { value: 'PENDING', label: 'Pending' },
];

export const typeLabel = (type: string): string => TASK_TYPES.find((t) => t.value === type)?.label ?? type;
export const isTaskType = (value: string): value is TaskType => TASK_TYPES.some((t) => t.value === value);
export const isLocale = (value: string): value is Locale => LOCALES.some((l) => l.value === value);
export const isStatus = (value: string): value is TaskStatus => STATUSES.some((s) => s.value === value);
