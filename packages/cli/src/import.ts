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
import { BuyerClient, ConcordError, ConcordNotFoundError, ConcordValidationError, HttpClient, type TaskBatchCreated } from '@concord/sdk';
import { Checkpoint, type CheckpointData, type RefusedRow } from './checkpoint.ts';
import { resolveBaseUrl, resolveConnection, stateSubdir, writeFileAtomic, type GlobalOptions } from './config.ts';
import { CliError, EXIT, interruptedError, interruptedExitCode, interruption, toCliError, usageError } from './errors.ts';
import { formatCount, formatSeconds, type Output } from './output.ts';
import { detectFormat, readRows, surveyFile, type ImportFormat, type Row } from './rows.ts';
import { checkTask, jsonSizeBound } from './task-rules.ts';
import { Throughput } from './throughput.ts';
import { BATCH_BODY_MAX_BYTES, budgetFloorCents, DEFAULT_MAX_CENTS, MAX_BATCH_TASKS } from '@concord/contract';

/** The JSON body of one batch stays a tenth under what POST /tasks/batch takes. */
const MAX_BATCH_BYTES = Math.floor(BATCH_BODY_MAX_BYTES * 0.9);
/** Rows whose size bound is above this are measured exactly (the bound is 6 bytes per character). */
const EXACT_SIZE_ABOVE = 16 * 1024;
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
  /** Since the command started, until the last row was finished. */
  seconds: number;
  /** Rows finished (sent, skipped or refused) per second over `seconds`: the progress line's rate (throughput.ts). */
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

/** Everything decided before the first row is read: the file, the service, the parameters and the checkpoint. */
interface ImportPlan {
  file: string;
  format: ImportFormat;
  dryRun: boolean;
  estimatedRows: number;
  utf8: boolean;
  /** The buyer's client (project lookups) and the batches' HTTP client; both absent on an offline dry run. */
  client: BuyerClient | undefined;
  batches: HttpClient | undefined;
  priceCents: number;
  importId: string;
  checkpoint: Checkpoint | undefined;
  resumed: boolean;
}

/**
 * `concord import`: plan (the file, the service, the checkpoint), then read and send (ImportRun: batches
 * cut from source rows, checked, sent with their keys, checkpointed), then report (the summary, or the
 * error that stopped it with the summary so far).
 */
export async function runImport(file: string, options: ImportOptions, output: Output): Promise<ImportSummary> {
  const throughput = new Throughput(performance.now());
  const plan = await planImport(file, options, output);
  const run = new ImportRun(plan, options, output, await openErrorReport(file, options, plan.checkpoint), throughput);
  await run.readAndSend();
  return run.finish();
}

async function planImport(file: string, options: ImportOptions, output: Output): Promise<ImportPlan> {
  await checkOptions(file, options);
  const format = await detectFormat(file, options.format);
  const dryRun = options.dryRun === true;
  const service = await connect(options, dryRun);
  output.note(`Reading ${file} (${format})…`);
  const survey = await surveyFile(file);
  const parameters: ImportParameters = { format, batchSize: options.batchSize, projectId: options.project ?? null, priceCents: service.priceCents };
  const parametersId = hash(
    JSON.stringify({
      v: 1,
      sha256: survey.sha256,
      format,
      batchSize: options.batchSize,
      projectId: options.project ?? null,
      buyerId: service.buyerId,
      priceCents: service.priceCents,
    }),
  ).slice(0, 32);
  const opened = dryRun
    ? { checkpoint: undefined, importId: parametersId, resumed: false }
    : await openCheckpoint({ file, options, output, survey, parameters, parametersId, buyerId: service.buyerId, baseUrl: service.baseUrl });
  return {
    file,
    format,
    dryRun,
    estimatedRows: Math.max(0, format === 'csv' ? survey.lines - 1 : survey.lines),
    utf8: survey.utf8,
    client: service.client,
    batches: service.batches,
    priceCents: service.priceCents,
    ...opened,
  };
}

