// An import's checkpoint: which batches the service has committed, so that the same command run again
// after an interruption skips them. Small whatever the file's size: batches done below `doneBelow` are a
// number, the few done out of order above it a list. The service refuses nothing twice because a batch
// it committed but whose answer never arrived carries the same Idempotency-Key when it is sent again
// (replayed, contract §4): the checkpoint saves those requests, the keys make them harmless.
// Version 2: batches are windows of source rows (import.ts), whatever the checks decide of each row; the
// last source row of each committed batch is kept, so a resume can verify it skips the same rows.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './config.ts';

export interface RefusedRow {
  row: number;
  code: string;
  message: string;
}

export interface CheckpointData {
  version: 2;
  /** The Idempotency-Key prefix's id: the parameters' digest, salted by --restart. */
  importId: string;
  file: string;
  sha256: string;
  format: string;
  batchSize: number;
  projectId: string | null;
  priceCents: number;
  baseUrl: string;
  buyerId: string;
  startedAt: string;
  updatedAt: string;
  complete: boolean;
  /** Every batch numbered below this is committed. */
  doneBelow: number;
  /** The last source row of batch doneBelow - 1 (0 when none). */
  doneBelowRow: number;
  /** Committed batches numbered from doneBelow up. */
  done: number[];
  /** The last source row of each batch in `done`. */
  doneRows: Record<string, number>;
  /** Tasks the service created for this import, over every run. */
  created: number;
  /** Rows the service refused (the local refusals are found again by reading the file). */
  refusedByService: RefusedRow[];
  /**
   * Rows of committed batches refused because their projectId was not the buyer's: the answer of a
   * lookup, which may change, so it is kept rather than asked again for a batch that is skipped.
   */
  refusedByLookup: RefusedRow[];
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

  /** The checkpoint stored at `file`, if any (an unreadable or malformed one counts as none). */
  static async read(file: string): Promise<Partial<CheckpointData> | undefined> {
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as unknown;
      return stored !== null && typeof stored === 'object' ? (stored as Partial<CheckpointData>) : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  /** Goes on with a stored checkpoint (its `file` field updated to where the import file is now). */
  static resume(file: string, stored: CheckpointData, importFile: string): Checkpoint {
    return new Checkpoint(file, { ...stored, file: importFile, refusedByLookup: stored.refusedByLookup ?? [], doneRows: stored.doneRows ?? {} });
  }

  /** A new checkpoint, written at the first change. */
  static create(
    file: string,
    fresh: Omit<
      CheckpointData,
      | 'version'
      | 'startedAt'
      | 'updatedAt'
      | 'complete'
      | 'doneBelow'
      | 'doneBelowRow'
      | 'done'
      | 'doneRows'
      | 'created'
      | 'refusedByService'
      | 'refusedByLookup'
      | 'inFlight'
    >,
  ): Checkpoint {
    const now = new Date().toISOString();
    return new Checkpoint(file, {
      version: 2,
      ...fresh,
      startedAt: now,
      updatedAt: now,
      complete: false,
      doneBelow: 0,
      doneBelowRow: 0,
      done: [],
      doneRows: {},
      created: 0,
      refusedByService: [],
      refusedByLookup: [],
      inFlight: {},
    });
  }

  isDone(batch: number): boolean {
    return batch < this.data.doneBelow || this.doneAbove.has(batch);
  }

  /** The last source row a committed batch covered, when the checkpoint still knows it. */
  lastRowOf(batch: number): number | undefined {
    if (batch === this.data.doneBelow - 1) return this.data.doneBelowRow;
    return this.data.doneRows[String(batch)];
  }

  sending(batch: number): void {
    this.data.inFlight[String(batch)] ??= new Date().toISOString();
    this.changed();
  }

  /**
   * The batch, which ended at source row `lastRow`, is committed: `created` tasks, `refused` rows the
   * service turned away on the way, `refusedByLookup` rows left out because of their projectId.
   */
  committed(batch: number, lastRow: number, created: number, refused: RefusedRow[], refusedByLookup: RefusedRow[] = []): void {
    delete this.data.inFlight[String(batch)];
    this.data.created += created;
    this.data.refusedByService.push(...refused);
    this.data.refusedByLookup.push(...refusedByLookup);
    this.doneAbove.add(batch);
    this.data.doneRows[String(batch)] = lastRow;
    while (this.doneAbove.delete(this.data.doneBelow)) {
      this.data.doneBelowRow = this.data.doneRows[String(this.data.doneBelow)] ?? 0;
      delete this.data.doneRows[String(this.data.doneBelow)];
      this.data.doneBelow += 1;
    }
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
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
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
