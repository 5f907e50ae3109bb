// concord export: GET /exports streamed into a file through the SDK (exports.stream), with a byte count.
// The download goes to FILE.partial and is renamed to FILE once complete, so FILE is never half a dataset.
// The summary reads a split's records per file (x-export-split) and its empty files
// (x-export-empty-parts), so that an empty val or test file is said, not found later.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportFormat, ExportParams, Locale, TaskStatus, TaskType } from '@concord/sdk';
import { buyerClient } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { interruptedError, interruption, usageError } from './errors.ts';
import { formatBytes, formatCount, formatSeconds, type Output } from './output.ts';
import { EXPORT_FORMATS, LOCALES, TASK_TYPES } from '@concord/contract';

const STATUSES = ['PENDING', 'VALIDATING', 'COMPLETED', 'FAILED'] as const;

export interface ExportOptions extends GlobalOptions {
  format: string;
  status?: string;
  project?: string;
  type?: string;
  locale?: string;
  split?: string;
  seed?: string;
  includeTies?: boolean;
  output?: string;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw usageError(`${flag} must be one of ${allowed.join(', ')} (not ${value})`);
  return value as T;
}

/** "0.8" (train only: one plain file) or "0.8,0.1,0.1" (train, val, test: a ZIP of three files). */
export function parseSplit(text: string): Pick<ExportParams, 'trainRatio' | 'valRatio' | 'testRatio'> {
  const parts = text.split(',').map((part) => part.trim());
  const ratios = parts.map(Number);
  if ((parts.length !== 1 && parts.length !== 3) || parts.some((part) => part === '') || ratios.some((r) => !Number.isFinite(r) || r < 0 || r > 1)) {
    throw usageError(`--split is train,val,test ratios in [0, 1] (e.g. 0.8,0.1,0.1) or a train ratio alone, not "${text}"`, 'INVALID_RATIOS');
  }
  const [trainRatio, valRatio, testRatio] = ratios as [number, number?, number?];
  if (valRatio === undefined || testRatio === undefined) return { trainRatio };
  if (Math.abs(trainRatio + valRatio + testRatio - 1) > 1e-9)
    throw usageError(`--split ratios must sum to 1 (${text} sums to ${trainRatio + valRatio + testRatio})`, 'INVALID_RATIOS');
  return { trainRatio, valRatio, testRatio };
}

export async function exportDataset(options: ExportOptions, output: Output, userAgent: string): Promise<void> {
  const format = oneOf<ExportFormat>(options.format, EXPORT_FORMATS, '--format');
  if (!format) throw usageError('--format is required');
  if (options.includeTies && format !== 'preference') throw usageError('--include-ties goes with --format preference only');
  const params: ExportParams = {
    format,
    status: oneOf<TaskStatus>(options.status, STATUSES, '--status'),
    projectId: options.project,
    type: oneOf<TaskType>(options.type, TASK_TYPES, '--type'),
    locale: oneOf<Locale>(options.locale, LOCALES, '--locale'),
    seed: options.seed,
    ...(options.includeTies ? { includeTies: true } : {}),
    ...(options.split ? parseSplit(options.split) : {}),
  };
  const connection = await resolveConnection(options);
  const client = buyerClient(connection, userAgent);
  const started = performance.now();
  const controller = interruption();
  const download = await client.exports.stream(params, { signal: controller.signal }).catch((error: unknown) => {
    controller.dispose();
    throw error;
  });
  const split = readSplit((name) => download.headers.get(name), params);
  const target = path.resolve(options.output ?? download.filename);
  const partial = `${target}.partial`;
  let bytes = 0;
  const progress = output.progress({
    format: 'export {bytes} | {speed}/s | {duration_formatted}',
    plain: ({ payload }) => `export: ${payload.bytes} · ${payload.speed}/s`,
  });
  progress.start(0, { bytes: '0 B', speed: '0 B' });
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      const seconds = (performance.now() - started) / 1000;
      progress.update(bytes, { bytes: formatBytes(bytes), speed: formatBytes(seconds > 0 ? bytes / seconds : 0) });
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(download.body as Parameters<typeof Readable.fromWeb>[0]), counter, createWriteStream(partial), {
      signal: controller.signal,
    });
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    if (controller.received) throw interruptedError(controller.received, 'Interrupted: the partial download was removed');
    throw error;
  } finally {
    controller.dispose();
    progress.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  output.result(
    {
      file: target,
      filename: download.filename,
      contentType: download.contentType,
      bytes,
      seconds: Math.round(seconds * 100) / 100,
      parts: split.parts,
      emptyParts: split.emptyParts,
      requestId: download.requestId ?? null,
    },
    describeExport({ file: target, bytes, contentType: download.contentType, seconds, split }),
  );
}