async function checkOptions(file: string, options: ImportOptions): Promise<void> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw usageError(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`, error.code ?? 'FILE_UNREADABLE');
  });
  if (!info.isFile()) throw usageError(`${file} is not a file`, 'FILE_UNREADABLE');
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1 || options.batchSize > MAX_BATCH_TASKS) {
    throw usageError(`--batch-size must be an integer from 1 to ${MAX_BATCH_TASKS}`);
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 16) {
    throw usageError('--concurrency must be an integer from 1 to 16');
  }
}

/** The service: who imports (keys are per account), at what price; none for a dry run without a credential. */
async function connect(options: ImportOptions, dryRun: boolean) {
  const connection = await resolveConnection(options).catch((error: unknown) => {
    if (dryRun && error instanceof CliError && error.exitCode === EXIT.AUTH) return undefined;
    throw error;
  });
  if (!connection) return { client: undefined, batches: undefined, buyerId: 'offline', priceCents: DEFAULT_MAX_CENTS, baseUrl: await resolveBaseUrl(options) };
  const clientOptions = { baseUrl: connection.baseUrl, headers: { 'user-agent': options.userAgent }, maxRetries: 6, maxRetryDelayMs: 15_000 };
  const client = new BuyerClient({ ...clientOptions, apiKey: connection.apiKey });
  const [me, meta] = await Promise.all([client.auth.me(), BuyerClient.meta(clientOptions)]);
  return {
    client,
    batches: new HttpClient(clientOptions, connection.apiKey),
    buyerId: me.id,
    priceCents: meta.priceCents,
    baseUrl: connection.baseUrl,
  };
}

/**
 * The checkpoint: at --checkpoint or <import id>.json, or wherever the index of this file (its content and
 * the buyer) points, whatever the parameters it was started with. An unfinished one with other parameters
 * is a usage error; --restart discards what is found and salts the import id.
 */
async function openCheckpoint(input: {
  file: string;
  options: ImportOptions;
  output: Output;
  survey: { sha256: string };
  parameters: ImportParameters;
  parametersId: string;
  buyerId: string;
  baseUrl: string;
}): Promise<{ checkpoint: Checkpoint; importId: string; resumed: boolean }> {
  const { options, output, survey, parameters, parametersId, buyerId } = input;
  const absolute = path.resolve(input.file);
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
    if (data?.sha256 === survey.sha256 && data.buyerId === buyerId) found.push({ file: candidate, data, differences: parameterDifferences(data, parameters) });
  }
  let importId = parametersId;
  let checkpoint: Checkpoint | undefined;
  let resumed = false;
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
    format: parameters.format,
    batchSize: options.batchSize,
    projectId: options.project ?? null,
    priceCents: parameters.priceCents,
    baseUrl: input.baseUrl,
    buyerId,
  });
  await writeFileAtomic(indexFile, `${JSON.stringify({ checkpoint: checkpoint.file })}\n`, 0o600);
  if (resumed) describeResumed(checkpoint, output);
  return { checkpoint, importId, resumed };
}

function describeResumed(checkpoint: Checkpoint, output: Output): void {
  const data = checkpoint.data;
  if (data.complete) output.note(`This file was already imported (${formatCount(data.created)} tasks, checkpoint ${checkpoint.file}); nothing is sent again.`);
  else output.note(`Resuming: ${formatCount(data.doneBelow + data.done.length)} batches were committed by an earlier run (checkpoint ${checkpoint.file}).`);
  const stale = checkpoint.staleInFlight(KEY_LIFETIME_MS - 60 * 60 * 1000);
  if (stale.length > 0 && !data.complete) {
    output.warn(
      `batch${stale.length > 1 ? 'es' : ''} ${stale.join(', ')} went unanswered more than 23 hours ago; the service keeps Idempotency-Keys for 24 hours, ` +
        'so if it committed them, their tasks are created again now',
    );
  }
}

/** The error report, rewritten whole by each run: the refusals an earlier run recorded come first. */
async function openErrorReport(file: string, options: ImportOptions, checkpoint: Checkpoint | undefined): Promise<ErrorReport> {
  const errorsFile = path.resolve(options.errors ?? `${file}.errors.csv`);
  await rm(errorsFile, { force: true });
  const report = new ErrorReport(errorsFile);
  for (const refused of checkpoint?.data.refusedByService ?? []) await report.add(refused);
  for (const refused of checkpoint?.data.refusedByLookup ?? []) await report.add(refused);
  return report;
}

/** One run of an import: reads the rows, cuts them into batches, checks, sends and checkpoints them. */
class ImportRun {
  /** The summary's running counts, and the rows finished (sent, skipped or refused: what the progress line counts). */
  private readonly counters: Pick<
    ImportSummary,
    'rows' | 'refusedLocally' | 'refusedByService' | 'batches' | 'batchesSent' | 'batchesSkipped' | 'batchesReplayed' | 'reservedCents'
  > & { finishedRows: number };
  private readonly alreadyComplete: boolean;
  private readonly keyPrefix: string;
  /** The error that stops the reading; the batches in flight finish and are saved. */
  private fatal: CliError | undefined;
  /**
   * A signal (Ctrl-C) stops the reading and abandons the batches in flight at once: whether or not the
   * service committed them, the same command sends them again with the same keys.
   */
  private readonly stop: ReturnType<typeof interruption>;
  private readonly progress: ReturnType<Output['progress']>;
  private readonly inFlight = new Set<Promise<void>>();
  /** Projects named by rows (or --project), checked once each against the buyer's. */
  private readonly projects = new Map<string, Promise<boolean>>();
  /** The batch being filled and the size bound of its JSON body. */
  private current: SourceRow[] = [];
  private currentBytes = 2;

  constructor(
    private readonly plan: ImportPlan,
    private readonly options: ImportOptions,
    private readonly output: Output,
    private readonly report: ErrorReport,
    /** The rate the progress line shows and the summary reports: one clock, one count (finishedRows). */
    private readonly throughput: Throughput,
  ) {
    const stored = plan.checkpoint?.data;
    this.counters = {
      rows: 0,
      refusedLocally: stored?.refusedByLookup.length ?? 0,
      refusedByService: stored?.refusedByService.length ?? 0,
      batches: 0,
      batchesSent: 0,
      batchesSkipped: 0,
      batchesReplayed: 0,
      reservedCents: 0,
      finishedRows: 0,
    };
    this.alreadyComplete = stored?.complete === true;
    this.keyPrefix = `cnc-import-${plan.importId}`;
    this.stop = interruption((signal, earlier) => {
      if (earlier) process.exit(interruptedExitCode(signal));
      output.note(`\n${signal}: saving the checkpoint; the same command resumes…`);
    });
    this.progress = output.progress({
      format: 'import {bar} {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {remaining} | {created} created, {refused} refused',
      plain: ({ value, total, payload }) =>
        `import: ${formatCount(value)}/${total > value ? '~' : ''}${formatCount(Math.max(total, value))} rows` +
        ` · ${payload.rate} rows/s · ETA ${payload.remaining} · ${payload.created} created · ${payload.refused} refused`,
    });
    this.progress.start(plan.estimatedRows, { rate: '0', remaining: '?', created: formatCount(stored?.created ?? 0), refused: '0' });
  }

  /**
   * Reads every row (even when every batch is committed already: the batches are found by position, and
   * the error report is rebuilt whole), cutting a batch at every --batch-size source rows or 9 MiB.
   */
  async readAndSend(): Promise<void> {
    try {
      for await (const row of readRows(this.plan.file, this.plan.format, this.plan.utf8)) {
        if (this.fatal || this.stop.received) break;
        this.counters.rows += 1;
        const { entry, bytes } = this.sourceRow(row);
        if (this.current.length >= this.options.batchSize || (this.current.length > 0 && this.currentBytes + bytes + 1 > MAX_BATCH_BYTES))
          await this.closeBatch();
        this.current.push(entry);
        this.currentBytes += bytes + 1;
        if (this.counters.rows % 1_000 === 0) this.showProgress();
      }
      if (!this.fatal && !this.stop.received) await this.closeBatch();
    } catch (error) {
      this.fatal ??= toCliError(error);
    } finally {
      await Promise.all(this.inFlight);
      this.stop.dispose();
    }
    this.throughput.end();
    this.showProgress();
    this.progress.stop();
    await this.report.close();
  }

  /** A row read: its task (with --project) checked by the service's rules, and a bound of its JSON size. */
  private sourceRow(row: Row): { entry: SourceRow; bytes: number } {
    if (!row.ok) return { entry: { row: row.row, refused: { row: row.row, code: row.code, message: row.message } }, bytes: 0 };
    const project = this.options.project;
    const task = project !== undefined && (row.task.projectId === undefined || row.task.projectId === null) ? { ...row.task, projectId: project } : row.task;
    let bytes = jsonSizeBound(task);
    if (bytes > EXACT_SIZE_ABOVE) bytes = Buffer.byteLength(JSON.stringify(task));
    const check = checkTask(task, this.plan.priceCents);
    return { entry: check.ok ? { row: row.row, task } : { row: row.row, refused: { row: row.row, code: check.code, message: check.message } }, bytes };
  }

  /**
   * Closes the batch being filled: skipped when an earlier run committed it, else its rows checked
   * against the buyer's projects and the rest sent (at most --concurrency batches in flight).
   */
  private async closeBatch(): Promise<void> {
    if (this.current.length === 0) return;
    const { checkpoint } = this.plan;
    const batch = this.counters.batches;
    this.counters.batches += 1;
    const entries = this.current;
    const lastRow = (entries[entries.length - 1] as SourceRow).row;
    this.current = [];
    this.currentBytes = 2;
    if (checkpoint && (this.alreadyComplete || checkpoint.isDone(batch))) {
      // Committed by an earlier run: its rows refused by a lookup are in the checkpoint, not asked again.
      this.verifySkipped(batch, lastRow);
      this.counters.batchesSkipped += 1;
      for (const entry of entries) {
        if ('refused' in entry) await this.refuseLocally(entry.refused);
        else this.counters.finishedRows += 1;
      }
      return;
    }
    const rows: PreparedRow[] = [];
    const refusedByLookup: RefusedRow[] = [];
    for (const entry of entries) {
      if ('refused' in entry) {
        await this.refuseLocally(entry.refused);
        continue;
      }
      const { task } = entry;
      if (typeof task.projectId === 'string' && !(await this.ownsProject(task.projectId))) {
        const refused = { row: entry.row, code: 'INVALID_PROJECT', message: `projectId ${task.projectId} is not one of your projects` };
        refusedByLookup.push(refused);
        await this.refuseLocally(refused);
        continue;
      }
      this.counters.reservedCents += typeof task.maxCents === 'number' ? task.maxCents : budgetFloorCents(this.plan.priceCents);
      rows.push(entry);
    }
    if (this.plan.dryRun) {
      this.counters.finishedRows += rows.length;
      return;
    }
    if (rows.length === 0) {
      checkpoint?.committed(batch, lastRow, 0, [], refusedByLookup);
      return;
    }
    while (this.inFlight.size >= this.options.concurrency) await Promise.race(this.inFlight);
    if (this.fatal || this.stop.received) return;
    this.dispatch(batch, lastRow, rows, refusedByLookup);
  }

  /** A batch skipped by the checkpoint must end at the row it ended at before, or skipping could leave rows out. */
  private verifySkipped(batch: number, lastRow: number): void {
    const { checkpoint } = this.plan;
    const stored = checkpoint?.lastRowOf(batch);
    if (!checkpoint || stored === undefined || stored === lastRow || checkpoint.data.version !== 2) return;
    throw new CliError(
      EXIT.USAGE,
      'IMPORT_BATCHES_CHANGED',
      `Batch ${batch} ended at row ${formatCount(stored)} in the earlier run and at row ${formatCount(lastRow)} now: the checkpoint ${checkpoint.file} ` +
        `does not describe this file's batches, so skipping by it could leave rows out. The import stops; ${RESTART_HINT}`,
      { checkpointFile: checkpoint.file, batch },
    );
  }

  private ownsProject(projectId: string): Promise<boolean> | boolean {
    const { client } = this.plan;
    if (!client) return true;
    const known = this.projects.get(projectId);
    if (known) return known;
    if (this.projects.size >= MAX_CHECKED_PROJECTS) return true;
    const check = client.projects.get(projectId).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ConcordNotFoundError) return false;
        throw error;
      },
    );
    this.projects.set(projectId, check);
    return check;
  }

  private async refuseLocally(refused: RefusedRow): Promise<void> {
    this.counters.refusedLocally += 1;
    this.counters.finishedRows += 1;
    await this.report.add(refused);
  }

  /** Sends a batch in the background under its key; its outcome goes to the counters, the report and the checkpoint. */
  private dispatch(batch: number, lastRow: number, rows: PreparedRow[], refusedByLookup: RefusedRow[]): void {
    this.counters.batchesSent += 1;
    this.plan.checkpoint?.sending(batch);
    const work = (async () => {
      const refusedHere: RefusedRow[] = [];
      try {
        const result = await this.sendPart(batch, `${this.keyPrefix}-${batch}`, rows, refusedHere);
        if (result.replayed) this.counters.batchesReplayed += 1;
        this.counters.refusedByService += refusedHere.length;
        this.counters.finishedRows += rows.length;
        for (const refused of refusedHere) await this.report.add(refused);
        this.plan.checkpoint?.committed(batch, lastRow, result.created, refusedHere, refusedByLookup);
        this.showProgress();
      } catch (error) {
        if (!this.stop.signal.aborted) this.fatal ??= describeFailure(error, batch);
      }
    })();
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Sends `rows` (a batch, or part of one) under `key`; refused items are split off and the rest sent again. */
  private async sendPart(batch: number, key: string, rows: PreparedRow[], refusedHere: RefusedRow[]): Promise<{ created: number; replayed: boolean }> {
    const { batches } = this.plan;
    if (!batches) throw new Error('no connection');
    try {
      const { text, headers } = await batches.send({
        method: 'POST',
        path: '/tasks/batch',
        body: { tasks: rows.map((r) => r.task) },
        idempotent: true,
        options: { idempotencyKey: key, signal: this.stop.signal },
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
        return this.sendPart(batch, this.partKey(batch, rest), rest, refusedHere);
      }
      if (rows.length === 1) {
        refusedHere.push({ row: (rows[0] as PreparedRow).row, code: error.code, message: error.message });
        return { created: 0, replayed: false };
      }
      // A refusal that names no item (413, a screen of the whole body): halve until the row is found.
      const middle = Math.ceil(rows.length / 2);
      const first = await this.sendPart(batch, this.partKey(batch, rows.slice(0, middle)), rows.slice(0, middle), refusedHere);
      const second = await this.sendPart(batch, this.partKey(batch, rows.slice(middle)), rows.slice(middle), refusedHere);
      return { created: first.created + second.created, replayed: first.replayed && second.replayed };
    }
  }

  /** The key of part of a batch: the batch's, and a digest of which rows the part holds. */
  private partKey(batch: number, rows: PreparedRow[]): string {
    return `${this.keyPrefix}-${batch}-${hash(rows.map((row) => row.row).join(',')).slice(0, 16)}`;
  }

  private showProgress(): void {
    const rate = this.throughput.rate(this.counters.finishedRows);
    const total = Math.max(this.plan.estimatedRows, this.counters.rows);
    this.progress.update(
      this.counters.finishedRows,
      {
        rate: formatCount(rate),
        remaining: rate > 0 ? formatSeconds((total - this.counters.finishedRows) / rate) : '?',
        created: formatCount(this.plan.checkpoint?.data.created ?? 0),
        refused: formatCount(this.counters.refusedLocally + this.counters.refusedByService),
      },
      total,
    );
  }

  /** Saves the checkpoint and reports: the summary, or the error that stopped the run with the summary so far. */
  async finish(): Promise<ImportSummary> {
    const { checkpoint } = this.plan;
    const complete = !this.fatal && !this.stop.received;
    if (checkpoint) {
      if (complete && !this.alreadyComplete) checkpoint.finish();
      await checkpoint.flush();
    }
    const seconds = this.throughput.seconds();
    const refusedByService = checkpoint ? checkpoint.data.refusedByService.length : this.counters.refusedByService;
    const summary: ImportSummary = {
      file: this.plan.file,
      format: this.plan.format,
      dryRun: this.plan.dryRun,
      complete,
      resumed: this.plan.resumed,
      rows: this.counters.rows,
      created: checkpoint?.data.created ?? 0,
      refused: this.counters.refusedLocally + refusedByService,
      refusedLocally: this.counters.refusedLocally,
      refusedByService,
      batches: this.counters.batches,
      batchesSent: this.counters.batchesSent,
      batchesSkipped: this.counters.batchesSkipped,
      batchesReplayed: this.counters.batchesReplayed,
      reservedCents: this.counters.reservedCents,
      seconds: Math.round(seconds * 100) / 100,
      rowsPerSec: this.throughput.rate(this.counters.finishedRows),
      errorsFile: this.report.count > 0 ? this.report.file : null,
      checkpointFile: checkpoint?.file ?? null,
      importId: this.plan.dryRun ? null : this.plan.importId,
      priceCents: this.plan.priceCents,
      checkedAgainstService: this.plan.client !== undefined,
    };
    if (this.stop.received)
      throw interruptedError(this.stop.received, `Interrupted after ${formatCount(summary.created)} tasks; run the same command again to resume`, { summary });
    const fatal = this.fatal;
    if (fatal) {
      const resume =
        summary.checkpointFile && (this.counters.batchesSent > 0 || this.plan.resumed) && fatal.code !== 'IMPORT_BATCHES_CHANGED'
          ? ' Run the same command again to resume once this is fixed.'
          : '';
      throw new CliError(fatal.exitCode, fatal.code, `${fatal.message}.${resume}`, { ...fatal.extra, summary });
    }
    return summary;
  }
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
