// Downloads an export with the session's bearer token (a plain link cannot send it): the body is read
// chunk by chunk so the page can show the bytes and records received, then kept as a Blob the browser
// saves through an <a download> with the name the service gave in Content-Disposition.
import { rawFetch } from '../api/client';
import type { ExportFormat } from '@concord/contract';

export interface DownloadProgress {
  bytes: number;
  /** Records seen so far; null when they cannot be counted (a ZIP is compressed). */
  records: number | null;
  /** True once the response headers arrived (a split first finds its cut points). */
  started: boolean;
}

export interface DownloadResult {
  url: string;
  fileName: string;
  bytes: number;
  records: number | null;
  contentType: string;
  /** A split's records per file as the service counted them (x-export-split: "train=2, val=0, test=1"). */
  splitParts: string | null;
  /** A split's files that hold no record (x-export-empty-parts: "val"). */
  emptyParts: string | null;
}

/** The file name of a Content-Disposition header (filename*=UTF-8'' first, then filename="…"). */
export function fileNameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(disposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  // Only a base name: never a path the browser would have to refuse.
  return name ? (name.split(/[/\\]/).pop() ?? null) : null;
}

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Counts records in the bytes of one export file as they arrive, without decoding them: a line per
 * record for the NDJSON formats, a line outside quotes for CSV (less its header), an object for JSON.
 * UTF-8 never uses these ASCII bytes inside a multi-byte character, so the count is exact.
 */
export function recordCounter(format: ExportFormat): (chunk: Uint8Array) => number {
  let records = 0;
  if (format === 'csv') {
    let quoted = false;
    let lines = 0;
    return (chunk) => {
      for (const byte of chunk) {
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === NEWLINE && !quoted) lines += 1;
      }
      records = Math.max(0, lines - 1);
      return records;
    };
  }
  if (format === 'json') {
    let inString = false;
    let escaped = false;
    // How deep in brackets and braces: a record is an object opened right inside the file's array (depth
    // 1); objects inside a record (a rating's, a multi-select task's confidences) are not records.
    let depth = 0;
    return (chunk) => {
      for (const byte of chunk) {
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) inString = false;
        } else if (byte === QUOTE) inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          if (byte === OPEN_BRACE && depth === 1) records += 1;
          depth += 1;
        } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1;
      }
      return records;
    };
  }
  return (chunk) => {
    for (const byte of chunk) if (byte === NEWLINE) records += 1;
    return records;
  };
}

interface DownloadOptions {
  query: string;
  format: ExportFormat;
  split: boolean;
  fallbackName: string;
  signal: AbortSignal;
  onProgress: (progress: DownloadProgress) => void;
}

/** Fetches GET /exports?query, reporting progress at most every 100 ms; resolves with a Blob URL to save. */
export async function downloadExport({ query, format, split, fallbackName, signal, onProgress }: DownloadOptions): Promise<DownloadResult> {
  const response = await rawFetch(`/exports?${query}`, { signal });
  const fileName = fileNameFrom(response.headers.get('content-disposition')) ?? fallbackName;
  const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
  const count = split ? null : recordCounter(format);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  let records: number | null = count ? 0 : null;
  let reported = 0;
  onProgress({ bytes, records, started: true });
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      if (count) records = count(value);
      const now = performance.now();
      if (now - reported > 100) {
        reported = now;
        onProgress({ bytes, records, started: true });
      }
    }
  }
  onProgress({ bytes, records, started: true });
  const blob = new Blob(chunks, { type: contentType.split(';')[0] ?? contentType });
  return {
    url: URL.createObjectURL(blob),
    fileName,
    bytes,
    records,
    contentType,
    splitParts: response.headers.get('x-export-split'),
    emptyParts: response.headers.get('x-export-empty-parts'),
  };
}
