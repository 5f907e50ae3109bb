// GET /exports: checks the request (nothing is streamed before it passes), then streams the file — or a
// ZIP of train/val/test files — from one database snapshot, a page at a time with back-pressure. A
// client that goes away destroys the stream, which closes the cursor and frees the connection.
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { BadRequestError } from '../../lib/errors.ts';
import {
  EXPORT_EXTENSIONS,
  EXPORT_FORMATS,
  exportFileName,
  isExportFormat,
  parseRatio as readRatio,
  ratiosAddUp,
  splitSizes,
  type ExportFormat,
} from '@concord/contract';
import { FORMATS, type FileFormat as FormatWriter } from './export-formats.ts';
import type { ExportFilters, ExportSession, ExportsRepository, SplitCut } from './exports.repository.ts';
import type { ExportRecord } from './export-formats.ts';
import { rankGroups } from '../../consensus/kinds/pairwise-task.ts';
import type { RankedCandidate } from '../../consensus/kinds/pairwise.ts';

export interface ExportQuery {
  format?: string;
  status?: string;
  projectId?: string;
  type?: string;
  locale?: string;
  trainRatio?: string;
  valRatio?: string;
  testRatio?: string;
  seed?: string;
  minConfidence?: number;
  /** The preference format: whether tied pairs are written (as A and B, with tie: true). */
  includeTies?: boolean;
}

export interface ExportDownload {
  contentType: string;
  filename: string;
  body: Readable;
  /** Ends the database reads at once (the client went away); safe to call more than once. */
  abort(): Promise<void>;
  /** A split's records per file, known before the first byte is sent (null: one plain file). */
  parts: SplitParts | null;
}

export type SplitParts = { train: number; val: number; test: number };

type Split = { kind: 'none' } | { kind: 'split'; train: number; val: number; test: number };

/** A format's writer and its files' extension. */
type FileFormat = FormatWriter & { extension: string };
/** Records are written in chunks of about this many characters. */
const CHUNK_CHARS = 16 * 1024;
/** Fast deflate: exports are large and text compresses well even at level 1. */
const ZIP_LEVEL = 1;
/** A fixed entry date makes the same request give a byte-identical archive. */
const ZIP_ENTRY_DATE = new Date('2000-01-01T00:00:00.000Z');

const invalidRatios = (message: string) => new BadRequestError('INVALID_RATIOS', message);

function parseRatio(name: string, value: string): number {
  const ratio = readRatio(value);
  if (ratio === null) throw invalidRatios(`${name} must be a decimal between 0 and 1`);
  return ratio;
}

/** Only trainRatio → no split; all three → a split summing to 1; anything else is INVALID_RATIOS. */
export function parseSplit(query: Pick<ExportQuery, 'trainRatio' | 'valRatio' | 'testRatio'>): Split {
  const given = [query.trainRatio, query.valRatio, query.testRatio].map((v) => v !== undefined);
  if (given.every((g) => !g)) return { kind: 'none' };
  if (given[0] && !given[1] && !given[2]) {
    parseRatio('trainRatio', query.trainRatio as string);
    return { kind: 'none' };
  }
  if (!given.every(Boolean)) throw invalidRatios('Give trainRatio alone (no split) or trainRatio, valRatio and testRatio together');
  const train = parseRatio('trainRatio', query.trainRatio as string);
  const val = parseRatio('valRatio', query.valRatio as string);
  const test = parseRatio('testRatio', query.testRatio as string);
  if (!ratiosAddUp(train, val, test)) throw invalidRatios(`The ratios add up to ${train + val + test}, not 1.0`);
  return { kind: 'split', train, val, test };
}

function parseFormat(value: string | undefined): ExportFormat {
  if (!isExportFormat(value)) throw new BadRequestError('INVALID_FORMAT', `format must be one of ${EXPORT_FORMATS.join(', ')}`);
  return value;
}

/** One file's text as it grows: begin, then each record (numbered within the file), then end, in chunks. */
class FileText {
  private chunk: string;
  private index = 0;

  constructor(private readonly format: FileFormat) {
    this.chunk = format.begin;
  }

  /** Adds a record; returns a chunk to write once about CHUNK_CHARS have gathered. */
  add(record: ExportRecord): string | undefined {
    this.chunk += this.format.record(record, this.index++);
    return this.chunk.length >= CHUNK_CHARS ? this.take() : undefined;
  }

  /** The rest of the file, its end included. */
  end(): string {
    this.chunk += this.format.end;
    return this.take();
  }

  private take(): string {
    const text = this.chunk;
    this.chunk = '';
    return text;
  }
}

/** One file's text, pulled: begin, the records in chunks, end. */
async function* fileText(records: AsyncIterable<ExportRecord>, format: FileFormat): AsyncGenerator<string> {
  const text = new FileText(format);
  for await (const record of records) {
    const chunk = text.add(record);
    if (chunk) yield chunk;
  }
  const rest = text.end();
  if (rest) yield rest;
}

export class ExportsService {
  constructor(
    /** Streaming reads on the pg pool (server-side cursors). */
    private readonly records: ExportsRepository,
  ) {}

