// The export's request as the API reads it (contract §8): the format, the filters, and the split ratios,
// validated here exactly as the service validates them, so a refusal shows next to the fields before
// anything is sent; the sizes of the split files for a record count; the query string and file name;
// and the first values a link to the page gives (links.ts names its parameters).
// The rules are the API's own (@concord/contract); the words are the page's.
import { EXPORT_FORMATS, exportFileName, isExportFormat, parseRatio as readRatio, RATIO_PATTERN, ratiosAddUp, type ExportFormat } from '@concord/contract';
import { EXPORT_PARAMS } from '../links';
import { isLocale, isStatus, isTaskType } from '../tasks/vocabulary';

const FORMAT_WORDS: Record<ExportFormat, string> = {
  json: 'One JSON array of {id, type, content, label, confidence, locale, validatedAt}.',
  jsonl: 'One JSON object per line: {id, type, content, label}.',
  csv: 'CSV with a header row, for spreadsheets; formula-like cells are neutralised.',
  openai: 'OpenAI chat fine-tuning: a user prompt and the assistant’s label per line.',
  huggingface: 'Hugging Face datasets: {text, label, label_id} per line.',
  alpaca: 'Alpaca instruction tuning: {instruction, input, output} per line.',
  preference: 'Preference pairs for reward models and DPO: {prompt, chosen, rejected, confidence} per decided pairwise task.',
};
export const FORMATS: readonly { id: ExportFormat; description: string }[] = EXPORT_FORMATS.map((id) => ({ id, description: FORMAT_WORDS[id] }));

/**
 * One file, or train/validation/test files. The API also takes a train ratio alone, but answers it with
 * the same one plain file of every record, so the form does not ask for a ratio that changes nothing.
 */
export type SplitMode = 'none' | 'three';

export interface Ratios {
  trainRatio: string;
  valRatio: string;
  testRatio: string;
}

export type RatioField = keyof Ratios;

export interface SplitCheck {
  /** A message per ratio field that is not a decimal in [0, 1]. */
  fields: Partial<Record<RatioField, string>>;
  /** The three ratios do not add up to 1 (the service allows for binary rounding only). */
  sum: string | null;
  ok: boolean;
  /** The numbers, when all the ratios the mode uses parse. */
  values: { train: number; val: number; test: number } | null;
}

/** A ratio as the service parses it: the number, or why it refuses it. */
export function parseRatio(text: string): number | string {
  if (text.trim() === '') return 'Give a decimal between 0 and 1.';
  const ratio = readRatio(text);
  if (ratio !== null) return ratio;
  return RATIO_PATTERN.test(text) ? 'A ratio is between 0 and 1.' : 'Write a plain decimal such as 0.8 (no sign, percent or exponent).';
}

/** The checks of the service's parseSplit for a three-way split: three ratios summing to 1. */
export function checkSplit(mode: SplitMode, ratios: Ratios): SplitCheck {
  if (mode === 'none') return { fields: {}, sum: null, ok: true, values: null };
  const names: RatioField[] = ['trainRatio', 'valRatio', 'testRatio'];
  const fields: SplitCheck['fields'] = {};
  const numbers: number[] = [];
  for (const name of names) {
    const parsed = parseRatio(ratios[name]);
    if (typeof parsed === 'string') fields[name] = parsed;
    else numbers.push(parsed);
  }
  if (Object.keys(fields).length > 0) return { fields, sum: null, ok: false, values: null };
  const [train = 0, val = 0, test = 0] = numbers;
  const total = train + val + test;
  if (!ratiosAddUp(train, val, test)) {
    return {
      fields,
      sum: `The three ratios add up to ${Number(total.toPrecision(12))}; they must add up to exactly 1, for example 0.8, 0.1 and 0.1.`,
      ok: false,
      values: { train, val, test },
    };
  }
  return { fields, sum: null, ok: true, values: { train, val, test } };
}

export interface ExportRequest {
  format: ExportFormat | '';
  status: string;
  projectId: string;
  type: string;
  locale: string;
  mode: SplitMode;
  ratios: Ratios;
  seed: string;
  /** The preference format only: also write the pairs decided as a tie (sent as includeTies=true). */
  includeTies: boolean;
}

/** Whether the request's format takes includeTies: preference alone (the API ignores it for the others). */
export const takesTies = (format: ExportFormat | ''): boolean => format === 'preference';

/** The query string the dashboard sends, in a stable order (empty filters left out). */
export function exportQuery(request: ExportRequest): string {
  // The API's query parameters are the page's own (links.ts), so this string also opens the form as it is.
  const query = new URLSearchParams();
  const set = (name: keyof typeof EXPORT_PARAMS, value: string) => query.set(EXPORT_PARAMS[name], value);
  if (request.format) set('format', request.format);
  if (request.status) set('status', request.status);
  if (request.projectId) set('projectId', request.projectId);
  if (request.type) set('type', request.type);
  if (request.locale) set('locale', request.locale);
  if (request.mode === 'three') {
    set('trainRatio', request.ratios.trainRatio);
    set('valRatio', request.ratios.valRatio);
    set('testRatio', request.ratios.testRatio);
  }
  if (request.mode === 'three' && request.seed !== '') set('seed', request.seed);
  // The API's default is false: only a true is sent, and only where it means something.
  if (takesTies(request.format) && request.includeTies) set('includeTies', 'true');
  return query.toString();
}

/** The file name the service will give: tasks-<format>.<ext>, or .zip for a split. */
export function expectedFileName(format: ExportFormat | '', mode: SplitMode): string {
  return format === '' ? 'tasks' : exportFileName(format, mode === 'three');
}

const DEFAULT_RATIOS: Ratios = { trainRatio: '0.8', valRatio: '0.1', testRatio: '0.1' };

/**
 * The form's first values: the URL's, where they are values the API knows; `formatProblem` when its
 * format is not one, `trainRatioAlone` when it gave a train ratio alone (left out: it changes nothing).
 */
export function requestFromUrl(params: URLSearchParams): { request: ExportRequest; formatProblem: boolean; trainRatioAlone: boolean } {
  const read = (name: keyof typeof EXPORT_PARAMS) => params.get(EXPORT_PARAMS[name]);
  const format = read('format');
  const status = read('status') ?? 'COMPLETED';
  const type = read('type');
  const locale = read('locale');
  const [train, val, test] = [read('trainRatio'), read('valRatio'), read('testRatio')];
  // Train alone is the API's "one plain file", the same as no split; any other ratio given means a
  // three-way split (so the missing ones show as errors instead of being dropped silently).
  const trainRatioAlone = train !== null && val === null && test === null;
  const mode: SplitMode = (train === null && val === null && test === null) || trainRatioAlone ? 'none' : 'three';
  return {
    request: {
      format: format === null ? 'jsonl' : isExportFormat(format) ? format : '',
      status: isStatus(status) ? status : 'COMPLETED',
      projectId: read('projectId') ?? '',
      type: isTaskType(type) ? type : '',
      locale: isLocale(locale) ? locale : '',
      mode,
      ratios: {
        trainRatio: trainRatioAlone ? DEFAULT_RATIOS.trainRatio : (train ?? DEFAULT_RATIOS.trainRatio),
        valRatio: val ?? (mode === 'three' ? '' : DEFAULT_RATIOS.valRatio),
        testRatio: test ?? (mode === 'three' ? '' : DEFAULT_RATIOS.testRatio),
      },
      seed: read('seed') ?? '',
      includeTies: read('includeTies') === 'true',
    },
    formatProblem: format !== null && !isExportFormat(format),
    trainRatioAlone,
  };
}
