// A dataset export's request (contract §8) as the service reads it and the dashboard checks it before
// sending: the formats and their files, the split ratios, and the sizes of the train/val/test files.

export const EXPORT_FORMATS = ['json', 'jsonl', 'csv', 'openai', 'huggingface', 'alpaca', 'preference'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const isExportFormat = (value: unknown): value is ExportFormat => typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value);

/** The extension of each format's file. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, 'json' | 'jsonl' | 'csv'> = {
  json: 'json',
  jsonl: 'jsonl',
  csv: 'csv',
  openai: 'jsonl',
  huggingface: 'jsonl',
  alpaca: 'jsonl',
  preference: 'jsonl',
};

/** The name of the download: tasks-<format>.<extension>, or tasks-<format>.zip for a split. */
export const exportFileName = (format: ExportFormat, split: boolean): string => `tasks-${format}.${split ? 'zip' : EXPORT_EXTENSIONS[format]}`;

/** contract §8: the three ratios must add up to 1.0 within 1e-9 (binary rounding only). */
export const RATIO_TOLERANCE = 1e-9;

/** How a ratio is written: digits with at most one decimal point (no sign, percent or exponent). */
export const RATIO_PATTERN = /^\s*\d*\.?\d+\s*$/;

/** A ratio as the service reads it: RATIO_PATTERN, 0 to 1; else null. */
export function parseRatio(text: string): number | null {
  const ratio = RATIO_PATTERN.test(text) ? Number(text) : Number.NaN;
  return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : null;
}

/** Whether three ratios make a split: they add up to 1. */
export const ratiosAddUp = (train: number, val: number, test: number): boolean => Math.abs(train + val + test - 1) <= RATIO_TOLERANCE;

/**
 * File sizes of a split of n records, rounding half up: train = round(n·train),
 * val = min(round(n·val), n − train), test = the rest.
 */
export function splitSizes(n: number, trainRatio: number, valRatio: number): { train: number; val: number; test: number } {
  const train = Math.min(n, Math.round(n * trainRatio));
  const val = Math.min(Math.round(n * valRatio), n - train);
  return { train, val, test: n - train - val };
}
