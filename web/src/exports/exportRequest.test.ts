// The export form's ratio checks in its words, and the request it sends or opens from a link.
import { describe, expect, it } from 'vitest';
import { checkSplit, exportQuery, expectedFileName, requestFromUrl } from './exportRequest';

describe('checkSplit', () => {
  it('takes three ratios that add up to 1, binary rounding allowed', () => {
    expect(checkSplit('three', { trainRatio: '0.7', valRatio: '0.2', testRatio: '0.1' })).toEqual({
      fields: {},
      sum: null,
      ok: true,
      values: { train: 0.7, val: 0.2, test: 0.1 },
    });
  });

  it('words each refusal next to its field, and a sum that is not 1 below them', () => {
    expect(checkSplit('three', { trainRatio: '', valRatio: '1e-1', testRatio: '1.5' }).fields).toEqual({
      trainRatio: 'Give a decimal between 0 and 1.',
      valRatio: 'Write a plain decimal such as 0.8 (no sign, percent or exponent).',
      testRatio: 'A ratio is between 0 and 1.',
    });
    const sum = checkSplit('three', { trainRatio: '0.8', valRatio: '0.1', testRatio: '0.2' });
    expect(sum.ok).toBe(false);
    expect(sum.sum).toMatch(/add up to 1.1;/);
  });

  it('sends nothing to check when there is no split', () => {
    expect(checkSplit('none', { trainRatio: 'x', valRatio: 'y', testRatio: 'z' }).ok).toBe(true);
  });
});

describe('expectedFileName', () => {
  it('is the name the service gives the download', () => {
    expect(expectedFileName('openai', 'none')).toBe('tasks-openai.jsonl');
    expect(expectedFileName('csv', 'three')).toBe('tasks-csv.zip');
    expect(expectedFileName('', 'none')).toBe('tasks');
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

  it('sends includeTies=true for the preference format only, and opens with the box ticked from such a link', () => {
    const { request } = requestFromUrl(new URLSearchParams('format=preference&status=COMPLETED&includeTies=true'));
    expect(request.includeTies).toBe(true);
    expect(exportQuery(request)).toBe('format=preference&status=COMPLETED&includeTies=true');
    expect(exportQuery({ ...request, includeTies: false })).toBe('format=preference&status=COMPLETED');
    expect(exportQuery({ ...request, format: 'jsonl' })).toBe('format=jsonl&status=COMPLETED');
  });

  it('drops values the API would refuse and flags an unknown format', () => {
    const { request, formatProblem } = requestFromUrl(new URLSearchParams('format=xml&status=DONE&type=OTHER&locale=xx&valRatio=0.5'));
    expect(formatProblem).toBe(true);
    expect(request).toMatchObject({ format: '', status: 'COMPLETED', type: '', locale: '', mode: 'three' });
    expect(request.ratios).toEqual({ trainRatio: '0.8', valRatio: '0.5', testRatio: '' });
  });
});
