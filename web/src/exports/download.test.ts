// The download's helpers: the file name the service gives in Content-Disposition, and the records
// counted while the bytes arrive, checked against files written by the service's own formatters
// (src/modules/exports/export-formats.ts) and cut into arbitrary chunks: a reader tested against the
// writer it reads, the one kind of test here that imports the server.
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '@concord/contract';
import { FORMATS, type ExportRecord } from '../../../src/modules/exports/export-formats.ts';
import { fileNameFrom, recordCounter } from './download';

const text = fc.string({ unit: fc.constantFrom('a', 'é', '漢', '😀', ' ', ',', '"', '\\', '{', '}', '[', ']', '\n', '\r', '=', '-'), maxLength: 20 });

const exportRecord: fc.Arbitrary<ExportRecord> = fc
  .record({
    id: fc.uuid(),
    type: fc.constantFrom('SENTIMENT_ANALYSIS', 'IMAGE_CLASSIFICATION', 'BINARY_CHOICE', 'AI_RESPONSE_RATING', 'RELEVANCE_RATING'),
    content: text,
    options: fc.array(text, { minLength: 2, maxLength: 4 }),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    locale: fc.constantFrom('en', 'fr', 'ar'),
    validatedAt: fc.option(fc.constant('2026-01-02T03:04:05.678Z')),
    labelIndex: fc.option(fc.nat(3)),
    rating: fc.option(fc.record({ mean: fc.double({ min: 0, max: 3, noNaN: true }), interval: fc.tuple(fc.nat(3), fc.nat(3)) })),
    // A pair of a group: its record holds the group's ranking, a list of objects inside the record.
    pair: fc.option(fc.record({ A: text, B: text, group: fc.option(text) })),
  })
  .map(({ labelIndex, rating, pair, ...record }) => ({
    ...record,
    label: labelIndex === null ? null : (record.options[labelIndex % record.options.length] ?? null),
    answerKind: pair !== null ? ('pairwise' as const) : rating === null ? ('single' as const) : ('rating' as const),
    rating: pair === null ? rating : null,
    optionConfidence: null,
    candidates: pair && { A: pair.A, B: pair.B },
    group: pair?.group ?? null,
    groupRanking:
      pair?.group == null
        ? null
        : [
            { candidate: pair.B, score: 0.5, rank: 1 },
            { candidate: pair.A, score: -0.5, rank: 2 },
          ],
  }));

/** Splits bytes at the given cut points (so a multi-byte character or a quote pair may straddle chunks). */
function chunks(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    parts.push(bytes.subarray(start, point));
    start = point;
  }
  return parts;
}

describe('recordCounter', () => {
  it('counts the records of every format as the service writes them, however the bytes arrive', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXPORT_FORMATS),
        fc.array(exportRecord, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (format, records, cuts) => {
          const file = FORMATS[format];
          const body = file.begin + records.map((record, index) => file.record(record, index)).join('') + file.end;
          const count = recordCounter(format);
          let last = 0;
          for (const chunk of chunks(Buffer.from(body, 'utf8'), cuts)) last = count(chunk);
          expect(last).toBe(records.length);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('fileNameFrom', () => {
  it('reads the name the service sends', () => {
    expect(fileNameFrom('attachment; filename="tasks-jsonl.jsonl"')).toBe('tasks-jsonl.jsonl');
    expect(fileNameFrom('attachment; filename="tasks-csv.zip"')).toBe('tasks-csv.zip');
  });

  it('prefers the UTF-8 form, unquotes and unescapes the plain one', () => {
    expect(fileNameFrom(`attachment; filename="fallback.csv"; filename*=UTF-8''r%C3%A9sultats.csv`)).toBe('résultats.csv');
    expect(fileNameFrom('attachment; filename=plain.json')).toBe('plain.json');
    expect(fileNameFrom('attachment; filename="say \\"hi\\".txt"')).toBe('say "hi".txt');
    expect(fileNameFrom(`attachment; filename*=UTF-8''%E0%A4%A; filename="ok.txt"`)).toBe('ok.txt');
  });

  it('keeps only a base name, never a path', () => {
    expect(fileNameFrom('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFrom('attachment; filename="C:\\\\temp\\\\x.csv"')).toBe('x.csv');
  });

  it('gives null without a usable name', () => {
    expect(fileNameFrom(null)).toBeNull();
    expect(fileNameFrom('attachment')).toBeNull();
  });
});