  async open(buyerId: string, query: ExportQuery): Promise<ExportDownload> {
    const formatName = parseFormat(query.format);
    if (query.includeTies !== undefined && formatName !== 'preference') {
      // Asked of a format that has no ties to leave out: said, not silently ignored.
      throw new BadRequestError('VALIDATION_ERROR', 'includeTies goes with format=preference only', {
        issues: [{ path: 'includeTies', message: 'only the preference format takes includeTies' }],
      });
    }
    const split = parseSplit(query);
    const format: FileFormat = { ...FORMATS[formatName], extension: EXPORT_EXTENSIONS[formatName] };
    const filters: ExportFilters = {
      buyerId,
      status: query.status ?? 'COMPLETED',
      projectId: query.projectId,
      type: query.type,
      locale: query.locale,
      minConfidence: query.minConfidence,
      ...(formatName === 'preference' ? { pairs: { includeTies: query.includeTies === true } } : {}),
    };
    const session = await this.records.open(filters);
    let rankings: Map<string, RankedCandidate[]> | undefined;
    try {
      rankings = format.ranksGroups ? rankGroups(await session.groupPairs()) : undefined;
    } catch (error) {
      await session.close();
      throw error;
    }
    if (split.kind === 'none') {
      const body = Readable.from(fileText(session.records(undefined, rankings), format), { objectMode: false });
      // 'close' follows the end, an error and a destroy alike: the snapshot ends however the file does.
      body.once('close', () => void session.close());
      const abort = async () => {
        body.destroy();
        await session.close();
      };
      return { contentType: format.contentType, filename: exportFileName(formatName, false), body, abort, parts: null };
    }
    const { archive, parts } = await this.zip(session, format, split, query.seed ?? '', rankings);
    const abort = async () => {
      archive.destroy();
      await session.close();
    };
    return { contentType: 'application/zip', filename: exportFileName(formatName, true), body: archive, abort, parts };
  }

  /**
   * Two boundaries of the shuffle (one sort of keys and ids) tag every record with its member; one pass
   * in export order then writes train straight into the archive and spools val and test (formatted, 20 %
   * of a typical split) to temporary files, which follow train into the archive once the pass is done.
   */
  private async zip(
    session: ExportSession,
    format: FileFormat,
    split: Extract<Split, { kind: 'split' }>,
    seed: string,
    rankings: ReadonlyMap<string, RankedCandidate[]> | undefined,
  ): Promise<{ archive: Readable; parts: SplitParts }> {
    let cut: SplitCut;
    let spool: SpoolDir;
    let sizes: SplitParts;
    try {
      sizes = splitSizes(await session.count(), split.train, split.val);
      const [lastTrain = null, lastVal = null] = await session.boundaries(seed, [sizes.train, sizes.train + sizes.val]);
      cut = { seed, lastTrain, lastVal };
      spool = await SpoolDir.create();
    } catch (error) {
      await session.close();
      throw error;
    }
    const files = [spool.file('val', format), spool.file('test', format)] as const;
    async function* train(): AsyncGenerator<ExportRecord> {
      for await (const record of session.records(cut, rankings)) {
        if (record.bucket === 0) yield record;
        else await files[record.bucket === 1 ? 0 : 1].add(record);
      }
      await Promise.all(files.map((file) => file.finish()));
    }
    const archive = new ZipArchive({ zlib: { level: ZIP_LEVEL } });
    const members: Array<{ name: string; stream: () => Readable }> = [
      { name: 'train', stream: () => Readable.from(fileText(train(), format), { objectMode: false }) },
      { name: 'val', stream: () => files[0].read() },
      { name: 'test', stream: () => files[1].read() },
    ];
    const streams: Readable[] = [];
    const appendMember = () => {
      const member = members[streams.length];
      if (!member) return;
      const stream = member.stream();
      streams.push(stream);
      archive.append(stream, { name: `${member.name}.${format.extension}`, date: ZIP_ENTRY_DATE });
    };
    let finalized = false;
    archive.on('entry', () => {
      if (streams.length < members.length) appendMember();
      if (streams.length === members.length && !finalized) {
        finalized = true;
        archive.finalize().catch(cleanup);
      }
    });
    let cleaned = false;
    function cleanup() {
      if (cleaned) return;
      cleaned = true;
      for (const stream of streams) stream.destroy();
      for (const file of files) file.destroy();
      void session.close();
      void spool.remove();
    }
    archive.once('close', cleanup);
    archive.once('end', cleanup);
    archive.once('error', cleanup);
    appendMember();
    return { archive, parts: sizes };
  }
}

/** A private temporary directory for one export's spooled members; removed when the export ends. */
class SpoolDir {
  private constructor(private readonly dir: string) {}

  static async create(): Promise<SpoolDir> {
    return new SpoolDir(await mkdtemp(path.join(os.tmpdir(), 'concord-export-')));
  }

  file(name: string, format: FileFormat): SpoolFile {
    return new SpoolFile(path.join(this.dir, `${name}.${format.extension}`), format);
  }

  remove(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }
}

/** One member's text written to disk as the pass finds its records, with back-pressure. */
class SpoolFile {
  private readonly out: WriteStream;
  private readonly text: FileText;

  constructor(
    private readonly filePath: string,
    format: FileFormat,
  ) {
    this.out = createWriteStream(filePath);
    this.text = new FileText(format);
  }

  async add(record: ExportRecord): Promise<void> {
    const chunk = this.text.add(record);
    if (chunk) await this.write(chunk);
  }

  async finish(): Promise<void> {
    await this.write(this.text.end());
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(resolve);
    });
  }

  read(): Readable {
    return createReadStream(this.filePath);
  }

  /** Closes the file at once (the export ended early); a no-op once finished. */
  destroy(): void {
    this.out.destroy();
  }

  private async write(text: string): Promise<void> {
    if (text && !this.out.write(text)) await once(this.out, 'drain');
  }
}
