// What the CLI writes where. stdout carries the result: a human sentence, or with --json one JSON
// document (one JSON line per update for the commands that stream: tasks watch, webhooks listen).
// stderr carries progress and diagnostics, so `concord … --json | jq` always reads clean JSON.
import { SingleBar } from 'cli-progress';

export class Output {
  constructor(
    readonly json: boolean,
    readonly quiet: boolean,
    private readonly out: NodeJS.WritableStream = process.stdout,
    private readonly err: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
  ) {}

  /** The command's result: `text` for people, `data` as one JSON line with --json. */
  result(data: unknown, text: string): void {
    if (this.json) this.out.write(`${JSON.stringify(data)}\n`);
    else if (text) this.out.write(`${text}\n`);
  }

  /** A line for people on stdout (nothing with --json). */
  say(text: string): void {
    if (!this.json) this.out.write(`${text}\n`);
  }

  /** A diagnostic on stderr (kept even with --json; not with --quiet). */
  note(text: string): void {
    if (!this.quiet) this.err.write(`${text}\n`);
  }

  /** A warning on stderr, even with --quiet. */
  warn(text: string): void {
    this.err.write(`warning: ${text}\n`);
  }

  get interactive(): boolean {
    return this.err.isTTY === true;
  }

  /**
   * A progress display on stderr: a live bar on a terminal, plain lines every `plainEveryMs` otherwise,
   * nothing with --quiet.
   */
  progress(options: { format: string; plain: (values: ProgressValues) => string; plainEveryMs?: number }): Progress {
    if (this.quiet) return new Progress(undefined, undefined, 0, () => '');
    if (this.interactive) {
      const bar = new SingleBar({
        format: options.format,
        stream: this.err as NodeJS.WritableStream as NodeJS.WriteStream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
        fps: 8,
        barsize: 30,
        barCompleteChar: '\u2588',
        barIncompleteChar: '\u2591',
        formatValue: (value, _options, type) => (type === 'value' || type === 'total' ? formatCount(value) : String(value)),
      });
      return new Progress(bar, undefined, 0, options.plain);
    }
    return new Progress(undefined, this.err, options.plainEveryMs ?? 2_000, options.plain);
  }
}

export interface ProgressValues {
  value: number;
  total: number;
  payload: Record<string, string | number>;
}

export class Progress {
  private values: ProgressValues = { value: 0, total: 0, payload: {} };
  private lastPlain = 0;
  private started = false;

  constructor(
    private readonly bar: SingleBar | undefined,
    private readonly stream: NodeJS.WritableStream | undefined,
    private readonly plainEveryMs: number,
    private readonly plain: (values: ProgressValues) => string,
  ) {}

  start(total: number, payload: Record<string, string | number> = {}): void {
    this.values = { value: 0, total, payload };
    this.started = true;
    this.bar?.start(Math.max(total, 1), 0, payload);
    this.line('start');
  }

  update(value: number, payload: Record<string, string | number> = {}, total?: number): void {
    if (!this.started) return;
    this.values = { value, total: total ?? this.values.total, payload: { ...this.values.payload, ...payload } };
    if (this.bar) {
      if (total !== undefined) this.bar.setTotal(Math.max(total, 1));
      this.bar.update(value, this.values.payload);
    }
    this.line('update');
  }

  /** The last state, drawn or written once more, and the bar released. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    if (this.bar) {
      this.bar.update(this.values.value, this.values.payload);
      this.bar.stop();
    } else this.line('final');
  }

  /** Plain mode: a line at the start, at most one per `plainEveryMs` meanwhile, and the final one. */
  private line(kind: 'start' | 'update' | 'final'): void {
    if (!this.stream) return;
    const now = Date.now();
    if (kind === 'update' && now - this.lastPlain < this.plainEveryMs) return;
    this.lastPlain = now;
    this.stream.write(`${this.plain(this.values)}\n`);
  }
}

const counter = new Intl.NumberFormat('en-US');
export const formatCount = (n: number): string => counter.format(Math.round(n));

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatCents = (cents: number): string => dollars.format(cents / 100);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
