// `concord import FILE`: a CSV or JSONL file of any size into tasks, through POST /tasks/batch.
//
// - Streamed: the file is read a chunk at a time; at most `concurrency` batches are in flight and one
//   is being filled, so memory stays flat whatever the file's size.
// - Every row is checked locally by the service's rules (task-rules.ts) and its projectId against the
//   buyer's projects before its batch is sent: a batch is all or nothing, so a bad row must not take 999
//   good ones with it. Refused rows go to the error report (row, code, message), are left out of their
//   batch's request, and the import goes on.
//   Should the service still refuse an item (INVALID_TASK names it by taskIndex), that row joins the
//   report and the rest of its batch is sent again; a refusal that names no item (413, say) splits the
//   batch in halves until the row is found.
// - Batches are cut from the file's source rows alone (the next --batch-size rows, ≤ 1 000, and ≤ 9 MiB
//   of JSON counting every parsed row, under the route's 10 MB), whatever the checks decide of each row:
//   a batch number always covers the same rows, even when a check's answer (a project lookup) changes
//   between runs. Each is numbered and sent with the Idempotency-Key `cnc-import-<import id>-<batch
//   number>`, where the import id is a SHA-256 of the file's content, the buyer, the format, the batch
//   size, --project and the price (salted by --restart). A batch sent again (a retry, or a run resumed
//   after Ctrl-C, kill -9 or a lost connection) carries the same key and body, so the service answers
//   with its first response and creates nothing twice (contract §4; keys live 24 h).
// - A checkpoint (checkpoint.ts) records the committed batches and the last source row of each; the
//   same command run again skips them, after checking that they end at the same rows. An index per file
//   content and buyer (imports/files/) finds the unfinished checkpoint whatever the parameters: one left
//   with other parameters is a usage error (resuming it under new keys would create its rows twice)
//   until the original parameters or --restart are given.
import { stat } from 'node:fs/promises';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { BuyerClient } from '../buyer-client.ts';
import { ConcordError, ConcordNotFoundError, ConcordValidationError } from '../errors.ts';
import { HttpClient } from '../http.ts';
import type { TaskBatchCreated } from '../types.ts';
import { Checkpoint, type CheckpointData, type RefusedRow } from './checkpoint.ts';
import { resolveBaseUrl, resolveConnection, stateSubdir, writeFileAtomic, type GlobalOptions } from './config.ts';
import { CliError, EXIT, interruptedError, interruptedExitCode, interruption, toCliError, usageError } from './errors.ts';
import { formatCount, formatSeconds, type Output } from './output.ts';
import { detectFormat, readRows, surveyFile, type ImportFormat } from './rows.ts';
import { checkTask, jsonSizeBound } from './task-rules.ts';

export const MAX_BATCH = 1_000;
/** The JSON body of one batch stays under this (POST /tasks/batch takes 10 MB). */
const MAX_BATCH_BYTES = 9 * 1024 * 1024;
/** Rows whose size bound is above this are measured exactly (the bound is 6 bytes per character). */
const EXACT_SIZE_ABOVE = 16 * 1024;
/** The price when the service cannot be asked (--dry-run without a connection): the contract's default. */
const DEFAULT_PRICE_CENTS = 20;
/** Projects checked one by one; beyond this many distinct ids, the service's own check (INVALID_TASK) decides. */
const MAX_CHECKED_PROJECTS = 1_000;
/** The service keeps Idempotency-Keys this long; an older unanswered batch may be created again. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface ImportOptions extends GlobalOptions {
  format?: string;
  project?: string;
  concurrency: number;
  batchSize: number;
  dryRun?: boolean;
  errors?: string;
  checkpoint?: string;
  restart?: boolean;
  userAgent: string;
}

export interface ImportSummary {
  file: string;
  format: ImportFormat;
  dryRun: boolean;
  complete: boolean;
  resumed: boolean;
  /** Data rows read (CSV records, non-blank JSONL lines). */
  rows: number;
  /** Tasks the service created for this import, over every run of it. */
  created: number;
  refused: number;
  refusedLocally: number;
  refusedByService: number;
  batches: number;
  batchesSent: number;
  /** Batches skipped because an earlier run had them committed. */
  batchesSkipped: number;
  /** Batches the service had already committed (same key): their answer had been lost, or not checkpointed. */
  batchesReplayed: number;
  /** Rows of the valid ones; with --dry-run, what the import would reserve. */
  reservedCents: number;
  seconds: number;
  rowsPerSec: number;
  errorsFile: string | null;
  checkpointFile: string | null;
  importId: string | null;
  priceCents: number;
  checkedAgainstService: boolean;
}

