// The export form's ratio checks and split sizes against the service's own functions: a ratio text the
// form accepts is one GET /exports accepts, and each file holds what the service will put in it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSizes as serviceSplitSizes } from '../../../src/modules/exports/export-formats.ts';
import { parseSplit } from '../../../src/modules/exports/exports.service.ts';
import { checkSplit, exportQuery, requestFromUrl, splitSizes, type Ratios } from './exportRequest';

/** Ratio texts people type, and texts near the edges of what the service's pattern allows. */
const ratioText = fc.oneof(
  fc.constantFrom(
    '0.8',
    '0.1',
    '.1',
    '0',
    '1',
    '1.0',
    '0.70',
    '0.2',
    '0.15',
    ' 0.5 ',
    '',
    '1e-1',
    '-0.1',
    '+0.1',
    '80%',
    '0,8',
    '1.',
    '0.333333333333',
    '0.3333333333333333',
  ),
  fc.double({ min: 0, max: 1.2, noNaN: true }).map((n) => String(Number(n.toFixed(3)))),
  fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '.', ' ', '-', 'e'), maxLength: 6 }),
);

/** Triples that add up to 1 in decimal but not always in binary. */
const summingTriple = fc
  .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }))
  .filter(([a, b]) => a + b <= 1000)
  .map(([a, b]) => {
    const text = (n: number) => String(n / 1000);
    return { trainRatio: text(a), valRatio: text(b), testRatio: text(1000 - a - b) };
  });

function serviceOutcome(ratios: Partial<Ratios>): { ok: true; split: boolean; values?: { train: number; val: number; test: number } } | { ok: false } {
  try {
    const split = parseSplit(ratios);
    return split.kind === 'split' ? { ok: true, split: true, values: { train: split.train, val: split.val, test: split.test } } : { ok: true, split: false };
  } catch {
    return { ok: false };
  }
}

describe('checkSplit', () => {
  it('does not offer a train ratio alone: the service answers it with the one plain file of no split', () => {
    expect(serviceOutcome({ trainRatio: '0.8' })).toEqual({ ok: true, split: false });
    expect(serviceOutcome({})).toEqual({ ok: true, split: false });
  });

  it('accepts three ratios exactly when the service does, with the same numbers', () => {
    fc.assert(
      fc.property(fc.oneof(fc.record({ trainRatio: ratioText, valRatio: ratioText, testRatio: ratioText }), summingTriple), (ratios) => {
        const here = checkSplit('three', ratios);
        const there = serviceOutcome(ratios);
        expect(here.ok).toBe(there.ok);
        if (here.ok && there.ok) expect(here.values).toEqual(there.values);
      }),
      { numRuns: 3000 },
    );
  });

  it('sends nothing to check when there is no split', () => {
    expect(checkSplit('none', { trainRatio: 'x', valRatio: 'y', testRatio: 'z' }).ok).toBe(true);
    expect(serviceOutcome({}).ok).toBe(true);
  });
});

describe('splitSizes', () => {
  it('cuts n records into the same train, validation and test sizes as the service', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), summingTriple, (n, ratios) => {
        const train = Number(ratios.trainRatio);
        const val = Number(ratios.valRatio);
        const sizes = splitSizes(n, train, val);
        expect(sizes).toEqual(serviceSplitSizes(n, train, val));
        expect(sizes.train + sizes.val + sizes.test).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('requestFromUrl', () => {
  it('opens the form a query string describes, so exportQuery and the page agree', () => {
    const query = 'format=csv&status=FAILED&projectId=p1&type=BINARY_CHOICE&locale=ar&trainRatio=0.7&valRatio=0.2&testRatio=0.1&seed=s';
    const { request, formatProblem } = requestFromUrl(new URLSearchParams(query));
    expect(formatProblem).toBe(false);
    expect(request.mode).toBe('three');
    expect(exportQuery(request)).toBe(query);
  });

  it('leaves out a train ratio given alone, and says so', () => {
    const { request, trainRatioAlone } = requestFromUrl(new URLSearchParams('format=jsonl&trainRatio=0.7'));
    expect(trainRatioAlone).toBe(true);
    expect(request.mode).toBe('none');
    expect(exportQuery(request)).toBe('format=jsonl&status=COMPLETED');
  });

  it('drops values the API would refuse and flags an unknown format', () => {
    const { request, formatProblem } = requestFromUrl(new URLSearchParams('format=xml&status=DONE&type=OTHER&locale=xx&valRatio=0.5'));
    expect(formatProblem).toBe(true);
    expect(request).toMatchObject({ format: '', status: 'COMPLETED', type: '', locale: '', mode: 'three' });
    expect(request.ratios).toEqual({ trainRatio: '0.8', valRatio: '0.5', testRatio: '' });
  });
});
