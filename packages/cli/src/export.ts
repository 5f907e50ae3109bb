// concord export: GET /exports streamed into a file through the SDK (exports.stream), with a byte count.
// The download goes to FILE.partial and is renamed to FILE once complete, so FILE is never half a dataset.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportFormat, ExportParams, Locale, TaskStatus, TaskType } from '@concord/sdk';
import { buyerClient } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { interruptedError, interruption, usageError } from './errors.ts';
import { formatBytes, formatSeconds, type Output } from './output.ts';
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
  const params: ExportParams = {
    format,
    status: oneOf<TaskStatus>(options.status, STATUSES, '--status'),
    projectId: options.project,
    type: oneOf<TaskType>(options.type, TASK_TYPES, '--type'),
    locale: oneOf<Locale>(options.locale, LOCALES, '--locale'),
    seed: options.seed,
    ...(options.split ? parseSplit(options.split) : {}),
  };
  const connection = await resolveConnection(options);
  const client = buyerClient(connection, userAgent);
  const started = performance.now();
  const controller = interruption();
  const download = await client.exports.stream(params, { signal: controller.signal });
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
      requestId: download.requestId ?? null,
    },
    `Exported ${formatBytes(bytes)} (${download.contentType.split(';')[0]}) to ${target} in ${formatSeconds(seconds)}`,
  );
}