interface PreparedRow {
  row: number;
  task: Record<string, unknown>;
}

/** A source row in the batch being filled: a task to check against the projects, or a row already refused. */
type SourceRow = PreparedRow | { row: number; refused: RefusedRow };

/** What decides the batches and their keys: an unfinished import resumes only with the same. */
interface ImportParameters {
  format: ImportFormat;
  batchSize: number;
  projectId: string | null;
  priceCents: number;
}

const PARAMETER_LABELS: Record<keyof ImportParameters, string> = {
  format: '--format',
  batchSize: '--batch-size',
  projectId: '--project',
  priceCents: "the service's price (GET /meta, cents)",
};

/** How a stored checkpoint's parameters differ from this run's. */
function parameterDifferences(stored: Partial<CheckpointData>, now: ImportParameters): Array<{ parameter: string; was: unknown; now: unknown }> {
  if (stored.version !== 2)
    return [
      { parameter: 'concord version (the checkpoint was written by an earlier one, which cut batches differently)', was: stored.version ?? null, now: 2 },
    ];
  const differences: Array<{ parameter: string; was: unknown; now: unknown }> = [];
  for (const key of Object.keys(PARAMETER_LABELS) as Array<keyof ImportParameters>) {
    if (stored[key] !== now[key]) differences.push({ parameter: PARAMETER_LABELS[key], was: stored[key] ?? null, now: now[key] });
  }
  return differences;
}

const RESTART_HINT =
  'pass --restart to discard the checkpoint and start over (--restart sends every row again: the tasks the earlier run created are created a second time)';

/** The CSV line of the error report. */
function reportLine(row: RefusedRow): string {
  const quote = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return `${row.row},${quote(row.code)},${quote(row.message)}\n`;
}

/** The error report: written only when a row is refused, rewritten whole by each run. */
class ErrorReport {
  private stream: WriteStream | undefined;
  count = 0;

  constructor(readonly file: string) {}

  async add(row: RefusedRow): Promise<void> {
    this.count += 1;
    if (!this.stream) {
      this.stream = createWriteStream(this.file, { flags: 'w' });
      this.stream.write('row,code,message\n');
    }
    if (!this.stream.write(reportLine(row))) await new Promise<void>((resolve) => this.stream?.once('drain', resolve));
  }

  async close(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });
  }
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