const PART_NAMES = ['train', 'val', 'test'] as const;
export type SplitPart = (typeof PART_NAMES)[number];

/** A split download's records per file, and the files that hold none; null when unknown (not a split, or an older service). */
export interface ExportSplit {
  parts: Record<SplitPart, number> | null;
  emptyParts: string[] | null;
  /** The ratios asked for: a part asked at 0 is empty by choice, not for lack of tasks. */
  ratios?: Partial<Record<SplitPart, number>>;
}

/**
 * The split as the service describes it: `x-export-split: train=2, val=0, test=1` and, when a file is
 * empty, `x-export-empty-parts: val` (comma-separated). Without them (an older service) the counts stay
 * unknown: the CLI streams bytes and never learns the record count they could be computed from.
 */
export function readSplit(header: (name: string) => string | null | undefined, params: Partial<ExportParams> = {}): ExportSplit {
  const ratios = { train: params.trainRatio, val: params.valRatio, test: params.testRatio };
  const text = header('x-export-split');
  let parts: Record<SplitPart, number> | null = null;
  if (text) {
    const found = new Map(
      text.split(',').map((pair) => {
        const [name = '', count = ''] = pair.split('=').map((word) => word.trim());
        return [name, /^\d+$/.test(count) ? Number(count) : Number.NaN] as const;
      }),
    );
    const counts = PART_NAMES.map((name) => found.get(name));
    if (counts.every((count) => count !== undefined && Number.isSafeInteger(count))) {
      const [train, val, test] = counts as [number, number, number];
      parts = { train, val, test };
    }
  }
  const emptyText = header('x-export-empty-parts');
  const emptyParts =
    emptyText !== null && emptyText !== undefined
      ? emptyText
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : parts
        ? PART_NAMES.filter((name) => parts[name] === 0)
        : null;
  return {
    parts,
    emptyParts,
    ratios: Object.fromEntries(Object.entries(ratios).filter(([, ratio]) => ratio !== undefined)) as ExportSplit['ratios'],
  };
}

/** "a", "a and b", "a, b and c". */
const listed = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** The export's sentence: what was written where, and for a split each file's records, naming the empty ones. */
export function describeExport(input: { file: string; bytes: number; contentType: string; seconds: number; split: ExportSplit }): string {
  const line = `Exported ${formatBytes(input.bytes)} (${input.contentType.split(';')[0]}) to ${input.file} in ${formatSeconds(input.seconds)}`;
  const { parts, emptyParts, ratios = {} } = input.split;
  if (!parts && !emptyParts?.length) return line;
  const counts = parts ? `: ${PART_NAMES.map((name) => `${name} ${formatCount(parts[name])}`).join(', ')}` : '';
  const empty = emptyParts ?? [];
  if (empty.length === 0) return `${line}${counts}.`;
  if (parts && PART_NAMES.every((name) => parts[name] === 0)) return `${line}${counts} — no task matched: every part is empty.`;
  const byChoice = empty.filter((name) => ratios[name as SplitPart] === 0);
  const tooFew = empty.filter((name) => !byChoice.includes(name));
  const is = (names: string[]) => `${listed(names)} ${names.length === 1 ? 'is' : 'are'} empty`;
  const reasons = [
    ...(tooFew.length > 0 ? [`${is(tooFew)} (too few tasks for this split)`] : []),
    ...(byChoice.length > 0 ? [`${is(byChoice)} (ratio 0)`] : []),
  ];
  return `${line}${counts} — ${reasons.join('; ')}.`;
}
