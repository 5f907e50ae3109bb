// What the concord CLI says when a command ends: the import's rate (one definition for its progress line
// and its summary) and the export's sentence for a split, from the headers the service sends with a ZIP.
import { describe, expect, it } from 'vitest';
import { describeExport, readSplit, type ExportSplit } from '../../packages/cli/src/export.ts';
import { rowsPerSecond, Throughput } from '../../packages/cli/src/throughput.ts';

/** A clock the test moves by hand, in performance.now() milliseconds. */
function fakeClock(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("the import's rate", () => {
  it('is whole rows finished per second, 0 before time has passed', () => {
    expect(rowsPerSecond(1_000, 4)).toBe(250);
    expect(rowsPerSecond(1_000, 3)).toBe(333);
    expect(rowsPerSecond(2, 3)).toBe(1);
    expect(rowsPerSecond(500, 0)).toBe(0);
    expect(rowsPerSecond(0, 10)).toBe(0);
  });

  it('counts from the start the command gave it, planning included', () => {
    const clock = fakeClock(10_000);
    const throughput = new Throughput(clock.now(), clock.now);
    clock.advance(2_000); // reading the file's digest, asking the service its price
    expect(throughput.seconds()).toBe(2);
    expect(throughput.rate(0)).toBe(0);
    clock.advance(3_000);
    expect(throughput.rate(2_500)).toBe(500);
  });

  it('reads the same for the last progress line and the summary: the clock stops when the run ends', () => {
    const clock = fakeClock(0);
    const throughput = new Throughput(clock.now(), clock.now);
    clock.advance(7_000);
    throughput.end();
    const lastProgressLine = throughput.rate(2_500);
    // The checkpoint is saved and the error report closed before the summary is written.
    clock.advance(1_300);
    expect(throughput.seconds()).toBe(7);
    expect(throughput.rate(2_500)).toBe(lastProgressLine);
    expect(lastProgressLine).toBe(357);
    // A second end keeps the first.
    throughput.end();
    expect(throughput.seconds()).toBe(7);
  });
});

const exported = { file: '/home/me/dataset.zip', bytes: 1_240, contentType: 'application/zip', seconds: 0.8 };
const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;

describe("the export's summary of a split", () => {
  it('gives each file its records, and names the empty ones with the reason', () => {
    const split = readSplit(headers({ 'x-export-split': 'train=2, val=0, test=1', 'x-export-empty-parts': 'val' }), {
      trainRatio: 0.8,
      valRatio: 0.1,
      testRatio: 0.1,
    });
    expect(split).toMatchObject({ parts: { train: 2, val: 0, test: 1 }, emptyParts: ['val'] });
    expect(describeExport({ ...exported, split })).toBe(
      'Exported 1.21 KiB (application/zip) to /home/me/dataset.zip in 1 s: train 2, val 0, test 1 — val is empty (too few tasks for this split).',
    );

    const two = readSplit(headers({ 'x-export-split': 'train=1, val=0, test=0', 'x-export-empty-parts': 'val, test' }));
    expect(two.emptyParts).toEqual(['val', 'test']);
    expect(describeExport({ ...exported, split: two })).toMatch(/: train 1, val 0, test 0 — val and test are empty \(too few tasks for this split\)\.$/);
  });

  it('says nothing is empty when no file is', () => {
    const split = readSplit(headers({ 'x-export-split': 'train=1200, val=150, test=150' }));
    expect(split).toMatchObject({ parts: { train: 1_200, val: 150, test: 150 }, emptyParts: [] });
    expect(describeExport({ ...exported, split })).toBe('Exported 1.21 KiB (application/zip) to /home/me/dataset.zip in 1 s: train 1,200, val 150, test 150.');
  });

  it('tells a part asked at ratio 0 from one too few tasks left empty, and an export with no task at all', () => {
    const split = readSplit(headers({ 'x-export-split': 'train=3, val=0, test=0', 'x-export-empty-parts': 'val, test' }), {
      trainRatio: 0.9,
      valRatio: 0.1,
      testRatio: 0,
    });
    expect(describeExport({ ...exported, split })).toMatch(/ — val is empty \(too few tasks for this split\); test is empty \(ratio 0\)\.$/);
    const none = readSplit(headers({ 'x-export-split': 'train=0, val=0, test=0', 'x-export-empty-parts': 'train, val, test' }));
    expect(describeExport({ ...exported, split: none })).toMatch(/: train 0, val 0, test 0 — no task matched: every part is empty\.$/);
  });

  it('finds the empty parts in the counts when the service names none', () => {
    expect(readSplit(headers({ 'x-export-split': 'train=4,val=1,test=0' })).emptyParts).toEqual(['test']);
  });

  it('leaves the counts out without the headers (a single file, or an older service), or when they cannot be read', () => {
    const plain = { parts: null, emptyParts: null };
    expect(readSplit(headers({}))).toMatchObject(plain);
    expect(readSplit(headers({ 'x-export-split': 'train=2, val=zero, test=1' }))).toMatchObject(plain);
    expect(readSplit(headers({ 'x-export-split': 'train=2, test=1' }))).toMatchObject(plain);
    const split: ExportSplit = { parts: null, emptyParts: null };
    expect(describeExport({ ...exported, split })).toBe('Exported 1.21 KiB (application/zip) to /home/me/dataset.zip in 1 s');
    // The empty parts alone still get said.
    expect(describeExport({ ...exported, split: readSplit(headers({ 'x-export-empty-parts': 'val' })) })).toBe(
      'Exported 1.21 KiB (application/zip) to /home/me/dataset.zip in 1 s — val is empty (too few tasks for this split).',
    );
  });
});