export async function runImport(file: string, options: ImportOptions, output: Output): Promise<ImportSummary> {
  const started = performance.now();
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw usageError(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`, error.code ?? 'FILE_UNREADABLE');
  });
  if (!info.isFile()) throw usageError(`${file} is not a file`, 'FILE_UNREADABLE');
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1 || options.batchSize > MAX_BATCH) {
    throw usageError(`--batch-size must be an integer from 1 to ${MAX_BATCH}`);
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 16) {
    throw usageError('--concurrency must be an integer from 1 to 16');
  }
  const absolute = path.resolve(file);
  const format = await detectFormat(file, options.format);
  const dryRun = options.dryRun === true;

  // The service: who imports (keys are per account), at what price, with which projects.
  let client: BuyerClient | undefined;
  let batches: HttpClient | undefined;
  let buyerId = 'offline';
  let priceCents = DEFAULT_PRICE_CENTS;
  let baseUrl = await resolveBaseUrl(options);
  const connection = await resolveConnection(options).catch((error: unknown) => {
    if (dryRun && error instanceof CliError && error.exitCode === EXIT.AUTH) return undefined;
    throw error;
  });
  if (connection) {
    baseUrl = connection.baseUrl;
    const clientOptions = { baseUrl, headers: { 'user-agent': options.userAgent }, maxRetries: 6, maxRetryDelayMs: 15_000 };
    client = new BuyerClient({ ...clientOptions, apiKey: connection.apiKey });
    batches = new HttpClient(clientOptions, connection.apiKey);
    const [me, meta] = await Promise.all([client.auth.me(), BuyerClient.meta(clientOptions)]);
    buyerId = me.id;
    priceCents = meta.priceCents;
  }

  output.note(`Reading ${file} (${format})…`);
  const survey = await surveyFile(file);
  const estimatedRows = Math.max(0, format === 'csv' ? survey.lines - 1 : survey.lines);
  const parameters: ImportParameters = { format, batchSize: options.batchSize, projectId: options.project ?? null, priceCents };
  const parametersId = hash(
    JSON.stringify({ v: 1, sha256: survey.sha256, format, batchSize: options.batchSize, projectId: options.project ?? null, buyerId, priceCents }),
  ).slice(0, 32);
  let importId = parametersId;

  let checkpoint: Checkpoint | undefined;
  let resumed = false;
  if (!dryRun) {
    // The checkpoint: at --checkpoint or <import id>.json, or wherever the index of this file (its
    // content and the buyer) points, whatever the parameters it was started with.
    const importsDir = await stateSubdir('imports');
    const indexFile = path.join(
      await stateSubdir(path.join('imports', 'files')),
      `${hash(JSON.stringify({ v: 1, sha256: survey.sha256, buyerId })).slice(0, 32)}.json`,
    );
    const ownFile = options.checkpoint ? path.resolve(options.checkpoint) : path.join(importsDir, `${parametersId}.json`);
    const indexed = (await Checkpoint.read(indexFile)) as { checkpoint?: unknown } | undefined;
    const candidates = [...new Set([ownFile, ...(typeof indexed?.checkpoint === 'string' ? [indexed.checkpoint] : [])])];
    const found: Array<{ file: string; data: Partial<CheckpointData>; differences: ReturnType<typeof parameterDifferences> }> = [];
    for (const candidate of candidates) {
      const data = await Checkpoint.read(candidate);
      if (data?.sha256 === survey.sha256 && data.buyerId === buyerId)
        found.push({ file: candidate, data, differences: parameterDifferences(data, parameters) });
    }
    if (options.restart) {
      for (const old of found) await rm(old.file, { force: true });
      if (found.length > 0)
        output.note(`--restart: discarded the checkpoint${found.length > 1 ? 's' : ''} ${found.map((old) => old.file).join(', ')}; every row is sent again.`);
      importId = hash(`${parametersId}:restart:${randomUUID()}`).slice(0, 32);
    } else {
      const conflict = found.find((old) => old.differences.length > 0 && old.data.complete !== true);
      if (conflict) {
        const { data, differences } = conflict;
        const show = (value: unknown) => (value === null ? 'none' : String(value));
        throw new CliError(
          EXIT.USAGE,
          'IMPORT_PARAMETERS_CHANGED',
          `An unfinished import of this file (checkpoint ${conflict.file}: ${formatCount(data.created ?? 0)} tasks created) was started with other parameters: ` +
            `${differences.map((d) => `${d.parameter} was ${show(d.was)}, now ${show(d.now)}`).join('; ')}. Resuming it with these would send its rows again under ` +
            `other Idempotency-Keys and create them twice. Run the command again with the original parameters to resume it, or ${RESTART_HINT}`,
          { checkpointFile: conflict.file, differences },
        );
      }
      const same = found.find((old) => old.differences.length === 0 && old.data.complete !== true) ?? found.find((old) => old.differences.length === 0);
      if (same) {
        checkpoint = Checkpoint.resume(same.file, same.data as CheckpointData, absolute);
        importId = checkpoint.data.importId;
        resumed = true;
      } else {
        // A finished import with other parameters (or a finished v1 one) is a new import: its rows are created again.
        const other = found.find((old) => old.data.complete === true);
        if (other) output.warn(`this file was imported before with other parameters (checkpoint ${other.file}); this import creates its tasks again`);
      }
    }
    checkpoint ??= Checkpoint.create(options.restart && !options.checkpoint ? path.join(importsDir, `${importId}.json`) : ownFile, {
      importId,
      file: absolute,
      sha256: survey.sha256,
      format,
      batchSize: options.batchSize,
      projectId: options.project ?? null,
      priceCents,
      baseUrl,
      buyerId,
    });
    await writeFileAtomic(indexFile, `${JSON.stringify({ checkpoint: checkpoint.file })}\n`, 0o600);
    if (resumed) {
      const data = checkpoint.data;
      if (data.complete)
        output.note(`This file was already imported (${formatCount(data.created)} tasks, checkpoint ${checkpoint.file}); nothing is sent again.`);
      else output.note(`Resuming: ${formatCount(data.doneBelow + data.done.length)} batches were committed by an earlier run (checkpoint ${checkpoint.file}).`);
      const stale = checkpoint.staleInFlight(KEY_LIFETIME_MS - 60 * 60 * 1000);
      if (stale.length > 0 && !data.complete) {
        output.warn(
          `batch${stale.length > 1 ? 'es' : ''} ${stale.join(', ')} went unanswered more than 23 hours ago; the service keeps Idempotency-Keys for 24 hours, ` +
            'so if it committed them, their tasks are created again now',
        );
      }
    }
  }
  const keyPrefix = `cnc-import-${importId}`;

  const errorsFile = path.resolve(options.errors ?? `${file}.errors.csv`);
  await rm(errorsFile, { force: true });
  const report = new ErrorReport(errorsFile);
  for (const refused of checkpoint?.data.refusedByService ?? []) await report.add(refused);
  for (const refused of checkpoint?.data.refusedByLookup ?? []) await report.add(refused);

  const counters = {
    rows: 0,
    refusedLocally: checkpoint?.data.refusedByLookup.length ?? 0,
    refusedByService: checkpoint?.data.refusedByService.length ?? 0,
    batches: 0,
    batchesSent: 0,
    batchesSkipped: 0,
    batchesReplayed: 0,
    reservedCents: 0,
    finishedRows: 0,
    createdThisRun: 0,
  };
  const alreadyComplete = checkpoint?.data.complete === true;

  // Stopping. A fatal error stops the reading; the batches in flight finish and are saved. A signal
  // (Ctrl-C) also abandons the batches in flight at once: whether or not the service committed them,
  // the same command sends them again with the same keys.
  let fatal: CliError | undefined;
  const stop = interruption((signal, earlier) => {
    if (earlier) process.exit(interruptedExitCode(signal));
    output.note(`\n${signal}: saving the checkpoint; the same command resumes…`);
  });

  const progress = output.progress({
    format: 'import {bar} {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {remaining} | {created} created, {refused} refused',
    plain: ({ value, total, payload }) =>
      `import: ${formatCount(value)}/${total > value ? '~' : ''}${formatCount(Math.max(total, value))} rows` +
      ` · ${payload.rate} rows/s · ETA ${payload.remaining} · ${payload.created} created · ${payload.refused} refused`,
  });
  const progressStarted = performance.now();
  const showProgress = () => {
    const seconds = (performance.now() - progressStarted) / 1000;
    const rate = seconds > 0 ? counters.finishedRows / seconds : 0;
    const total = Math.max(estimatedRows, counters.rows);
    progress.update(
      counters.finishedRows,
      {
        rate: formatCount(rate),
        remaining: rate > 0 ? formatSeconds((total - counters.finishedRows) / rate) : '?',
        created: formatCount(checkpoint?.data.created ?? 0),
        refused: formatCount(counters.refusedLocally + counters.refusedByService),
      },
      total,
    );
  };
  progress.start(estimatedRows, { rate: '0', remaining: '?', created: formatCount(checkpoint?.data.created ?? 0), refused: '0' });

  const refuseLocally = async (refused: RefusedRow) => {
    counters.refusedLocally += 1;
    counters.finishedRows += 1;
    await report.add(refused);
  };

  /** Sends `rows` (a batch, or part of one) under `key`; refused items are split off and the rest sent again. */
  const sendPart = async (batch: number, key: string, rows: PreparedRow[], refusedHere: RefusedRow[]): Promise<{ created: number; replayed: boolean }> => {
    if (!batches) throw new Error('no connection');
    try {
      const { text, headers } = await batches.send({
        method: 'POST',
        path: '/tasks/batch',
        body: { tasks: rows.map((r) => r.task) },
        idempotent: true,
        options: { idempotencyKey: key, signal: stop.signal },
      });
      const body = JSON.parse(text ?? '{}') as TaskBatchCreated;
      return { created: body.created, replayed: headers.get('idempotent-replayed') === 'true' };
    } catch (error) {
      if (!(error instanceof ConcordValidationError)) throw error;
      const named = error.code === 'INVALID_TASK' && typeof error.taskIndex === 'number' ? rows[error.taskIndex] : undefined;
      if (named) {
        const itemCode = typeof error.details?.code === 'string' ? error.details.code : error.code;
        refusedHere.push({ row: named.row, code: itemCode, message: error.message });
        const rest = rows.filter((row) => row !== named);
        if (rest.length === 0) return { created: 0, replayed: false };
        return sendPart(batch, partKey(batch, rest), rest, refusedHere);
      }
      if (rows.length === 1) {
        refusedHere.push({ row: (rows[0] as PreparedRow).row, code: error.code, message: error.message });
        return { created: 0, replayed: false };
      }
      // A refusal that names no item (413, a screen of the whole body): halve until the row is found.
      const middle = Math.ceil(rows.length / 2);
      const first = await sendPart(batch, partKey(batch, rows.slice(0, middle)), rows.slice(0, middle), refusedHere);
      const second = await sendPart(batch, partKey(batch, rows.slice(middle)), rows.slice(middle), refusedHere);
      return { created: first.created + second.created, replayed: first.replayed && second.replayed };
    }
  };
  /** The key of part of a batch: the batch's, and a digest of which rows the part holds. */
  const partKey = (batch: number, rows: PreparedRow[]) => `${keyPrefix}-${batch}-${hash(rows.map((row) => row.row).join(',')).slice(0, 16)}`;

  const inFlight = new Set<Promise<void>>();
  const dispatch = (batch: number, lastRow: number, rows: PreparedRow[], refusedByLookup: RefusedRow[]) => {
    counters.batchesSent += 1;
    checkpoint?.sending(batch);
    const work = (async () => {
      const refusedHere: RefusedRow[] = [];
      try {
        const result = await sendPart(batch, `${keyPrefix}-${batch}`, rows, refusedHere);
        if (result.replayed) counters.batchesReplayed += 1;
        counters.createdThisRun += result.created;
        counters.refusedByService += refusedHere.length;
        counters.finishedRows += rows.length;
        for (const refused of refusedHere) await report.add(refused);
        checkpoint?.committed(batch, lastRow, result.created, refusedHere, refusedByLookup);
        showProgress();
      } catch (error) {
        if (!stop.signal.aborted) fatal ??= describeFailure(error, batch);
      }
    })();
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  // Projects named by rows (or --project), checked once each against the buyer's.
  const projects = new Map<string, Promise<boolean>>();
  const ownsProject = (projectId: string): Promise<boolean> | boolean => {
    if (!client) return true;
    const known = projects.get(projectId);
    if (known) return known;
    if (projects.size >= MAX_CHECKED_PROJECTS) return true;
    const check = client.projects.get(projectId).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ConcordNotFoundError) return false;
        throw error;
      },
    );
    projects.set(projectId, check);
    return check;
  };

  // The batch being filled: the next --batch-size source rows (fewer when their JSON would pass 9 MiB),
  // refused or not, so that the cut never depends on what a check answers.
  let current: SourceRow[] = [];
  let currentBytes = 2;
  const verifySkipped = (batch: number, lastRow: number) => {
    const stored = checkpoint?.lastRowOf(batch);
    if (stored === undefined || stored === lastRow || checkpoint?.data.version !== 2) return;
    throw new CliError(
      EXIT.USAGE,
      'IMPORT_BATCHES_CHANGED',
      `Batch ${batch} ended at row ${formatCount(stored)} in the earlier run and at row ${formatCount(lastRow)} now: the checkpoint ${checkpoint.file} ` +
        `does not describe this file's batches, so skipping by it could leave rows out. The import stops; ${RESTART_HINT}`,
      { checkpointFile: checkpoint.file, batch },
    );
  };
  const closeBatch = async () => {
    if (current.length === 0) return;
    const batch = counters.batches;
    counters.batches += 1;
    const entries = current;
    const lastRow = (entries[entries.length - 1] as SourceRow).row;
    current = [];
    currentBytes = 2;
    if (checkpoint && (alreadyComplete || checkpoint.isDone(batch))) {
      // Committed by an earlier run: its rows refused by a lookup are in the checkpoint, not asked again.
      verifySkipped(batch, lastRow);
      counters.batchesSkipped += 1;
      for (const entry of entries) {
        if ('refused' in entry) await refuseLocally(entry.refused);
        else counters.finishedRows += 1;
      }
      return;
    }
    const rows: PreparedRow[] = [];
    const refusedByLookup: RefusedRow[] = [];
    for (const entry of entries) {
      if ('refused' in entry) {
        await refuseLocally(entry.refused);
        continue;
      }
      const { task } = entry;
      if (typeof task.projectId === 'string' && !(await ownsProject(task.projectId))) {
        const refused = { row: entry.row, code: 'INVALID_PROJECT', message: `projectId ${task.projectId} is not one of your projects` };
        refusedByLookup.push(refused);
        await refuseLocally(refused);
        continue;
      }
      counters.reservedCents += typeof task.maxCents === 'number' ? task.maxCents : Math.max(DEFAULT_PRICE_CENTS, priceCents);
      rows.push(entry);
    }
    if (dryRun) {
      counters.finishedRows += rows.length;
      return;
    }
    if (rows.length === 0) {
      checkpoint?.committed(batch, lastRow, 0, [], refusedByLookup);
      return;
    }
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    if (fatal || stop.received) return;
    dispatch(batch, lastRow, rows, refusedByLookup);
  };

  try {
    // Even when every batch is committed already, the file is read again: the batches are found by
    // position, and the error report is rebuilt whole.
    for await (const row of readRows(file, format, survey.utf8)) {
      if (fatal || stop.received) break;
      counters.rows += 1;
      let entry: SourceRow;
      let bytes = 0;
      if (!row.ok) entry = { row: row.row, refused: { row: row.row, code: row.code, message: row.message } };
      else {
        const task =
          options.project !== undefined && (row.task.projectId === undefined || row.task.projectId === null)
            ? { ...row.task, projectId: options.project }
            : row.task;
        bytes = jsonSizeBound(task);
        if (bytes > EXACT_SIZE_ABOVE) bytes = Buffer.byteLength(JSON.stringify(task));
        const check = checkTask(task, priceCents);
        entry = check.ok ? { row: row.row, task } : { row: row.row, refused: { row: row.row, code: check.code, message: check.message } };
      }
      if (current.length >= options.batchSize || (current.length > 0 && currentBytes + bytes + 1 > MAX_BATCH_BYTES)) await closeBatch();
      current.push(entry);
      currentBytes += bytes + 1;
      if (counters.rows % 1_000 === 0) showProgress();
    }
    if (!fatal && !stop.received) await closeBatch();
  } catch (error) {
    fatal ??= toCliError(error);
  } finally {
    await Promise.all(inFlight);
    stop.dispose();
  }
  showProgress();
  progress.stop();
  await report.close();

  const complete = !fatal && !stop.received;
  if (checkpoint) {
    if (complete && !alreadyComplete) checkpoint.finish();
    await checkpoint.flush();
  }
  const seconds = (performance.now() - started) / 1000;
  const refusedByService = checkpoint ? checkpoint.data.refusedByService.length : counters.refusedByService;
  const summary: ImportSummary = {
    file,
    format,
    dryRun,
    complete,
    resumed,
    rows: counters.rows,
    created: checkpoint?.data.created ?? 0,
    refused: counters.refusedLocally + refusedByService,
    refusedLocally: counters.refusedLocally,
    refusedByService,
    batches: counters.batches,
    batchesSent: counters.batchesSent,
    batchesSkipped: counters.batchesSkipped,
    batchesReplayed: counters.batchesReplayed,
    reservedCents: counters.reservedCents,
    seconds: Math.round(seconds * 100) / 100,
    rowsPerSec: seconds > 0 ? Math.round(counters.rows / seconds) : 0,
    errorsFile: report.count > 0 ? errorsFile : null,
    checkpointFile: checkpoint?.file ?? null,
    importId: dryRun ? null : importId,
    priceCents,
    checkedAgainstService: client !== undefined,
  };
  if (stop.received)
    throw interruptedError(stop.received, `Interrupted after ${formatCount(summary.created)} tasks; run the same command again to resume`, { summary });
  if (fatal) {
    const resume =
      summary.checkpointFile && (counters.batchesSent > 0 || resumed) && fatal.code !== 'IMPORT_BATCHES_CHANGED'
        ? ' Run the same command again to resume once this is fixed.'
        : '';
    throw new CliError(fatal.exitCode, fatal.code, `${fatal.message}.${resume}`, { ...fatal.extra, summary });
  }
  return summary;
}

