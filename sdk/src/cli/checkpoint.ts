// An import's checkpoint: which batches the service has committed, so that the same command run again
// after an interruption skips them. Small whatever the file's size: batches done below `doneBelow` are a
// number, the few done out of order above it a list. The service refuses nothing twice because a batch
// it committed but whose answer never arrived carries the same Idempotency-Key when it is sent again
// (replayed, contract §4): the checkpoint saves those requests, the keys make them harmless.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './config.ts';

export interface RefusedRow {
  row: number;
  code: string;
  message: string;
}

export interface CheckpointData {
  version: 1;
  importId: string;
  file: string;
  sha256: string;
  format: string;
  batchSize: number;
  projectId: string | null;
  baseUrl: string;
  buyerId: string;
  startedAt: string;
  updatedAt: string;
  complete: boolean;
  /** Every batch numbered below this is committed. */
  doneBelow: number;
  /** Committed batches numbered from doneBelow up. */
  done: number[];
  /** Tasks the service created for this import, over every run. */
  created: number;
  /** Rows the service refused (the local refusals are found again by reading the file). */
  refusedByService: RefusedRow[];
  /** Batches sent and not yet answered, with when they were first sent (their keys live 24 h). */
  inFlight: Record<string, string>;
}

/**
 * Written at most every WRITE_EVERY_MS, and at the end: a batch whose completion was not saved before a
 * kill -9 is sent again, and replayed by the service (harmless).
 */
const WRITE_EVERY_MS = 250;

export class Checkpoint {
  private readonly doneAbove: Set<number>;
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly file: string,
    readonly data: CheckpointData,
  ) {
    this.doneAbove = new Set(data.done);
  }

  /** The checkpoint at `file` when it belongs to this import, else a fresh one. */
  static async open(file: string, fresh: Omit<CheckpointData, 'version' | 'startedAt' | 'updatedAt' | 'complete' | 'doneBelow' | 'done' | 'created' | 'refusedByService' | 'inFlight'>): Promise<{ checkpoint: Checkpoint; resumed: boolean }> {
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as CheckpointData;
      if (stored.version === 1 && stored.importId === fresh.importId) return { checkpoint: new Checkpoint(file, { ...stored, file: fresh.file }), resumed: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    }
    const now = new Date().toISOString();
    const data: CheckpointData = {
      version: 1,
      ...fresh,
      startedAt: now,
      updatedAt: now,
      complete: false,
      doneBelow: 0,
      done: [],
      created: 0,
      refusedByService: [],
      inFlight: {},
    };
    return { checkpoint: new Checkpoint(file, data), resumed: false };
  }

  isDone(batch: number): boolean {
    return batch < this.data.doneBelow || this.doneAbove.has(batch);
  }

  sending(batch: number): void {
    this.data.inFlight[String(batch)] ??= new Date().toISOString();
    this.changed();
  }

  /** The batch is committed: `created` tasks, `refused` rows the service turned away on the way. */
  committed(batch: number, created: number, refused: RefusedRow[]): void {
    delete this.data.inFlight[String(batch)];
    this.data.created += created;
    this.data.refusedByService.push(...refused);
    this.doneAbove.add(batch);
    while (this.doneAbove.delete(this.data.doneBelow)) this.data.doneBelow += 1;
    this.changed();
  }

  /** Batches that were on their way when an earlier run stopped, sent more than `ageMs` ago. */
  staleInFlight(ageMs: number): string[] {
    const limit = Date.now() - ageMs;
    return Object.entries(this.data.inFlight)
      .filter(([, sentAt]) => Date.parse(sentAt) < limit)
      .map(([batch]) => batch);
  }

  finish(): void {
    this.data.complete = true;
    this.data.inFlight = {};
    this.changed();
  }

  /** Saves now, or at the end of the current WRITE_EVERY_MS window (so a stalled import's state is on disk too). */
  private changed(): void {
    this.dirty = true;
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + WRITE_EVERY_MS - Date.now());
    // A failed write is reported by the next flush() the import awaits (at its end, or when it stops).
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined);
    }, wait);
    this.timer.unref();
  }

  /** Writes the checkpoint now (after any write in progress). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.catch(() => undefined).then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      this.lastWrite = Date.now();
      this.data.updatedAt = new Date().toISOString();
      this.data.done = [...this.doneAbove].sort((a, b) => a - b);
      try {
        await writeFileAtomic(this.file, `${JSON.stringify(this.data)}\n`, 0o600);
      } catch (error) {
        this.dirty = true;
        throw error;
      }
    });
    return this.writing;
  }
}