function describeFailure(error: unknown, batch: number): CliError {
  const failure = toCliError(error);
  if (error instanceof ConcordError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
    return new CliError(
      EXIT.API_ERROR,
      error.code,
      `Batch ${batch} was sent before with other content under the same key (the service's projects or rules changed since the first run?)`,
      failure.extra,
    );
  }
  return new CliError(failure.exitCode, failure.code, `Batch ${batch}: ${failure.message}`, failure.extra);
}

export function describeImport(summary: ImportSummary): string {
  const lines: string[] = [];
  const refused =
    summary.refused > 0
      ? `, ${formatCount(summary.refused)} row${summary.refused === 1 ? '' : 's'} refused (${summary.errorsFile ?? 'see the error report'})`
      : '';
  if (summary.dryRun) {
    lines.push(
      `Dry run of ${summary.file}: ${formatCount(summary.rows)} rows, ${formatCount(summary.rows - summary.refused)} valid in ${formatCount(summary.batches)} batches` +
        `${refused}; they would reserve ${formatCount(summary.reservedCents)} cents.${summary.checkedAgainstService ? '' : ' (Not checked against the service: no credential.)'}`,
    );
    return lines.join('\n');
  }
  lines.push(
    `Imported ${summary.file}: ${formatCount(summary.created)} tasks created${refused}, in ${formatSeconds(summary.seconds)} (${formatCount(summary.rowsPerSec)} rows/s).`,
  );
  if (summary.resumed && summary.batchesSkipped > 0)
    lines.push(`Resumed: ${formatCount(summary.batchesSkipped)} batches committed by an earlier run were skipped.`);
  if (summary.batchesReplayed > 0)
    lines.push(`${formatCount(summary.batchesReplayed)} batches had been committed already; the service replayed their answers (nothing created twice).`);
  return lines.join('\n');
}
